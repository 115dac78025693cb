//! How yaml.v2 (`go.yaml.in/yaml/v2`, what sigs.k8s.io/yaml and so `kubectl get -o yaml` use)
//! writes a string and a float: the style its encoder asks for (plain unless the text would
//! read as another value, a literal block when it holds a line break), the style its emitter's
//! analysis of the text then allows, and each style's writer, folding long lines at 80
//! columns. Deliberate differences, each where kubectl's text would not do: a string holding a
//! character a terminal would act on ([`is_terminal_control`]) is always double-quoted with that
//! character escaped; where yaml.v2's text would not read back as the same value, smd writes
//! what does: a key `<<` double-quoted (plain, it is a merge), a key of line breaks alone
//! double-quoted (the YAML reader here does not take yaml.v2's `? |2+` for it), and an integral
//! float beyond int64 as a float (yaml.v2 writes a uint64, which no reader here accepts).

use std::fmt::Write as _;

use super::resolve::{TagKind, resolves_to_str};
use crate::is_terminal_control;

/// The column past which yaml.v2 breaks a line at a space (its default width).
const WIDTH: usize = 80;

/// The longest key (in bytes) yaml.v2 writes as a simple key; longer ones are `? key`.
pub(super) const MAX_SIMPLE_KEY: usize = 128;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// What the emitter's analysis of a text allows (block context).
struct Allowed {
    multiline: bool,
    plain: bool,
    single: bool,
    literal: bool,
}

/// Whether a key is written as a simple key (`key: value`) rather than `? key`.
pub(super) fn is_simple_key(s: &str) -> bool {
    !s.chars().any(is_break) && s.len() <= MAX_SIMPLE_KEY
}

/// Writes a key that is not simple (`? key`), continuation lines indented to `indent`.
pub(super) fn write_explicit_key(out: &mut String, s: &str, indent: usize) {
    if s.chars().all(|c| c == '\n') {
        write_double(out, s, indent, true);
    } else {
        write_string(out, s, indent, false);
    }
}

/// Writes `s` at the end of `out`: a key (`simple_key`: no line breaks, no block) or a value
/// whose continuation lines are indented to `indent`.
pub(super) fn write_string(out: &mut String, s: &str, indent: usize, simple_key: bool) {
    match style(s, simple_key) {
        Style::Plain => write_plain(out, s, indent, !simple_key),
        Style::Single => write_single(out, s, indent, !simple_key),
        Style::Double => write_double(out, s, indent, !simple_key),
        Style::Literal => write_literal(out, s, indent),
    }
}

fn style(s: &str, simple_key: bool) -> Style {
    let can_use_plain = resolves_to_str(s, TagKind::None) && !is_base60_float(s);
    if is_word(s) {
        // What `analyze` would find in a word: nothing that rules out any style.
        return if can_use_plain {
            Style::Plain
        } else {
            Style::Double
        };
    }
    let mut style = if s.contains('\n') {
        Style::Literal
    } else if can_use_plain {
        Style::Plain
    } else {
        Style::Double
    };
    let allowed = analyze(s);
    if simple_key && allowed.multiline {
        style = Style::Double;
    }
    if style == Style::Plain && (!allowed.plain || (s.is_empty() && simple_key)) {
        style = Style::Single;
    }
    if style == Style::Single && !allowed.single {
        style = Style::Double;
    }
    if style == Style::Literal && (!allowed.literal || simple_key) {
        style = Style::Double;
    }
    if (simple_key && s == "<<") || s.chars().any(|c| c != '\n' && is_terminal_control(c)) {
        style = Style::Double;
    }
    style
}

/// yaml.v2's base-60 floats (`1:20`, `190:20:30.15`), which it quotes though it reads them
/// as strings: `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?`.
fn is_base60_float(s: &str) -> bool {
    let b = s.strip_prefix(['-', '+']).unwrap_or(s).as_bytes();
    let mut i = 0;
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        let digits = &b[start..i];
        let ok = match digits {
            [d] => d.is_ascii_digit(),
            [a, _] => (b'0'..=b'5').contains(a),
            _ => false,
        };
        if !ok {
            return false;
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// yaml.v2's printable characters (`is_printable`): no tab, no C0 or C1 control, no BOM, no
/// noncharacter U+FFFE/U+FFFF, and nothing beyond the Basic Multilingual Plane.
fn is_go_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        && c != '\u{feff}'
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Whether `s` is a word: it starts with a letter or digit and holds only letters, digits and
/// `-._/+=:`, never `:` last. Most strings written are (names, images, paths), and in a word
/// no character is an indicator, a space, a break or unprintable, so every style is allowed.
fn is_word(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphanumeric)
        && b.last() != Some(&b':')
        && b.iter().all(|&c| {
            c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'/' | b'+' | b'=' | b':')
        })
}

fn analyze(s: &str) -> Allowed {
    if s.is_empty() {
        return Allowed {
            multiline: false,
            plain: true,
            single: true,
            literal: false,
        };
    }
    let mut indicators = s.starts_with("---") || s.starts_with("...");
    let (mut special, mut line_breaks) = (false, false);
    let (mut leading, mut trailing) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut trailing_space = false;
    let mut preceded_by_whitespace = true;
    let mut chars = s.chars().peekable();
    let mut i = 0;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let followed_by_whitespace = matches!(next, None | Some(' ' | '\t'));
        let last = next.is_none();
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => indicators = true,
                '#' if preceded_by_whitespace => indicators = true,
                _ => {}
            }
        }
        if !is_go_printable(c) {
            special = true;
        }
        if c == ' ' {
            leading |= i == 0;
            if last {
                trailing = true;
                trailing_space = true;
            }
            break_space |= previous_break;
            (previous_space, previous_break) = (true, false);
        } else if is_break(c) {
            line_breaks = true;
            leading |= i == 0;
            trailing |= last;
            space_break |= previous_space;
            (previous_space, previous_break) = (false, true);
        } else {
            (previous_space, previous_break) = (false, false);
        }
        preceded_by_whitespace = matches!(c, ' ' | '\t' | '\0') || is_break(c);
        i += 1;
    }
    let damaged = space_break || special;
    Allowed {
        multiline: line_breaks,
        plain: !(leading || trailing || break_space || damaged || line_breaks || indicators),
        single: !(break_space || damaged),
        literal: !(trailing_space || damaged),
    }
}

/// The column the next character goes to: characters since the last line break.
fn column(out: &str) -> usize {
    out.rsplit('\n')
        .next()
        .map_or(0, |line| line.chars().count())
}

fn fold(out: &mut String, indent: usize) -> usize {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', indent));
    indent
}

fn write_plain(out: &mut String, s: &str, indent: usize, allow_breaks: bool) {
    let mut col = column(out);
    let mut spaces = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            if allow_breaks && !spaces && col > WIDTH && chars.peek() != Some(&' ') {
                col = fold(out, indent);
            } else {
                out.push(' ');
                col += 1;
            }
            spaces = true;
        } else {
            out.push(c);
            col += 1;
            spaces = false;
        }
    }
}

fn write_single(out: &mut String, s: &str, indent: usize, allow_breaks: bool) {
    out.push('\'');
    let mut col = column(out);
    let mut spaces = false;
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let inner = i > 0 && i + 1 < chars.len();
            if allow_breaks && !spaces && col > WIDTH && inner && chars[i + 1] != ' ' {
                col = fold(out, indent);
            } else {
                out.push(' ');
                col += 1;
            }
            spaces = true;
        } else {
            if c == '\'' {
                out.push('\'');
                col += 1;
            }
            out.push(c);
            col += 1;
            spaces = false;
        }
    }
    out.push('\'');
}

fn write_double(out: &mut String, s: &str, indent: usize, allow_breaks: bool) {
    out.push('"');
    let mut col = column(out);
    let mut spaces = false;
    // yaml.v2 tests for a byte-order mark at the start of the text, not at each character:
    // a text starting with one is escaped whole.
    let bom = s.starts_with('\u{feff}');
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if bom
            || !is_go_printable(c)
            || is_break(c)
            || is_terminal_control(c)
            || c == '"'
            || c == '\\'
        {
            let before = out.len();
            out.push('\\');
            match c {
                '\0' => out.push('0'),
                '\u{7}' => out.push('a'),
                '\u{8}' => out.push('b'),
                '\t' => out.push('t'),
                '\n' => out.push('n'),
                '\u{b}' => out.push('v'),
                '\u{c}' => out.push('f'),
                '\r' => out.push('r'),
                '\u{1b}' => out.push('e'),
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                '\u{85}' => out.push('N'),
                '\u{a0}' => out.push('_'),
                '\u{2028}' => out.push('L'),
                '\u{2029}' => out.push('P'),
                c if u32::from(c) <= 0xff => {
                    let _ = write!(out, "x{:02X}", u32::from(c));
                }
                c if u32::from(c) <= 0xffff => {
                    let _ = write!(out, "u{:04X}", u32::from(c));
                }
                c => {
                    let _ = write!(out, "U{:08X}", u32::from(c));
                }
            }
            col += out.len() - before;
            spaces = false;
        } else if c == ' ' {
            if allow_breaks && !spaces && col > WIDTH && i > 0 && i + 1 < chars.len() {
                col = fold(out, indent);
                if chars[i + 1] == ' ' {
                    out.push('\\');
                    col += 1;
                }
            } else {
                out.push(' ');
                col += 1;
            }
            spaces = true;
        } else {
            out.push(c);
            col += 1;
            spaces = false;
        }
    }
    out.push('"');
}

/// A literal block: `|`, an indentation indicator when the text starts with a space or a line
/// break, the chomping indicator its trailing line breaks need, then its lines at `indent`.
fn write_literal(out: &mut String, s: &str, indent: usize) {
    out.push('|');
    if s.starts_with(' ') || s.starts_with(is_break) {
        out.push('2');
    }
    let mut rev = s.chars().rev();
    match (rev.next(), rev.next()) {
        (Some(last), _) if !is_break(last) => out.push('-'),
        (Some(_), None) => out.push('+'),
        (Some(_), Some(before)) if is_break(before) => out.push('+'),
        (None, _) => out.push('-'),
        _ => {}
    }
    out.push('\n');
    let mut breaks = true;
    // The last line break ends the block's last line: the caller writes it.
    let body = s.strip_suffix('\n').unwrap_or(s);
    for c in body.chars() {
        if c == '\n' {
            out.push('\n');
            breaks = true;
        } else {
            if breaks {
                out.extend(std::iter::repeat_n(' ', indent));
            }
            out.push(c);
            breaks = false;
        }
    }
}

/// A float as kubectl prints it: Go's JSON text of it read back by yaml.v2, so an integral
/// value within int64 is an integer (`2`, `-0` as `0`; yaml.v2 writes a uint64 beyond, here a
/// float as further still)
/// and any other is `strconv.FormatFloat(f, 'g', -1, 64)` (`0.5`, `1e+06`, `1.5e-07`).
pub(super) fn write_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str(".nan");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { ".inf" } else { "-.inf" });
        return;
    }
    let abs = f.abs();
    if f.fract() == 0.0 && abs < 1e21 {
        let text = format!("{f}");
        if let Ok(i) = text.parse::<i64>() {
            let _ = write!(out, "{i}");
            return;
        }
    }
    write_g(out, f);
}

/// Go's `FormatFloat(f, 'g', -1, 64)` of a finite float: the shortest digits, in `%e` form
/// when the exponent is below -4 or at least 6 (`1e+06`, `1.5e-07`), else in `%f` form.
fn write_g(out: &mut String, f: f64) {
    let sci = format!("{f:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        out.push_str(mantissa);
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", exp.unsigned_abs());
    } else {
        let _ = write!(out, "{f}");
    }
}

#[cfg(test)]
mod tests {
    use super::{analyze, is_word};

    /// Every short string over an alphabet of word and non-word characters: where `is_word`
    /// says yes, the full analysis allows every style and finds no line break.
    #[test]
    fn words_allow_every_style() {
        let alphabet = [
            'a', '7', '-', '.', '_', '/', '+', '=', ':', ' ', '#', '?', '\n',
        ];
        let mut strings = vec![String::new()];
        let mut words = 0;
        for _ in 0..4 {
            let mut longer = Vec::new();
            for s in &strings {
                for c in alphabet {
                    let mut t = s.clone();
                    t.push(c);
                    longer.push(t);
                }
            }
            for s in &longer {
                if is_word(s) {
                    words += 1;
                    let a = analyze(s);
                    assert!(!a.multiline && a.plain && a.single && a.literal, "{s:?}");
                }
            }
            strings = longer;
        }
        assert!(words > 1000, "{words}");
    }
}
