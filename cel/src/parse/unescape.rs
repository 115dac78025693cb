//! The value of a string or bytes literal, as cel-go's parser/unescape.go computes it from the
//! token's text (the lexer has already checked the escapes' shape; this checks their values).

/// The bytes a literal's text (`"..."`, `r'...'`, `'''...'''`; a bytes literal without its
/// `b`) stands for. A string's escapes of code points are written as UTF-8; a bytes literal's
/// `\x` and octal escapes are single bytes. `Err` carries cel-go's message.
pub(crate) fn unescape(text: &str, is_bytes: bool) -> Result<Vec<u8>, &'static str> {
    const UNABLE: &str = "unable to unescape string";
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut value = normalized.as_str();
    if value.len() < 2 {
        return Err(UNABLE);
    }
    let raw = value.starts_with(['r', 'R']);
    if raw {
        value = &value[1..];
    }
    let bytes = value.as_bytes();
    let n = bytes.len();
    let (first, last) = (bytes[0], bytes[n - 1]);
    if first != last || (first != b'"' && first != b'\'') {
        return Err(UNABLE);
    }
    let body = if n >= 6 && (value.starts_with("'''") || value.starts_with("\"\"\"")) {
        let triple = &value[..3];
        if !value.ends_with(triple) {
            return Err(UNABLE);
        }
        &value[3..n - 3]
    } else {
        &value[1..n - 1]
    };
    if raw || !body.contains('\\') {
        return Ok(body.as_bytes().to_vec());
    }
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    while let Some(ch) = rest.chars().next() {
        if ch != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            rest = &rest[ch.len_utf8()..];
            continue;
        }
        let tail = &rest.as_bytes()[1..];
        let Some(&c) = tail.first() else {
            return Err("unable to unescape string, found '\\' as last character");
        };
        let simple = match c {
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' | b'\'' | b'"' | b'`' | b'?' => Some(c),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            rest = &rest[2..];
            continue;
        }
        let (value, len, single_byte) = match c {
            b'x' | b'X' | b'u' | b'U' => {
                let digits = match c {
                    b'x' | b'X' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                if is_bytes && digits > 2 {
                    return Err(UNABLE);
                }
                let hex = tail.get(1..1 + digits).ok_or(UNABLE)?;
                let mut v: u32 = 0;
                for &h in hex {
                    v = v << 4 | char::from(h).to_digit(16).ok_or(UNABLE)?;
                }
                (v, 2 + digits, is_bytes)
            }
            b'0'..=b'3' => {
                let oct = tail
                    .get(1..3)
                    .ok_or("unable to unescape octal sequence in string")?;
                let mut v = u32::from(c - b'0');
                for &o in oct {
                    if !(b'0'..=b'7').contains(&o) {
                        return Err("unable to unescape octal sequence in string");
                    }
                    v = v * 8 + u32::from(o - b'0');
                }
                (v, 4, is_bytes)
            }
            _ => return Err(UNABLE),
        };
        if single_byte {
            // Only \x and octal reach here for bytes, both at most 0xff.
            out.push(u8::try_from(value).map_err(|_| UNABLE)?);
        } else {
            let ch = char::from_u32(value).ok_or("invalid unicode code point")?;
            let mut buf = [0; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
        rest = &rest[len..];
    }
    Ok(out)
}
