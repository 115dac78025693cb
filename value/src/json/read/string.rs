//! Strings as json-iterator reads and skips them.
//!
//! A string is first scanned within the current buffer for its closing quote; that fast path
//! refuses raw control characters. A backslash, or a buffer that ends first, sends the reader to
//! the slow path, which decodes escapes byte by byte across buffers and does **not** look at
//! control characters. So `"\n<U+0001>"` (escape first) is accepted while `"<U+0001>"` is not, and
//! the bytes of a string are otherwise passed through untouched, valid UTF-8 or not.

use std::borrow::Cow;

use super::{Reader, byte_text};

impl<'a> Reader<'a> {
    /// Go's `ReadString`: a string's bytes (borrowed when it has no escapes), or empty for
    /// `null` and on error.
    pub(crate) fn read_string(&mut self) -> Cow<'a, [u8]> {
        match self.next_token() {
            b'"' => {}
            b'n' => {
                self.expect_literal("ull");
                return Cow::Borrowed(&[]);
            }
            other => {
                let message = format!("expects \" or n, but found {}", byte_text(other));
                self.report_error("ReadString", &message);
                return Cow::Borrowed(&[]);
            }
        }
        let input = self.input;
        let start = self.head;
        for (at, &byte) in input[start..self.tail].iter().enumerate() {
            match byte {
                b'"' => {
                    self.head = start + at + 1;
                    return Cow::Borrowed(&input[start..start + at]);
                }
                b'\\' => break,
                byte if byte < b' ' => {
                    let message = format!("invalid control character found: {byte}");
                    self.report_error("ReadString", &message);
                    return Cow::Borrowed(&[]);
                }
                _ => {}
            }
        }
        Cow::Owned(self.read_string_slow())
    }

    /// Go's `readStringSlowPath`, from just after the opening quote. It runs only while the error
    /// slot is empty; running out of input (or any failure on the way) ends it with
    /// `unexpected end of input`, which replaces an end-of-input state but not a failure.
    fn read_string_slow(&mut self) -> Vec<u8> {
        let mut text = Vec::new();
        while self.is_clean() {
            match self.read_byte() {
                b'"' => return text,
                b'\\' => {
                    let escape = self.read_byte();
                    self.read_escape(escape, &mut text);
                }
                byte => text.push(byte),
            }
        }
        self.report_error("readStringSlowPath", "unexpected end of input");
        Vec::new()
    }

    /// Go's `readEscapedChar`: appends what the escape after a backslash stands for. A `\u` that
    /// is half of a surrogate pair looks for the other half; what cannot pair becomes U+FFFD.
    fn read_escape(&mut self, escape: u8, text: &mut Vec<u8>) {
        let byte = match escape {
            b'u' => return self.read_unicode_escape(text),
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            _ => {
                self.report_error("readEscapedChar", "invalid escape char after \\");
                return;
            }
        };
        text.push(byte);
    }

    fn read_unicode_escape(&mut self, text: &mut Vec<u8>) {
        let first = self.read_hex4();
        if !(0xD800..0xE000).contains(&first) {
            push_code_point(text, first);
            return;
        }
        // A surrogate: only `\u` right after it can complete it.
        let next = self.read_byte();
        if !self.is_clean() {
            return;
        }
        if next != b'\\' {
            self.unread_byte();
            push_code_point(text, first);
            return;
        }
        let escape = self.read_byte();
        if !self.is_clean() {
            return;
        }
        if escape != b'u' {
            push_code_point(text, first);
            return self.read_escape(escape, text);
        }
        let second = self.read_hex4();
        if !self.is_clean() {
            return;
        }
        let high = (0xD800..0xDC00).contains(&first);
        let low = (0xDC00..0xE000).contains(&second);
        if high && low {
            push_code_point(text, 0x10000 + ((first - 0xD800) << 10 | (second - 0xDC00)));
        } else {
            // Go decodes the pair to U+FFFD and then keeps both halves on their own: the second
            // is not tried as the start of another pair.
            push_code_point(text, first);
            push_code_point(text, second);
        }
    }

    /// Go's `readU4`: four hex digits; stops early (with what it has) at end of input or on a
    /// byte that is not a hex digit, which it reports.
    fn read_hex4(&mut self) -> u32 {
        let mut value = 0;
        for _ in 0..4 {
            let byte = self.read_byte();
            if !self.is_clean() {
                return value;
            }
            let Some(digit) = char::from(byte).to_digit(16) else {
                let message = format!("expects 0~9 or a~f, but found {}", byte_text(byte));
                self.report_error("readU4", &message);
                return value;
            };
            value = value * 16 + digit;
        }
        value
    }

    /// Go's `skipString` for `Skip`: a quick scan for the closing quote within the buffer
    /// (refusing raw control characters), else a full [`Reader::read_string`].
    pub(super) fn skip_string(&mut self) {
        let start = self.head;
        for (at, &byte) in self.input[start..self.tail].iter().enumerate() {
            match byte {
                b'"' => {
                    self.head = start + at + 1;
                    return;
                }
                b'\\' => break,
                byte if byte < b' ' => {
                    let message = format!("invalid control character found: {byte}");
                    self.report_error("trySkipString", &message);
                    return;
                }
                _ => {}
            }
        }
        self.unread_byte();
        self.read_string();
    }
}

/// Appends a code point as UTF-8; a lone surrogate becomes U+FFFD, as Go's `appendRune` does.
fn push_code_point(text: &mut Vec<u8>, code: u32) {
    let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
    let mut buf = [0; 4];
    text.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}
