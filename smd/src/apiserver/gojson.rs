//! Go's `encoding/json` syntax errors, in its words: the API server reads a body's
//! `apiVersion` and `kind` with `json.Unmarshal`, whose scanner checks the whole text first and
//! names the first byte it cannot take (`invalid character '}' looking for beginning of object
//! key string`, `unexpected end of JSON input`).

/// What the scanner expects next.
#[derive(Clone, Copy)]
enum Expect {
    /// A value (the text's, an array element's, an object member's).
    Value,
    /// An object's first key or its end.
    FirstKey,
    /// A key after a `,`.
    Key,
    /// The `:` after a key.
    Colon,
    /// A `,` or `}` after a member's value.
    AfterMember,
    /// An array's first element or its end.
    FirstElement,
    /// A `,` or `]` after an element.
    AfterElement,
}

/// The error `encoding/json` gives for `text`, `None` when it is valid JSON.
pub(crate) fn syntax_error(text: &[u8]) -> Option<String> {
    let mut stack: Vec<u8> = Vec::new();
    let mut expect = Expect::Value;
    let mut i = 0;
    let at = |i: usize| text.get(i).copied();
    let invalid =
        |c: u8, context: &str| Some(format!("invalid character {} {context}", quote_char(c)));
    loop {
        while matches!(at(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            i += 1;
        }
        // A complete value returns through `trailing`: the text ended inside one.
        let Some(c) = at(i) else {
            return Some("unexpected end of JSON input".to_owned());
        };
        match expect {
            Expect::Value | Expect::FirstElement => {
                if matches!(expect, Expect::FirstElement) && c == b']' {
                    stack.pop();
                    i += 1;
                    expect = after_value(&stack);
                    if stack.is_empty() {
                        return trailing(text, i);
                    }
                    continue;
                }
                match c {
                    b'{' => {
                        stack.push(b'{');
                        i += 1;
                        expect = Expect::FirstKey;
                    }
                    b'[' => {
                        stack.push(b'[');
                        i += 1;
                        expect = Expect::FirstElement;
                    }
                    b'"' => {
                        i = match string(text, i + 1) {
                            Ok(end) => end,
                            Err(e) => return Some(e),
                        };
                        expect = after_value(&stack);
                    }
                    b'-' | b'0'..=b'9' => {
                        i = match number(text, i) {
                            Ok(end) => end,
                            Err(e) => return Some(e),
                        };
                        expect = after_value(&stack);
                    }
                    b't' | b'f' | b'n' => {
                        let word: &[u8] = match c {
                            b't' => b"true",
                            b'f' => b"false",
                            _ => b"null",
                        };
                        for (k, want) in word.iter().enumerate().skip(1) {
                            match at(i + k) {
                                None => return Some("unexpected end of JSON input".to_owned()),
                                Some(got) if got != *want => {
                                    return invalid(
                                        got,
                                        &format!(
                                            "in literal {} (expecting {})",
                                            String::from_utf8_lossy(word),
                                            quote_char(*want)
                                        ),
                                    );
                                }
                                Some(_) => {}
                            }
                        }
                        i += word.len();
                        expect = after_value(&stack);
                    }
                    _ => return invalid(c, "looking for beginning of value"),
                }
                if stack.is_empty() {
                    return trailing(text, i);
                }
            }
            Expect::FirstKey | Expect::Key => {
                if matches!(expect, Expect::FirstKey) && c == b'}' {
                    stack.pop();
                    i += 1;
                    expect = after_value(&stack);
                    if stack.is_empty() {
                        return trailing(text, i);
                    }
                    continue;
                }
                if c != b'"' {
                    return invalid(c, "looking for beginning of object key string");
                }
                i = match string(text, i + 1) {
                    Ok(end) => end,
                    Err(e) => return Some(e),
                };
                expect = Expect::Colon;
            }
            Expect::Colon => {
                if c != b':' {
                    return invalid(c, "after object key");
                }
                i += 1;
                expect = Expect::Value;
            }
            Expect::AfterMember | Expect::AfterElement => {
                let (close, context) = match expect {
                    Expect::AfterMember => (b'}', "after object key:value pair"),
                    _ => (b']', "after array element"),
                };
                if c == b',' {
                    i += 1;
                    expect = if close == b'}' {
                        Expect::Key
                    } else {
                        Expect::Value
                    };
                } else if c == close {
                    stack.pop();
                    i += 1;
                    expect = after_value(&stack);
                    if stack.is_empty() {
                        return trailing(text, i);
                    }
                } else {
                    return invalid(c, context);
                }
            }
        }
    }
}

/// What follows a value inside `stack`'s innermost container.
fn after_value(stack: &[u8]) -> Expect {
    match stack.last() {
        Some(b'{') => Expect::AfterMember,
        _ => Expect::AfterElement,
    }
}

/// After the top-level value: only white space.
fn trailing(text: &[u8], from: usize) -> Option<String> {
    let rest = text.get(from..).unwrap_or_default();
    rest.iter()
        .find(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
        .map(|c| format!("invalid character {} after top-level value", quote_char(*c)))
}

/// A string's rest from `i` (after its opening quote): the index after its closing quote.
fn string(text: &[u8], mut i: usize) -> Result<usize, String> {
    let eof = || "unexpected end of JSON input".to_owned();
    loop {
        let c = *text.get(i).ok_or_else(eof)?;
        match c {
            b'"' => return Ok(i + 1),
            b'\\' => {
                let e = *text.get(i + 1).ok_or_else(eof)?;
                match e {
                    b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => i += 2,
                    b'u' => {
                        for k in 0..4 {
                            let h = *text.get(i + 2 + k).ok_or_else(eof)?;
                            if !h.is_ascii_hexdigit() {
                                return Err(format!(
                                    "invalid character {} in \\u hexadecimal character escape",
                                    quote_char(h)
                                ));
                            }
                        }
                        i += 6;
                    }
                    other => {
                        return Err(format!(
                            "invalid character {} in string escape code",
                            quote_char(other)
                        ));
                    }
                }
            }
            c if c < 0x20 => {
                return Err(format!(
                    "invalid character {} in string literal",
                    quote_char(c)
                ));
            }
            _ => i += 1,
        }
    }
}

/// A number from `i`: the index after it.
fn number(text: &[u8], mut i: usize) -> Result<usize, String> {
    let eof = || "unexpected end of JSON input".to_owned();
    let digit = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_digit());
    if text.get(i) == Some(&b'-') {
        i += 1;
        let c = *text.get(i).ok_or_else(eof)?;
        if !c.is_ascii_digit() {
            return Err(format!(
                "invalid character {} in numeric literal",
                quote_char(c)
            ));
        }
    }
    if text.get(i) == Some(&b'0') {
        i += 1;
    } else {
        while digit(text.get(i).copied()) {
            i += 1;
        }
    }
    if text.get(i) == Some(&b'.') {
        i += 1;
        let c = *text.get(i).ok_or_else(eof)?;
        if !c.is_ascii_digit() {
            return Err(format!(
                "invalid character {} after decimal point in numeric literal",
                quote_char(c)
            ));
        }
        while digit(text.get(i).copied()) {
            i += 1;
        }
    }
    if matches!(text.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(text.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let c = *text.get(i).ok_or_else(eof)?;
        if !c.is_ascii_digit() {
            return Err(format!(
                "invalid character {} in exponent of numeric literal",
                quote_char(c)
            ));
        }
        while digit(text.get(i).copied()) {
            i += 1;
        }
    }
    Ok(i)
}

/// Go's `quoteChar`: a byte as a quoted character (`'\''`, `'"'`, `'\n'`, `'x'`).
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        _ => {
            let quoted = smd_fieldpath::Value::from(char::from(c).to_string().as_str()).to_string();
            let inner = quoted
                .strip_prefix('"')
                .and_then(|q| q.strip_suffix('"'))
                .unwrap_or(&quoted);
            format!("'{inner}'")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::syntax_error;

    #[test]
    fn go_words() {
        let cases: &[(&str, Option<&str>)] = &[
            (r#"{"a":1}"#, None),
            (" [1, 2.5e3, \"x\\u00e9\", true, null] ", None),
            (
                r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},}"#,
                Some("invalid character '}' looking for beginning of object key string"),
            ),
            (
                r#"{"a":1} trailing"#,
                Some("invalid character 't' after top-level value"),
            ),
            (r#"{"metadata": "#, Some("unexpected end of JSON input")),
            ("", Some("unexpected end of JSON input")),
            (r#"{"a" 1}"#, Some("invalid character '1' after object key")),
            (
                r#"{"a":1 "b":2}"#,
                Some("invalid character '\"' after object key:value pair"),
            ),
            ("[1 2]", Some("invalid character '2' after array element")),
            (
                "{'a':1}",
                Some("invalid character '\\'' looking for beginning of object key string"),
            ),
            (
                "[tru]",
                Some("invalid character ']' in literal true (expecting 'e')"),
            ),
            ("[-x]", Some("invalid character 'x' in numeric literal")),
            (
                "[1.]",
                Some("invalid character ']' after decimal point in numeric literal"),
            ),
            (
                "\"a\nb\"",
                Some("invalid character '\\n' in string literal"),
            ),
            (
                "x",
                Some("invalid character 'x' looking for beginning of value"),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(syntax_error(text.as_bytes()).as_deref(), *want, "{text:?}");
        }
    }
}
