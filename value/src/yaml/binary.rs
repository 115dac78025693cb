//! `!!binary` scalars: base64 as Go's `base64.StdEncoding.DecodeString` reads it (`decode.go:420`).
//!
//! Standard alphabet, padding required, `\r` and `\n` skipped anywhere, nothing but line breaks
//! after the padding, and (the encoding not being strict) unused trailing bits ignored.

/// The decoded bytes, or `None` where Go reports a `CorruptInputError`.
pub(super) fn decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut chars = text.bytes().filter(|&c| c != b'\n' && c != b'\r');
    loop {
        let mut quantum = [0u8; 4];
        let mut len = 0;
        while len < 4 {
            let Some(c) = chars.next() else {
                // Input ended: fine between quanta, an error inside one (padding is required).
                return (len == 0).then_some(out);
            };
            if c == b'=' {
                // One `=` after three symbols, two after two; then only the end of input.
                match len {
                    2 if chars.next() == Some(b'=') => {}
                    3 => {}
                    _ => return None,
                }
                if chars.next().is_some() {
                    return None;
                }
                push(&mut out, quantum, len);
                return Some(out);
            }
            quantum[len] = symbol(c)?;
            len += 1;
        }
        push(&mut out, quantum, 4);
    }
}

/// The bytes of a quantum of `len` symbols (2, 3 or 4): 1, 2 or 3 bytes.
fn push(out: &mut Vec<u8>, q: [u8; 4], len: usize) {
    let bits =
        u32::from(q[0]) << 18 | u32::from(q[1]) << 12 | u32::from(q[2]) << 6 | u32::from(q[3]);
    let bytes = bits.to_be_bytes();
    out.extend_from_slice(&bytes[1..len]);
}

/// The 6-bit value of a symbol of the standard alphabet.
fn symbol(c: u8) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    })
}
