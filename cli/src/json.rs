//! JSON documents as kubectl reads them from a file: Go's `encoding/json` syntax (what
//! `YAMLOrJSONDecoder` decodes a JSON stream with), numbers as Kubernetes makes them (an
//! integer that fits in an int64 is an int, every other number a float64), a repeated key
//! keeping its first place and its last value. Nesting is bounded by the library's
//! [`MAX_DEPTH`], as YAML is, and the reader keeps its own stack (no recursion), so depth costs
//! no thread stack. Repeated keys are recorded with the line the API server's strict decoding
//! names (the line of the repeated key's value).

use smd::fieldpath::value::gofmt;
use smd::fieldpath::{MAX_DEPTH, Map, Value};

/// One JSON value read from a text.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) value: Value,
    /// The offset just after the value.
    pub(crate) end: usize,
    /// The keys set twice in a map, in text order.
    pub(crate) duplicates: Vec<Duplicate>,
}

/// A key set twice in one map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Duplicate {
    /// 1-based line of the repeated key's value, counted from the start of the text read.
    pub(crate) line: usize,
    /// The key as Go's `%#v` prints it (a quoted string).
    pub(crate) key: String,
}

/// Why a text is not a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JsonError {
    /// In `encoding/json`'s words where it has some (`invalid character 'x' looking for
    /// beginning of value`, `unexpected EOF`).
    pub(crate) message: String,
    /// Byte offset of the offending byte.
    pub(crate) offset: usize,
    /// 1-based line and column (in characters) of the offending byte.
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// A syntax error (the end of the text included), which makes kubectl try the text as
    /// YAML; not the nesting limit, nor a number out of float64's range (an error of decoding
    /// the object, after the stream is cut).
    pub(crate) syntax: bool,
}

/// JSON whitespace.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// An open list or map.
enum Frame {
    List { items: Vec<Value>, line: usize },
    Map { map: Map, key: String, line: usize },
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    /// 1-based line at `at`, and where that line starts (newlines occur only in whitespace).
    line: usize,
    line_start: usize,
}

/// Reads the JSON value starting at (or after whitespace from) `start` of `text`; lines are
/// counted from `start`. Text after the value is left alone.
pub(crate) fn read_value(text: &str, start: usize) -> Result<Parsed, JsonError> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: start,
        line: 1,
        line_start: start,
    };
    reader.read()
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if !is_space(b) {
                break;
            }
            self.at += 1;
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.at;
            }
        }
    }

    fn error(&self, message: String) -> JsonError {
        let text = std::str::from_utf8(self.text).unwrap_or_default();
        let before = text.get(self.line_start..self.at).unwrap_or_default();
        JsonError {
            message,
            offset: self.at,
            line: self.line,
            column: before.chars().count() + 1,
            syntax: true,
        }
    }

    /// `invalid character 'c' <context>`, or `unexpected EOF` at the end of the text.
    fn invalid(&self, context: &str) -> JsonError {
        match self.char_at() {
            None => self.error("unexpected EOF".to_owned()),
            Some(c) => self.error(format!("invalid character {} {context}", quote_char(c))),
        }
    }

    fn char_at(&self) -> Option<char> {
        let rest = self.text.get(self.at..)?;
        let rest = std::str::from_utf8(rest).ok()?;
        rest.chars().next()
    }

    fn read(&mut self) -> Result<Parsed, JsonError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut duplicates = Vec::new();
        self.skip_space();
        'value: loop {
            // A value starts here.
            let value_line = self.line;
            let mut value = match self.peek() {
                Some(open @ (b'{' | b'[')) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(JsonError {
                            syntax: false,
                            ..self.error(format!(
                                "maps and lists nest deeper than {MAX_DEPTH} levels"
                            ))
                        });
                    }
                    self.at += 1;
                    self.skip_space();
                    if open == b'[' {
                        if self.peek() == Some(b']') {
                            self.at += 1;
                            Value::List(Vec::new())
                        } else {
                            stack.push(Frame::List {
                                items: Vec::new(),
                                line: value_line,
                            });
                            continue 'value;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.at += 1;
                        Value::Map(Map::new())
                    } else {
                        let key = self.key()?;
                        stack.push(Frame::Map {
                            map: Map::new(),
                            key,
                            line: value_line,
                        });
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                _ => return Err(self.invalid("looking for beginning of value")),
            };
            // A value is complete: put it into its parent, closing what it completes.
            let mut line = value_line;
            loop {
                let Some(top) = stack.last_mut() else {
                    return Ok(Parsed {
                        value,
                        end: self.at,
                        duplicates,
                    });
                };
                match top {
                    Frame::List { items, .. } => {
                        items.push(value);
                        self.skip_space();
                        match self.peek() {
                            Some(b',') => {
                                self.at += 1;
                                self.skip_space();
                                continue 'value;
                            }
                            Some(b']') => {
                                self.at += 1;
                                let Some(Frame::List { items, line: at }) = stack.pop() else {
                                    return Err(self.error("internal: list expected".into()));
                                };
                                value = Value::List(items);
                                line = at;
                            }
                            _ => return Err(self.invalid("after array element")),
                        }
                    }
                    Frame::Map { map, key, .. } => {
                        let key = std::mem::take(key);
                        if map.contains_key(&key) {
                            duplicates.push(Duplicate {
                                line,
                                key: go_quote(&key),
                            });
                        }
                        map.insert(key, value);
                        self.skip_space();
                        match self.peek() {
                            Some(b',') => {
                                self.at += 1;
                                self.skip_space();
                                let next = self.key()?;
                                if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                                    *key = next;
                                }
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.at += 1;
                                let Some(Frame::Map { map, line: at, .. }) = stack.pop() else {
                                    return Err(self.error("internal: map expected".into()));
                                };
                                value = Value::Map(map);
                                line = at;
                            }
                            _ => return Err(self.invalid("after object key:value pair")),
                        }
                    }
                }
            }
        }
    }

    /// A map key and its `:`, leaving the reader at the value.
    fn key(&mut self) -> Result<String, JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.invalid("looking for beginning of object key string"));
        }
        let key = self.string()?;
        self.skip_space();
        if self.peek() != Some(b':') {
            return Err(self.invalid("after object key"));
        }
        self.at += 1;
        self.skip_space();
        Ok(key)
    }

    /// A string at `"`: escapes decoded as `encoding/json` decodes them (a lone surrogate is
    /// U+FFFD).
    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run_start = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            let run = self.text.get(run_start..self.at).unwrap_or_default();
            out.push_str(std::str::from_utf8(run).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let first = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&first)
                                && self.text.get(self.at..self.at + 2) == Some(b"\\u")
                            {
                                let save = self.at;
                                self.at += 2;
                                let second = self.hex4()?;
                                if (0xDC00..0xE000).contains(&second) {
                                    char::from_u32(
                                        0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00),
                                    )
                                } else {
                                    // Not a pair: the first is lone, the second read again.
                                    self.at = save;
                                    None
                                }
                            } else {
                                char::from_u32(first)
                            };
                            out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
                            continue;
                        }
                        _ => return Err(self.invalid("in string escape code")),
                    };
                    self.at += 1;
                    out.push(escaped);
                }
                _ => return Err(self.invalid("in string literal")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut n = 0;
        for _ in 0..4 {
            let digit = self.peek().and_then(|b| char::from(b).to_digit(16));
            let Some(d) = digit else {
                return Err(self.invalid("in \\u hexadecimal character escape"));
            };
            n = n * 16 + d;
            self.at += 1;
        }
        Ok(n)
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }

    /// A number: an int when it has no fraction or exponent and fits in an int64, else a
    /// float64 (out of float64's range is an error, as Kubernetes' number conversion says).
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.invalid("in numeric literal")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.invalid("after decimal point in numeric literal"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integer = false;
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.invalid("in exponent of numeric literal"));
            }
        }
        let text = std::str::from_utf8(self.text.get(start..self.at).unwrap_or_default())
            .unwrap_or_default();
        if integer {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Int(i));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Value::Float(f)),
            _ => {
                self.at = start;
                Err(JsonError {
                    syntax: false,
                    ..self.error(format!(
                        "json: cannot unmarshal number {text} into Go value of type float64"
                    ))
                })
            }
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, JsonError> {
        for (i, expected) in word.bytes().enumerate() {
            if self.peek() != Some(expected) {
                let context = if i == 0 {
                    "looking for beginning of value".to_owned()
                } else {
                    format!(
                        "in literal {word} (expecting {})",
                        quote_char(char::from(expected))
                    )
                };
                return Err(self.invalid(&context));
            }
            self.at += 1;
        }
        Ok(value)
    }
}

/// A character as `encoding/json` quotes it in a syntax error.
fn quote_char(c: char) -> String {
    match c {
        '\'' => "'\\''".to_owned(),
        '"' => "'\"'".to_owned(),
        c => {
            let quoted = go_quote(&c.to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

/// A string as Go's `%#v` (`strconv.Quote`) writes it.
pub(crate) fn go_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    gofmt::write_go_syntax(
        &mut out,
        &Value::String(text.to_owned()),
        gofmt::MapKeys::String,
    );
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Parsed, JsonError> {
        read_value(text, 0)
    }

    #[test]
    fn values_and_numbers() {
        let p = read(r#" {"a": [1, -0, 1.0, 1e2, 9223372036854775808, "x\u00e9\ud83d\ude00\ud800"], "b": {}, "c": [], "d": null, "e": true} tail"#).unwrap();
        let m = p.value.as_map().unwrap();
        let a = m.get("a").unwrap().as_list().unwrap();
        assert_eq!(a[0], Value::Int(1));
        assert_eq!(a[1], Value::Int(0));
        assert_eq!(a[2], Value::Float(1.0));
        assert_eq!(a[3], Value::Float(100.0));
        assert_eq!(a[4], Value::Float(9223372036854775808.0));
        assert_eq!(a[5], Value::String("xé😀\u{FFFD}".into()));
        assert_eq!(
            &r#" {"a": [1, -0, 1.0, 1e2, 9223372036854775808, "x\u00e9\ud83d\ude00\ud800"], "b": {}, "c": [], "d": null, "e": true} tail"#
                [p.end..],
            " tail"
        );
    }

    #[test]
    fn errors_in_encoding_json_words() {
        let cases = [
            (
                "{a: 1}",
                "invalid character 'a' looking for beginning of object key string",
                1,
                2,
            ),
            ("{\"a\" 1}", "invalid character '1' after object key", 1, 6),
            (
                "{\"a\": 1 \"b\"}",
                "invalid character '\"' after object key:value pair",
                1,
                9,
            ),
            (
                "[1,\n 2 3]",
                "invalid character '3' after array element",
                2,
                4,
            ),
            ("---", "invalid character '-' in numeric literal", 1, 2),
            (
                "[tru]",
                "invalid character ']' in literal true (expecting 'e')",
                1,
                5,
            ),
            (
                "[1.]",
                "invalid character ']' after decimal point in numeric literal",
                1,
                4,
            ),
            ("{\"a\": ", "unexpected EOF", 1, 7),
            (
                "[1e400]",
                "json: cannot unmarshal number 1e400 into Go value of type float64",
                1,
                2,
            ),
            (
                "[1e]",
                "invalid character ']' in exponent of numeric literal",
                1,
                4,
            ),
            (
                "[\"\\x\"]",
                "invalid character 'x' in string escape code",
                1,
                4,
            ),
            (
                "[\"\\u12g4\"]",
                "invalid character 'g' in \\u hexadecimal character escape",
                1,
                7,
            ),
            ("[-]", "invalid character ']' in numeric literal", 1, 3),
            (
                "[\u{0}]",
                "invalid character '\\x00' looking for beginning of value",
                1,
                2,
            ),
            (
                "[\"\t\"]",
                "invalid character '\\t' in string literal",
                1,
                3,
            ),
        ];
        for (text, message, line, column) in cases {
            let e = read(text).unwrap_err();
            assert_eq!(
                (e.message.as_str(), e.line, e.column),
                (message, line, column),
                "{text}"
            );
        }
    }

    #[test]
    fn depth_is_bounded_by_the_library_limit() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(read(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        let e = read(&deep).unwrap_err();
        assert!(!e.syntax);
        assert_eq!(e.message, "maps and lists nest deeper than 1000 levels");
        // Far deeper costs no stack.
        let very = "[".repeat(1 << 20);
        assert!(!read(&very).unwrap_err().syntax);
    }

    #[test]
    fn duplicates_keep_the_first_place_and_the_last_value() {
        let p = read("{\"k\": 1, \"j\": 2,\n \"k\":\n 3, \"m\": {\"x\": 1, \"x\": {}}}").unwrap();
        let m = p.value.as_map().unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["k", "j", "m"]);
        assert_eq!(m.get("k"), Some(&Value::Int(3)));
        assert_eq!(
            p.duplicates,
            [
                Duplicate {
                    line: 3,
                    key: "\"k\"".into()
                },
                Duplicate {
                    line: 3,
                    key: "\"x\"".into()
                },
            ]
        );
    }
}
