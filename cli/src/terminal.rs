//! Text on its way to a person: nothing read from input may act on the terminal or fake a line.
//!
//! Two layers. Names from input (object names, namespaces, kinds, manager names, file names,
//! field paths) are escaped where they are put into a line ([`escape`]: line breaks too, so a
//! name cannot start a line of its own). And everything a subcommand writes passes [`clean`]
//! before it reaches stdout or stderr: whatever control character a message or a program's
//! output still holds is written as an escape, and only smd's own color codes stay.

use std::borrow::Cow;
use std::fmt::Write as _;

use smd_fieldpath::is_terminal_control;

/// `text` with every terminal control (line breaks and tabs included) written as `\u001b`
/// (smd-value's, which the library's texts for people use too).
pub use smd::value::escape_controls as escape;

fn push_char(out: &mut String, c: char, keep_lines: bool) {
    smd::value::push_escaped(out, c, keep_lines);
}

/// A writer that passes everything through [`clean`] on its way to `inner`. Each write is
/// cleaned on its own: smd writes whole pieces of text (an object's section, a message), so no
/// color code or character is cut between two writes.
#[derive(Debug)]
pub(crate) struct Cleaned<W> {
    inner: W,
    colors: bool,
}

impl<W: std::io::Write> Cleaned<W> {
    pub(crate) fn new(inner: W, colors: bool) -> Cleaned<W> {
        Cleaned { inner, colors }
    }
}

impl<W: std::io::Write> std::io::Write for Cleaned<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write_all(&clean(buf, self.colors))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The color codes smd itself writes ([`crate::render::Paint`]); with colors on, these are
/// the only escape sequences that pass.
pub const SGR: [&[u8]; 15] = [
    b"\x1b[0m",
    b"\x1b[1m",
    b"\x1b[2m",
    b"\x1b[31m",
    b"\x1b[32m",
    b"\x1b[33m",
    b"\x1b[34m",
    b"\x1b[35m",
    b"\x1b[36m",
    b"\x1b[91m",
    b"\x1b[92m",
    b"\x1b[93m",
    b"\x1b[94m",
    b"\x1b[95m",
    b"\x1b[96m",
];

/// `bytes` ready for a terminal or a log: line breaks and tabs stay, smd's own color codes stay
/// when `colors` is on, every other terminal control is escaped (`\u001b`), and bytes that are
/// not UTF-8 are written as `\xNN` (a lone 0x9b is a control sequence introducer to some
/// terminals).
pub fn clean(bytes: &[u8], colors: bool) -> Cow<'_, [u8]> {
    let needs = bytes
        .iter()
        .any(|&b| (b < 0x20 && b != b'\n' && b != b'\t') || b >= 0x7f);
    if !needs {
        return Cow::Borrowed(bytes);
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut rest = bytes;
    while !rest.is_empty() {
        let (valid, invalid) = match std::str::from_utf8(rest) {
            Ok(text) => (text, &[][..]),
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // `valid_up_to` marks a UTF-8 boundary, so this cannot fail.
                (std::str::from_utf8(good).unwrap_or_default(), bad)
            }
        };
        let mut text = valid;
        while let Some(at) = text.find(|c: char| is_terminal_control(c) && c != '\n' && c != '\t') {
            out.push_str(&text[..at]);
            let tail = &text[at..];
            let own = SGR.iter().find(|code| tail.as_bytes().starts_with(code));
            if let (true, Some(code)) = (colors, own) {
                out.push_str(&tail[..code.len()]);
                text = &tail[code.len()..];
                continue;
            }
            let mut chars = tail.chars();
            if let Some(c) = chars.next() {
                push_char(&mut out, c, true);
            }
            text = chars.as_str();
        }
        out.push_str(text);
        if invalid.is_empty() {
            break;
        }
        // One byte that starts no valid character; what follows is looked at again.
        let _ = write!(out, "\\x{:02x}", invalid[0]);
        rest = &invalid[1..];
    }
    Cow::Owned(out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaned(bytes: &[u8], colors: bool) -> String {
        String::from_utf8(clean(bytes, colors).into_owned()).unwrap_or_default()
    }

    #[test]
    fn escape_makes_one_visible_line() {
        assert_eq!(escape("web"), "web");
        assert_eq!(
            escape("a\nb\u{1b}[2J\u{202e}c\td"),
            "a\\u000ab\\u001b[2J\\u202ec\\u0009d"
        );
    }

    #[test]
    fn clean_keeps_lines_and_own_colors_only() {
        assert_eq!(cleaned(b"plain\ttext\n", false), "plain\ttext\n");
        assert_eq!(
            cleaned(b"\x1b[31m-x\x1b[0m\n\x1b[2J\x1b]0;title\x07", true),
            "\x1b[31m-x\x1b[0m\n\\u001b[2J\\u001b]0;title\\u0007"
        );
        // Colors off: even smd's own codes are escaped (they can only come from input then).
        assert_eq!(cleaned(b"\x1b[31m", false), "\\u001b[31m");
        // blame's palette passes too.
        assert_eq!(cleaned(b"\x1b[95mm\x1b[0m", true), "\x1b[95mm\x1b[0m");
        // Concealed text is not one of smd's codes.
        assert_eq!(cleaned(b"\x1b[8m", true), "\\u001b[8m");
        assert_eq!(
            cleaned("é\u{202e}\u{85}".as_bytes(), false),
            "é\\u202e\\u0085"
        );
        assert_eq!(cleaned(b"a\x9b31mb\xff", false), "a\\x9b31mb\\xff");
        assert_eq!(cleaned(b"nul\0", false), "nul\\u0000");
    }
}
