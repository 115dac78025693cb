//! The selectors of a list or watch request: `labelSelector` as apimachinery's `labels.Parse`
//! reads it (its lexer's tokens, its parser's order of checks and words, the requirements'
//! validation), and `fieldSelector` as `fields.ParseSelector` reads it (terms split on
//! unescaped commas, `!=`, `==`, `=`, the value's escapes).

use smd_fieldpath::{Map, Value};

use crate::validation::names;
use crate::validation::{BadValue, FieldError, FieldPath, aggregate};

/// A parsed label selector: every requirement must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct LabelSelector {
    requirements: Vec<Requirement>,
}

#[derive(Debug, Clone, PartialEq)]
struct Requirement {
    key: String,
    op: Op,
    values: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    In,
    NotIn,
    Equals,
    NotEquals,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Error,
    End,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

fn keyword(s: &str) -> Option<Token> {
    Some(match s {
        ")" => Token::ClosedPar,
        "," => Token::Comma,
        "!" => Token::DoesNotExist,
        "==" => Token::DoubleEquals,
        "=" => Token::Equals,
        ">" => Token::GreaterThan,
        "in" => Token::In,
        "<" => Token::LessThan,
        "!=" => Token::NotEquals,
        "notin" => Token::NotIn,
        "(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_special(b: u8) -> bool {
    matches!(b, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The lexer's tokens of the whole selector, ending with `End`. A run of special symbols
/// yields the longest keyword it starts with (`!=`), as Go's scanner does; a run that starts
/// no keyword is an error token whose text the parser quotes.
fn lex(s: &str) -> Vec<(Token, String)> {
    let b = s.as_bytes();
    let mut at = 0;
    let mut out = Vec::new();
    loop {
        // Go reads a NUL byte as the end of the input.
        while at < b.len() && is_space(b[at]) {
            at += 1;
        }
        if at >= b.len() || b[at] == 0 {
            out.push((Token::End, String::new()));
            return out;
        }
        if is_special(b[at]) {
            let start = at;
            let mut best: Option<(Token, usize)> = None;
            while at < b.len() && is_special(b[at]) {
                at += 1;
                match keyword(&s[start..at]) {
                    Some(t) => best = Some((t, at)),
                    None if best.is_some() => {
                        at -= 1;
                        break;
                    }
                    None => {}
                }
            }
            match best {
                Some((t, end)) => {
                    at = end;
                    out.push((t, s[start..end].to_owned()));
                }
                None => out.push((
                    Token::Error,
                    format!("error expected: keyword found '{}'", &s[start..at]),
                )),
            }
            continue;
        }
        let start = at;
        while at < b.len() && b[at] != 0 && !is_special(b[at]) && !is_space(b[at]) {
            at += 1;
        }
        let word = &s[start..at];
        out.push((keyword(word).unwrap_or(Token::Identifier), word.to_owned()));
    }
}

struct Parser {
    items: Vec<(Token, String)>,
    at: usize,
}

impl Parser {
    /// The next token; in a value's context `in` and `notin` are identifiers.
    fn peek(&self, values: bool) -> (Token, &str) {
        let (t, lit) = self
            .items
            .get(self.at)
            .map_or((Token::End, ""), |(t, l)| (*t, l.as_str()));
        (as_context(t, values), lit)
    }

    fn next(&mut self, values: bool) -> (Token, String) {
        let item = self
            .items
            .get(self.at)
            .cloned()
            .unwrap_or((Token::End, String::new()));
        self.at += 1;
        (as_context(item.0, values), item.1)
    }
}

fn as_context(t: Token, values: bool) -> Token {
    match t {
        Token::In | Token::NotIn if values => Token::Identifier,
        t => t,
    }
}

impl LabelSelector {
    /// `labels.Parse`: the selector, or the error's text.
    pub(super) fn parse(text: &str) -> Result<LabelSelector, String> {
        let mut p = Parser {
            items: lex(text),
            at: 0,
        };
        let mut requirements = Vec::new();
        loop {
            let (t, lit) = p.peek(true);
            match t {
                Token::Identifier | Token::DoesNotExist => {
                    let r = parse_requirement(&mut p)
                        .map_err(|e| format!("unable to parse requirement: {e}"))?;
                    requirements.push(r);
                    let (t, lit) = p.next(true);
                    match t {
                        Token::End => break,
                        Token::Comma => {
                            let (t2, l2) = p.peek(true);
                            if t2 != Token::Identifier && t2 != Token::DoesNotExist {
                                return Err(format!(
                                    "found '{l2}', expected: identifier after ','"
                                ));
                            }
                        }
                        _ => {
                            return Err(format!("found '{lit}', expected: ',' or 'end of string'"));
                        }
                    }
                }
                Token::End => break,
                _ => {
                    return Err(format!(
                        "found '{lit}', expected: !, identifier, or 'end of string'"
                    ));
                }
            }
        }
        // Sorted by key, stably, as the parser leaves them.
        requirements.sort_by(|a: &Requirement, b: &Requirement| a.key.cmp(&b.key));
        Ok(LabelSelector { requirements })
    }

    /// Whether `labels` (an object's `metadata.labels`) satisfy every requirement.
    pub(super) fn matches(&self, labels: Option<&Map>) -> bool {
        let lookup = |k: &str| labels.and_then(|m| m.get(k)).and_then(Value::as_str);
        self.requirements.iter().all(|r| {
            let value = lookup(&r.key);
            let has = |v: &str| r.values.iter().any(|x| x == v);
            match r.op {
                Op::In | Op::Equals => value.is_some_and(has),
                Op::NotIn | Op::NotEquals => !value.is_some_and(has),
                Op::Exists => value.is_some(),
                Op::DoesNotExist => value.is_none(),
                Op::GreaterThan | Op::LessThan => {
                    let (Some(v), [bound]) = (value, r.values.as_slice()) else {
                        return false;
                    };
                    match (v.parse::<i64>(), bound.parse::<i64>()) {
                        (Ok(v), Ok(b)) if r.op == Op::GreaterThan => v > b,
                        (Ok(v), Ok(b)) => v < b,
                        _ => false,
                    }
                }
            }
        })
    }

    /// Whether the selector selects everything.
    pub(super) fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }
}

fn key_error(key: &str, path: &FieldPath) -> Option<FieldError> {
    let errs = names::is_qualified_name(key);
    (!errs.is_empty()).then(|| FieldError::invalid(path, BadValue::str(key), errs.join("; ")))
}

fn parse_requirement(p: &mut Parser) -> Result<Requirement, String> {
    let (mut t, mut key) = p.next(true);
    let mut op = None;
    if t == Token::DoesNotExist {
        op = Some(Op::DoesNotExist);
        (t, key) = p.next(true);
    }
    if t != Token::Identifier {
        return Err(format!("found '{key}', expected: identifier"));
    }
    // The parser checks the key before anything else, at no path (`<nil>`).
    if let Some(e) = key_error(&key, &FieldPath::new("<nil>")) {
        return Err(e.to_string());
    }
    if matches!(p.peek(true).0, Token::End | Token::Comma) {
        let op = op.unwrap_or(Op::Exists);
        return new_requirement(key, op, Vec::new());
    }
    let (t, lit) = p.next(false);
    let op = match t {
        Token::In => Op::In,
        Token::Equals | Token::DoubleEquals => Op::Equals,
        Token::GreaterThan => Op::GreaterThan,
        Token::LessThan => Op::LessThan,
        Token::NotIn => Op::NotIn,
        Token::NotEquals => Op::NotEquals,
        _ => {
            return Err(format!(
                "found '{lit}', expected: in, notin, =, ==, !=, gt, lt"
            ));
        }
    };
    let values = match op {
        Op::In | Op::NotIn => parse_values(p)?,
        _ => parse_exact_value(p)?,
    };
    new_requirement(key, op, values)
}

/// `(a, b)`: the values as a sorted set (`()` is the empty string; empty items are too).
fn parse_values(p: &mut Parser) -> Result<Vec<String>, String> {
    let (t, lit) = p.next(true);
    if t != Token::OpenPar {
        return Err(format!("found '{lit}' expected: '('"));
    }
    let (t, lit) = p.peek(true);
    let lit = lit.to_owned();
    let mut set = std::collections::BTreeSet::new();
    match t {
        Token::Identifier | Token::Comma => {
            loop {
                let (t, lit2) = p.next(true);
                match t {
                    Token::Identifier => {
                        set.insert(lit2);
                        match p.peek(true) {
                            (Token::Comma, _) => continue,
                            (Token::ClosedPar, _) => break,
                            (_, l) => return Err(format!("found '{l}', expected: ',' or ')'")),
                        }
                    }
                    Token::Comma => {
                        if set.is_empty() {
                            set.insert(String::new());
                        }
                        match p.peek(true).0 {
                            Token::ClosedPar => {
                                set.insert(String::new());
                                break;
                            }
                            Token::Comma => {
                                set.insert(String::new());
                            }
                            _ => {}
                        }
                    }
                    _ => return Err(format!("found '{lit2}', expected: ',', or identifier")),
                }
            }
            if p.next(true).0 != Token::ClosedPar {
                return Err(format!("found '{lit}', expected: ')'"));
            }
        }
        Token::ClosedPar => {
            p.next(true);
            set.insert(String::new());
        }
        _ => return Err(format!("found '{lit}', expected: ',', ')' or identifier")),
    }
    Ok(set.into_iter().collect())
}

fn parse_exact_value(p: &mut Parser) -> Result<Vec<String>, String> {
    if matches!(p.peek(true).0, Token::End | Token::Comma) {
        return Ok(vec![String::new()]);
    }
    let (t, lit) = p.next(true);
    if t == Token::Identifier {
        return Ok(vec![lit]);
    }
    Err(format!("found '{lit}', expected: identifier"))
}

/// `labels.NewRequirement`'s checks, its errors aggregated.
fn new_requirement(key: String, op: Op, values: Vec<String>) -> Result<Requirement, String> {
    let mut errs = Vec::new();
    if let Some(e) = key_error(&key, &FieldPath::new("key")) {
        errs.push(e);
    }
    let path = FieldPath::new("values");
    if matches!(op, Op::GreaterThan | Op::LessThan) {
        for (i, v) in values.iter().enumerate() {
            if v.parse::<i64>().is_err() {
                errs.push(FieldError::invalid(
                    &path.index(i),
                    BadValue::str(v.as_str()),
                    "for 'Gt', 'Lt' operators, the value must be an integer",
                ));
            }
        }
    }
    for (i, v) in values.iter().enumerate() {
        let problems = names::is_label_value(v);
        if !problems.is_empty() {
            errs.push(FieldError::invalid(
                &path.index(i).key(&key),
                BadValue::str(v.as_str()),
                problems.join("; "),
            ));
        }
    }
    if errs.is_empty() {
        Ok(Requirement { key, op, values })
    } else {
        Err(aggregate(&errs))
    }
}

/// A parsed field selector: terms that must all hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct FieldSelector {
    /// (field, value, whether the value must be equal (or must differ)).
    pub(super) terms: Vec<(String, String, bool)>,
}

impl FieldSelector {
    /// `fields.ParseSelector`: the terms, or the error's text.
    pub(super) fn parse(text: &str) -> Result<FieldSelector, String> {
        let mut parts = split_terms(text);
        parts.sort_unstable();
        let mut terms = Vec::new();
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            let Some((field, op, value)) = split_term(part) else {
                return Err(format!(
                    "invalid selector: '{text}'; can't understand '{part}'"
                ));
            };
            let value = unescape(value)?;
            terms.push((field.to_owned(), value, op != "!="));
        }
        Ok(FieldSelector { terms })
    }

    /// Whether an object whose selectable fields `field` gives satisfies every term (a field
    /// the object lacks reads as empty).
    pub(super) fn matches(&self, field: impl Fn(&str) -> String) -> bool {
        self.terms
            .iter()
            .all(|(f, v, equal)| (field(f) == *v) == *equal)
    }
}

fn split_terms(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut terms = Vec::new();
    let mut start = 0;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == ',' {
            terms.push(&s[start..i]);
            start = i + 1;
        }
    }
    terms.push(&s[start..]);
    terms
}

fn split_term(term: &str) -> Option<(&str, &'static str, &str)> {
    for (i, _) in term.char_indices() {
        for op in ["!=", "==", "="] {
            if term[i..].starts_with(op) {
                return Some((&term[..i], op, &term[i + op.len()..]));
            }
        }
    }
    None
}

fn unescape(s: &str) -> Result<String, String> {
    if !s.contains(['\\', ',', '=']) {
        return Ok(s.to_owned());
    }
    let mut out = String::with_capacity(s.len());
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            match c {
                '\\' | ',' | '=' => out.push(c),
                _ => {
                    return Err(format!(
                        "invalid field selector: invalid escape sequence: \\{c}"
                    ));
                }
            }
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            // Go prints the rune with %v: its number.
            ',' | '=' => {
                return Err(format!(
                    "invalid field selector: unescaped character in value: {}",
                    u32::from(c)
                ));
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Map {
        let mut m = Map::new();
        for (k, v) in pairs {
            m.insert(*k, Value::from(*v));
        }
        m
    }

    #[test]
    fn label_selectors_select_as_apimachinery_documents_them() -> Result<(), String> {
        let l = labels(&[("app", "web"), ("tier", "front"), ("n", "5")]);
        for (selector, expected) in [
            ("", true),
            ("app=web", true),
            ("app==web", true),
            ("app!=web", false),
            ("app in (web, db)", true),
            ("app notin (web)", false),
            ("missing notin (web)", true),
            ("app", true),
            ("!app", false),
            ("!missing", true),
            ("n>4,n<6", true),
            ("n>5", false),
            ("app=web,tier=back", false),
        ] {
            let s = LabelSelector::parse(selector)?;
            assert_eq!(s.matches(Some(&l)), expected, "{selector}");
        }
        Ok(())
    }

    #[test]
    fn label_selector_errors_are_the_parsers_words() {
        for (selector, expected) in [
            ("app=", Ok(())),
            (
                "=web",
                Err("found '=', expected: !, identifier, or 'end of string'"),
            ),
            (
                "app in web",
                Err("unable to parse requirement: found 'web' expected: '('"),
            ),
            ("app=web,", Err("found '', expected: identifier after ','")),
        ] {
            assert_eq!(
                LabelSelector::parse(selector).map(|_| ()),
                expected.map_err(str::to_owned),
                "{selector}"
            );
        }
    }

    #[test]
    fn field_selectors_split_and_unescape() -> Result<(), String> {
        let s = FieldSelector::parse("metadata.name=a\\,b,status.phase!=Running")?;
        assert!(s.matches(|f| if f == "metadata.name" {
            "a,b".into()
        } else {
            String::new()
        }));
        assert_eq!(
            FieldSelector::parse("x"),
            Err("invalid selector: 'x'; can't understand 'x'".to_owned())
        );
        Ok(())
    }
}
