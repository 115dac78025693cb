//! Bytes to text, as yaml.v2's reader (`readerc.go`) sees them: UTF-8, or UTF-16 when the input
//! starts with its byte-order mark, and only the characters YAML 1.1 allows.

use std::borrow::Cow;

use crate::{Error, ErrorKind, Location, Result};

/// The text of `bytes`: UTF-8 (with or without a byte-order mark), or UTF-16 after a UTF-16
/// byte-order mark (`FF FE` little-endian, `FE FF` big-endian), which yaml.v2 also reads.
pub(super) fn decode(bytes: &[u8]) -> Result<Cow<'_, str>> {
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes).map(Cow::Owned),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes).map(Cow::Owned),
        _ => match std::str::from_utf8(bytes) {
            Ok(text) => Ok(Cow::Borrowed(text)),
            Err(e) => {
                let at = e.valid_up_to();
                let valid = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
                let byte = bytes.get(at).copied().unwrap_or_default();
                let what = if e.error_len().is_none() {
                    "an incomplete UTF-8 sequence at the end of the input"
                } else {
                    "a byte that is not valid UTF-8"
                };
                Err(Error::new(
                    ErrorKind::Yaml,
                    format!("invalid UTF-8: found {what} (0x{byte:02x})"),
                    location(valid, at),
                ))
            }
        },
    }
}

/// UTF-16 text after its byte-order mark. An error is located at the end of the text decoded
/// before it.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String> {
    let mut out = String::with_capacity(bytes.len() / 2 * 3);
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => out.push(c),
            Err(e) => {
                return Err(Error::new(
                    ErrorKind::Yaml,
                    format!(
                        "invalid UTF-16: unpaired surrogate 0x{:04x}",
                        e.unpaired_surrogate()
                    ),
                    location(&out, out.len()),
                ));
            }
        }
    }
    if bytes.len() % 2 == 1 {
        return Err(Error::new(
            ErrorKind::Yaml,
            "invalid UTF-16: the input ends in the middle of a code unit",
            location(&out, out.len()),
        ));
    }
    Ok(out)
}

/// Refuses the characters yaml.v2 refuses anywhere in its input (`readerc.go:342`): everything
/// but tab, line feed, carriage return, printable ASCII, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD
/// and U+10000 and beyond.
pub(super) fn check_characters(text: &str) -> Result<()> {
    // Nearly every byte is printable ASCII: look at characters only around the others, and
    // at bytes a block at a time (a loop without early exit, which the compiler vectorises).
    const BLOCK: usize = 32;
    let allowed_ascii = |b: u8| (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r');
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let block = bytes
            .get(i..i + BLOCK)
            .and_then(|b| <&[u8; BLOCK]>::try_from(b).ok());
        if let Some(block) = block {
            let plain = |b: u8| u8::from(b.wrapping_sub(0x20) < 0x5F || b == b'\n');
            if block.iter().fold(1, |ok, &b| ok & plain(b)) == 1 {
                i += BLOCK;
                continue;
            }
        }
        // A block with something else in it (or the last few bytes): character by character.
        let end = (i + BLOCK).min(bytes.len());
        while let Some(&b) = bytes.get(i).filter(|_| i < end) {
            if b < 0x80 {
                if !allowed_ascii(b) {
                    return Err(control_character(text, i, char::from(b)));
                }
                i += 1;
                continue;
            }
            let c = text[i..].chars().next().unwrap_or_default();
            let allowed = matches!(c, '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
                || c >= '\u{10000}';
            if !allowed {
                return Err(control_character(text, i, c));
            }
            i += c.len_utf8();
        }
    }
    Ok(())
}

fn control_character(text: &str, offset: usize, c: char) -> Error {
    Error::new(
        ErrorKind::Yaml,
        format!(
            "control characters are not allowed (found U+{:04X})",
            u32::from(c)
        ),
        location(text, offset),
    )
}

/// The line and column of byte `offset` of `text` (1-based; columns count characters; a line
/// ends with `\n`, `\r\n` or a lone `\r`, as in YAML).
pub(super) fn location(text: &str, offset: usize) -> Location {
    let before = text.get(..offset).unwrap_or(text);
    let bytes = before.as_bytes();
    let breaks = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count();
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    Location::Text {
        line: breaks + 1,
        column: before[line_start..].chars().count() + 1,
        offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The offset of the refused character, wherever it falls in the blocks looked at whole.
    #[test]
    fn a_control_character_is_found_at_every_offset() {
        for prefix in ["", "é", "\t\r\n", "\u{10000}"] {
            for at in 0..100 {
                let text = format!("{prefix}{}\u{7}{}", "a".repeat(at), "b".repeat(40));
                let offset = prefix.len() + at;
                match check_characters(&text).map_err(|e| e.location()) {
                    Err(Location::Text { offset: found, .. }) => assert_eq!(found, offset),
                    other => panic!("{prefix:?} {at}: {other:?}"),
                }
                assert!(check_characters(&text.replace('\u{7}', "\u{A0}")).is_ok());
            }
        }
    }
}
