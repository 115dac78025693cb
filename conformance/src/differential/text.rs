//! Random strings (field names, string values) and JSON string literals spelled in random ways.

use super::rng::Rng;
use std::fmt::Write;

/// ASCII that JSON or fieldsV1 treat specially, or that Go's writers escape (`<>&`).
const PUNCTUATION: &[char] = &[
    '"', '\\', '<', '>', '&', '\'', '/', ':', '.', ' ', '{', '}', '[', ']', ',', '=', '%', '#', '*',
];

/// Control characters, including the ones JSON has short escapes for, DEL and C1 controls.
const CONTROLS: &[char] = &[
    '\u{0}', '\u{1}', '\u{1f}', '\t', '\n', '\r', '\u{8}', '\u{c}', '\u{7f}', '\u{85}', '\u{9f}',
];

/// Non-ASCII text, and code points Go's `%q` and `IsPrint` treat specially.
const UNICODE: &[char] = &[
    'é',
    'ü',
    'ß',
    '😀',
    '🎉',
    '中',
    '文',
    'ア',
    '\u{feff}',
    '\u{fffd}',
    '\u{ffff}',
    '\u{10ffff}',
    '\u{ad}',
    '\u{200b}',
    '\u{301}',
    '\u{e000}',
    '\u{1f1fa}',
    '\u{a0}',
    '\u{2028}',
    '\u{2029}',
    '\u{3000}',
    '\u{1680}',
    '\u{f8ff}',
    '\u{e0001}',
];

/// A random character from one of the interesting classes.
pub fn wild_char(rng: &mut Rng) -> char {
    match rng.weighted(&[30, 15, 8, 10, 15, 10, 12]) {
        0 => rng.pick(b"abcxyzABZ0189_-").into(),
        1 => rng.pick(PUNCTUATION),
        2 => rng.pick(&['\u{2028}', '\u{2029}']),
        3 => rng.pick(CONTROLS),
        4 => rng.pick(UNICODE),
        5 => any_scalar(rng, 0x11_0000),
        _ => any_scalar(rng, 0x3000),
    }
}

/// A random Unicode scalar value below `limit` (surrogates are retried).
fn any_scalar(rng: &mut Rng, limit: usize) -> char {
    loop {
        if let Some(c) = char::from_u32(rng.below(limit) as u32) {
            return c;
        }
    }
}

/// A short identifier-like name.
pub fn plain_name(rng: &mut Rng) -> String {
    const WORDS: &[&str] = &[
        "a",
        "b",
        "c",
        "x",
        "name",
        "spec",
        "metadata",
        "labels",
        "key",
        "id",
        "port",
        "protocol",
        "containers",
        "image",
        "env",
        "value",
        "status",
        "f",
        "k",
        "v",
        "i",
        ".",
        "",
        "a.b",
    ];
    if rng.percent(70) {
        return rng.pick(WORDS).to_owned();
    }
    let len = rng.range(1, 8);
    (0..len)
        .map(|_| char::from(rng.pick(b"abcdefxyz019_-.")))
        .collect()
}

/// A random string: mostly plain, sometimes wild, empty or long.
pub fn gen_string(rng: &mut Rng) -> String {
    match rng.weighted(&[55, 30, 8, 7]) {
        0 => plain_name(rng),
        1 => {
            let len = rng.range(1, 6);
            (0..len).map(|_| wild_char(rng)).collect()
        }
        2 => String::new(),
        _ => {
            let len = rng.range(10, 50);
            (0..len)
                .map(|_| {
                    if rng.percent(70) {
                        char::from(rng.pick(b"abcdefghij"))
                    } else {
                        wild_char(rng)
                    }
                })
                .collect()
        }
    }
}

/// How a JSON text is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// Minimal escapes, no whitespace: what a JSON writer would produce.
    Canonical,
    /// Random `\u` escapes, `\/`, whitespace between tokens, raw control characters now and then.
    Loose,
}

fn hex4(rng: &mut Rng, out: &mut String, unit: u32, spelling: Spelling) {
    let upper = spelling == Spelling::Loose && rng.one_in(2);
    let _ = if upper {
        write!(out, "\\u{unit:04X}")
    } else {
        write!(out, "\\u{unit:04x}")
    };
}

/// Writes `c` as a `\u` escape (a surrogate pair beyond the BMP).
fn u_escape(rng: &mut Rng, out: &mut String, c: char, spelling: Spelling) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        hex4(rng, out, u32::from(*unit), spelling);
    }
}

/// `s` as a JSON string literal.
pub fn json_string(rng: &mut Rng, s: &str, spelling: Spelling) -> String {
    let loose = spelling == Spelling::Loose;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        let escape_anyway = loose && rng.one_in(10);
        match c {
            '"' | '\\' if !escape_anyway => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\t' | '\r' | '\u{8}' | '\u{c}' if !escape_anyway => {
                out.push_str(match c {
                    '\n' => "\\n",
                    '\t' => "\\t",
                    '\r' => "\\r",
                    '\u{8}' => "\\b",
                    _ => "\\f",
                });
            }
            '/' if loose && rng.one_in(3) => out.push_str("\\/"),
            c if c < ' ' && loose && rng.one_in(8) => out.push(c),
            c if c < ' ' || escape_anyway => u_escape(rng, &mut out, c, spelling),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whitespace between JSON tokens: none when canonical.
pub fn space(rng: &mut Rng, spelling: Spelling) -> &'static str {
    if spelling == Spelling::Canonical || rng.percent(80) {
        return "";
    }
    rng.pick(&[" ", "\n", "\t", "\r\n", "  ", " \t\n"])
}

/// An odd `\u` escape to splice into a JSON string: valid, a lone surrogate, or broken.
pub fn odd_u_escape(rng: &mut Rng) -> &'static str {
    rng.pick(&[
        "\\u0041",
        "\\u00e9",
        "\\u00E9",
        "\\u0000",
        "\\u001f",
        "\\u2028",
        "\\ud83d\\ude00",
        "\\uD83D\\uDE00",
        "\\ud800",
        "\\udc00",
        "\\ud800\\u0041",
        "\\ude00\\ud83d",
        "\\ud83d",
        "\\u00",
        "\\uZZZZ",
        "\\u12",
        "\\x41",
        "\\",
        "\\'",
        "\\U0001F600",
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_back() {
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            let s = gen_string(&mut rng);
            for spelling in [Spelling::Canonical, Spelling::Loose] {
                let lit = json_string(&mut rng, &s, spelling);
                if lit.chars().any(|c| c < ' ') {
                    continue; // raw control characters: not strict JSON
                }
                let back: String = serde_json::from_str(&lit).unwrap();
                assert_eq!(back, s, "{lit}");
            }
        }
    }
}
