//! Characters a terminal acts on instead of showing. Object names, field names and values come
//! from input that may be hostile (smd runs on other people's pull requests, and its output lands
//! in public logs); every writer meant for a person escapes these, and the YAML writer quotes
//! strings holding them.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether a terminal or a text viewer would act on `c` rather than show it: the C0 controls
/// (line feed and tab included: a caller printing multi-line text keeps those itself), DEL, the
/// C1 controls, the line and paragraph separators, and the bidirectional marks, embeddings,
/// overrides and isolates that reorder what a reader sees ("Trojan Source").
///
/// ```
/// use smd_value::is_terminal_control;
/// assert!(is_terminal_control('\u{1b}'));
/// assert!(is_terminal_control('\u{202e}'));
/// assert!(!is_terminal_control('é'));
/// ```
pub fn is_terminal_control(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}' | '\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// `text` with every terminal control (line breaks and tabs included) written as `\u001b`: a
/// name from input put into a line cannot act on the terminal or start a line of its own.
///
/// ```
/// assert_eq!(smd_value::escape_controls("web\u{1b}[2J"), "web\\u001b[2J");
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_terminal_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c, false);
    }
    Cow::Owned(out)
}

/// Pushes `c` onto `out`, a terminal control as `\u` and four hex digits (line feeds and tabs
/// kept when `keep_lines`): the form reads the same in a message, a JSON string and a YAML
/// double-quoted string.
pub fn push_escaped(out: &mut String, c: char, keep_lines: bool) {
    if is_terminal_control(c) && !(keep_lines && matches!(c, '\n' | '\t')) {
        let _ = write!(out, "\\u{:04x}", u32::from(c));
    } else {
        out.push(c);
    }
}
