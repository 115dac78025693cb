//! Characters a terminal acts on instead of showing. Object names, field names and values come
//! from input that may be hostile (smd runs on other people's pull requests, and its output lands
//! in public logs); every writer meant for a person escapes these, and the YAML writer quotes
//! strings holding them.

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
