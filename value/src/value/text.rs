//! The human text of a value, as Go's `value.ToString` prints it: paths, error messages and
//! conflict reports are built from it.
//!
//! Scalars are Go's `%v`, strings Go's `%q`, lists `[a,b]`, maps `k=v` pairs run together with no
//! separator. Go walks a map in random order, so its text for a map of two or more entries is not
//! reproducible; smd walks maps in insertion order, which gives one of the texts Go may print.

use super::Value;
use super::float;
use super::isprint::PRINTABLE;
use std::fmt::{self, Write};

impl fmt::Display for Value {
    /// Go's `value.ToString`:
    ///
    /// ```
    /// use smd_value::{Map, Value};
    /// let mut m = Map::new();
    /// m.insert("name", Value::from("a\"b\n"));
    /// m.insert("port", Value::Float(1e6));
    /// let v = Value::List(vec![Value::Map(m), Value::Null, Value::Int(-3)]);
    /// assert_eq!(v.to_string(), r#"[name="a\"b\n"port=1e+06,null,-3]"#);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_text(f, self)
    }
}

fn write_text<W: Write + ?Sized>(w: &mut W, v: &Value) -> fmt::Result {
    match v {
        Value::Null => w.write_str("null"),
        Value::Bool(b) => w.write_str(if *b { "true" } else { "false" }),
        Value::Int(i) => write!(w, "{i}"),
        Value::Float(x) => w.write_str(float::go_v(*x).as_str()),
        Value::String(s) => quote(w, s),
        Value::List(items) => {
            w.write_char('[')?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    w.write_char(',')?;
                }
                write_text(w, item)?;
            }
            w.write_char(']')
        }
        Value::Map(m) => {
            for (k, item) in m.iter() {
                w.write_str(k)?;
                w.write_char('=')?;
                write_text(w, item)?;
            }
            Ok(())
        }
    }
}

/// Appends Go's `%q` of `s` (`strconv.Quote`) to `out`.
fn write_go_quoted(out: &mut String, s: &str) {
    // Writing to a String cannot fail.
    let _ = quote(out, s);
}

/// Go's `%q` of `s` (`strconv.Quote`): `"` and `\\` backslashed, printable characters kept,
/// the rest escaped.
///
/// ```
/// use smd_value::value::go_quote;
/// assert_eq!(go_quote("a\"b\u{7}é"), r#""a\"b\aé""#);
/// ```
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_go_quoted(&mut out, s);
    out
}

/// Go's `%v` of a float64: `1e+06`, `123456`, `1e-05`, `-0`, `+Inf`, `NaN`.
///
/// ```
/// use smd_value::value::go_float;
/// assert_eq!(go_float(1e6), "1e+06");
/// assert_eq!(go_float(0.5), "0.5");
/// ```
pub fn go_float(f: f64) -> String {
    float::go_v(f).as_str().to_owned()
}

/// Whether Go's `strconv.IsPrint` (the same as `unicode.IsPrint`) accepts `c`, so that `%q`
/// keeps it as it is. The API server refuses manager names with other characters.
///
/// ```
/// use smd_value::value::is_go_printable;
/// assert!(is_go_printable('a') && is_go_printable(' ') && is_go_printable('é'));
/// assert!(!is_go_printable('\u{0}') && !is_go_printable('\u{3000}'));
/// ```
pub fn is_go_printable(c: char) -> bool {
    let c = u32::from(c);
    if c < 0x100 {
        // Latin-1: ASCII from space to `~`, and U+00A1..=U+00FF except the soft hyphen.
        return (0x20..=0x7e).contains(&c) || ((0xa1..=0xff).contains(&c) && c != 0xad);
    }
    // The last range starting at or below `c`.
    let after = PRINTABLE.partition_point(|&(lo, _)| lo <= c);
    match after.checked_sub(1).and_then(|i| PRINTABLE.get(i)) {
        Some(&(_, hi)) => c <= hi,
        None => false,
    }
}

/// Go's `strconv.Quote`: `"` and `\` backslashed, printable characters kept, `\a \b \f \n \r \t
/// \v` short, other characters below U+0080 as `\xNN`, the rest as `\uNNNN` or `\UNNNNNNNN`.
fn quote<W: Write + ?Sized>(w: &mut W, s: &str) -> fmt::Result {
    w.write_char('"')?;
    let mut plain_from = 0;
    for (at, c) in s.char_indices() {
        if c != '"' && c != '\\' && is_go_printable(c) {
            continue;
        }
        w.write_str(s.get(plain_from..at).unwrap_or_default())?;
        plain_from = at + c.len_utf8();
        match c {
            '"' => w.write_str("\\\"")?,
            '\\' => w.write_str("\\\\")?,
            '\u{7}' => w.write_str("\\a")?,
            '\u{8}' => w.write_str("\\b")?,
            '\u{c}' => w.write_str("\\f")?,
            '\n' => w.write_str("\\n")?,
            '\r' => w.write_str("\\r")?,
            '\t' => w.write_str("\\t")?,
            '\u{b}' => w.write_str("\\v")?,
            c if c < ' ' || c == '\u{7f}' => write!(w, "\\x{:02x}", u32::from(c))?,
            c if u32::from(c) < 0x1_0000 => write!(w, "\\u{:04x}", u32::from(c))?,
            c => write!(w, "\\U{:08x}", u32::from(c))?,
        }
    }
    w.write_str(s.get(plain_from..).unwrap_or_default())?;
    w.write_char('"')
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn quoted(s: &str) -> String {
        let mut out = String::new();
        write_go_quoted(&mut out, s);
        out
    }

    #[test]
    fn quoting() {
        assert_eq!(quoted(""), r#""""#);
        assert_eq!(quoted("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(
            quoted("\u{0}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1b}\u{7f}"),
            r#""\x00\a\b\t\n\v\f\r\x1b\x7f""#
        );
        assert_eq!(
            quoted("é\u{a0}\u{ad}\u{2028}\u{feff}😀\u{e0001}"),
            r#""é\u00a0\u00ad\u2028\ufeff😀\U000e0001""#
        );
    }

    #[test]
    fn printable_edges() {
        assert!(is_go_printable(' '));
        assert!(!is_go_printable('\u{3000}'));
        assert!(is_go_printable('\u{ff}'));
        assert!(is_go_printable('\u{100}'));
        assert!(!is_go_printable('\u{10ffff}'));
        assert!(is_go_printable('\u{e01ef}'));
    }
}
