//! A schema's `pattern`, as the API server evaluates it: kube-openapi compiles it with Go's
//! `regexp.Compile` (RE2 syntax, Perl flags) and validates a string by `MatchString`, which
//! looks for a match anywhere (the pattern anchors itself if it wants to).
//!
//! The `regex` crate evaluates it: it is RE2's kind of engine (finite automata, no
//! backtracking), so matching takes time linear in the text whatever the pattern, as Go's
//! does; a backtracking engine would let one schema's pattern stall the server on one value.
//! The two syntaxes differ, so the pattern is not handed over as it is: `pattern/parse.rs`
//! reads it as Go's parser does (Go's errors, in Go's words, for what Go refuses, including
//! the nesting, size and repetition limits), and the tree is written here in the crate's
//! syntax with nothing left to interpretation: Go's `\d`, `\s`, `\w`, `\b` and POSIX classes
//! are ASCII where the crate's are Unicode, so they are written as ASCII ranges and `(?-u:\b)`;
//! `^`, `$` and `.` carry their flags; `\p{…}` names become explicit `gc=`/`sc=` properties;
//! every literal is escaped; Go's `\Q…\E`, octal escapes and `{,n}` (a literal in Go) are
//! spelled out; groups do not capture.
//!
//! What can still differ: Go's Unicode tables are 15.0 and the crate's 16.0. A `\p{…}` class
//! is held to the code points 15.0 had assigned (one whose category or script changed since
//! would still differ), but case folding is the crate's: a letter given a case pair in 16.0
//! (`ɤ` and `Ɤ`) matches its pair under `(?i)` here and not in Go. Go's size estimate is
//! mirrored only approximately (its trigger depends on how its parser reuses nodes, and a
//! class's code points are not counted), so a pattern near 3.3 million instructions may be
//! refused by one side only; one nesting 1000 deep may differ by a level where Go factors
//! alternations. The corpus `tests/data/go_regexp.json` (`gogen crdchecks`) holds Go's
//! answers, and `tests/go_regexp.rs` lists every case that differs.
//!
//! A compiled pattern is bounded: past [`SIZE_LIMIT`] bytes of automaton, [`NEST_LIMIT`]
//! levels of nesting or half a second's estimated work to build ([`COST_LIMIT`]) it is refused
//! with [`PatternError::TooComplex`] rather than built, though Go would have taken it (Go's own
//! bound is about 128 MiB of program, and its classes cost it little). Matching takes time
//! linear in the text, times a factor that grows with the automaton.
//!
//! ```ignore
//! let p = Pattern::compile(r"^\d+$")?;
//! assert!(p.is_match("123") && !p.is_match("١٢٣")); // Go's \d is ASCII
//! assert_eq!(
//!     Pattern::compile("a(").unwrap_err().to_string(),
//!     "error parsing regexp: missing closing ): `a(`",
//! );
//! ```

mod parse;
mod tables;

use parse::{Class, ClassItem, Kind, Look, NodeId, RepeatOp, Tree};
use tables::Property;

/// The most automaton a pattern may compile to (the `regex` crate's `size_limit`).
pub(crate) const SIZE_LIMIT: usize = 64 << 20;

/// The deepest nesting of the translated pattern (the `regex` crate's `nest_limit`): Go's own
/// limit (a tree 1000 high) translates to at most about twice as many levels.
pub(crate) const NEST_LIMIT: u32 = 2100;

/// The most work the crate may be given to translate a pattern, in units of about a nanosecond
/// of it (see [`cost`]): half a second. Unicode properties and case folding over wide ranges
/// are what make it slow (folding every code point takes the crate 6 ms, a property about
/// 0.3 ms); a pattern of a megabyte of plain literals fits.
const COST_LIMIT: u64 = 500_000_000;

/// A compiled `pattern`.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    regex: regex::Regex,
}

/// Why a pattern cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PatternError {
    /// Go refuses it: `regexp.Compile`'s error text, such as
    /// ``error parsing regexp: missing closing ): `a(` ``.
    #[error("{0}")]
    Invalid(String),
    /// Go accepts it, but it is past smd's bound on a compiled pattern.
    #[error("the pattern is too large to evaluate: {0}")]
    TooComplex(String),
}

impl Pattern {
    /// Compiles `source` as Go's `regexp.Compile` would.
    pub(crate) fn compile(source: &str) -> Result<Pattern, PatternError> {
        let tree = parse::parse(source).map_err(PatternError::Invalid)?;
        if cost(&tree) > COST_LIMIT {
            return Err(PatternError::TooComplex(
                "its classes would take too long to build".to_owned(),
            ));
        }
        let translated = write(&tree);
        let regex = regex::RegexBuilder::new(&translated)
            .size_limit(SIZE_LIMIT)
            .nest_limit(NEST_LIMIT)
            .build()
            .map_err(|e| {
                PatternError::TooComplex(match e {
                    regex::Error::CompiledTooBig(limit) => {
                        format!("its automaton would pass {} MiB", limit >> 20)
                    }
                    // Only the nesting limit can refuse a translation.
                    other => format!("it nests too deeply for the regex crate: {other}"),
                })
            })?;
        Ok(Pattern { regex })
    }

    /// Whether `value` contains a match (Go's `MatchString`).
    pub(crate) fn is_match(&self, value: &str) -> bool {
        self.regex.is_match(value)
    }
}

/// An estimate of the time the crate takes to translate the tree (whatever repeats it, which
/// the size limit bounds): its items, its Unicode properties (each intersected with Unicode
/// 15.0's assigned code points), and each code point a case-insensitive class makes it fold.
fn cost(tree: &Tree) -> u64 {
    const ITEM: u64 = 300;
    const FOLDED_LITERAL: u64 = 1_800;
    const FOLD_PER_CODE_POINT: u64 = 5;
    const PROPERTY: u64 = 300_000;
    // The crate folds a property's every code point: at most all of them.
    const FOLDED_PROPERTY: u64 = FOLD_PER_CODE_POINT * 0x11_0000;
    let class_cost = |class: &Class| -> u64 {
        let fold = u64::from(class.fold);
        class
            .items
            .iter()
            .map(|item| match item {
                ClassItem::Range(lo, hi) => {
                    ITEM + fold * FOLD_PER_CODE_POINT * u64::from(hi.saturating_sub(*lo) + 1)
                }
                ClassItem::Ascii(_) => ITEM + fold * FOLD_PER_CODE_POINT * 128,
                ClassItem::Unicode(..) => PROPERTY + fold * FOLDED_PROPERTY,
            })
            .sum()
    };
    tree.nodes
        .iter()
        .map(|node| match &node.kind {
            Kind::Literal { fold: true, .. } => FOLDED_LITERAL,
            Kind::Class(class) => ITEM + class_cost(class),
            _ => ITEM,
        })
        .fold(0, u64::saturating_add)
}

/// A class nothing matches (a surrogate, an empty class), and one everything matches.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
const ANYTHING: &str = r"[\x{0}-\x{10FFFF}]";

/// What is left to write: a node, or text that follows one.
enum Work {
    Node(NodeId, Place),
    Text(&'static str),
    Owned(String),
}

/// Where a node is written: an alternation needs a group inside a concatenation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Alone,
    InConcat,
}

/// The tree in the `regex` crate's syntax, written without recursion.
fn write(tree: &Tree) -> String {
    let mut out = String::new();
    let mut work = vec![Work::Node(tree.root, Place::Alone)];
    while let Some(item) = work.pop() {
        let (mut id, place) = match item {
            Work::Text(text) => {
                out.push_str(text);
                continue;
            }
            Work::Owned(text) => {
                out.push_str(&text);
                continue;
            }
            Work::Node(id, place) => (id, place),
        };
        while let Kind::Capture(sub) = tree.nodes[id].kind {
            id = sub;
        }
        match &tree.nodes[id].kind {
            Kind::Literal { c, fold } => match char::from_u32(*c) {
                Some(c) if *fold => {
                    out.push_str("(?i:");
                    push_char(&mut out, c);
                    out.push(')');
                }
                Some(c) => push_char(&mut out, c),
                None => out.push_str(NOTHING),
            },
            Kind::Class(class) => push_class(&mut out, class),
            Kind::AnyChar { nl: true } => out.push_str("(?s:.)"),
            Kind::AnyChar { nl: false } => out.push('.'),
            Kind::Look(look) => out.push_str(match look {
                Look::BeginText => r"\A",
                Look::EndText => r"\z",
                Look::BeginLine => "(?m:^)",
                Look::EndLine => "(?m:$)",
                Look::WordBoundary => r"(?-u:\b)",
                Look::NoWordBoundary => r"(?-u:\B)",
            }),
            Kind::Empty => out.push_str("(?:)"),
            Kind::Concat(subs) => {
                work.extend(subs.iter().rev().map(|&s| Work::Node(s, Place::InConcat)));
            }
            Kind::Alternate(subs) => {
                if place == Place::InConcat {
                    out.push_str("(?:");
                    work.push(Work::Text(")"));
                }
                for (i, &sub) in subs.iter().enumerate().rev() {
                    work.push(Work::Node(sub, Place::Alone));
                    if i > 0 {
                        work.push(Work::Text("|"));
                    }
                }
            }
            Kind::Repeat { sub, op } => {
                out.push_str("(?:");
                work.push(match *op {
                    RepeatOp::Star => Work::Text(")*"),
                    RepeatOp::Plus => Work::Text(")+"),
                    RepeatOp::Quest => Work::Text(")?"),
                    RepeatOp::Counted { min, max: None } => Work::Owned(format!("){{{min},}}")),
                    RepeatOp::Counted {
                        min,
                        max: Some(max),
                    } if max == min => Work::Owned(format!("){{{min}}}")),
                    RepeatOp::Counted {
                        min,
                        max: Some(max),
                    } => Work::Owned(format!("){{{min},{max}}}")),
                });
                work.push(Work::Node(*sub, Place::Alone));
            }
            Kind::Capture(_) => {}
        }
    }
    out
}

/// A character as the crate reads it literally anywhere: letters and digits as they are,
/// everything else as a hex escape.
fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        out.push_str(&format!(r"\x{{{:X}}}", u32::from(c)));
    }
}

/// A range of code points, less the surrogates (which no text holds).
fn push_range(out: &mut String, lo: u32, hi: u32) -> bool {
    let mut wrote = false;
    for (a, b) in [(lo, hi.min(0xD7FF)), (lo.max(0xE000), hi)] {
        if let (Some(a), Some(b)) = (char::from_u32(a), char::from_u32(b)) {
            if a <= b {
                push_char(out, a);
                if a != b {
                    out.push('-');
                    push_char(out, b);
                }
                wrote = true;
            }
        }
    }
    wrote
}

/// One of Go's Unicode tables, held to Unicode 15.0 (Go's) where the crate's tables are newer.
fn push_property(out: &mut String, property: Property, negated: bool) {
    let sign = if negated { "^" } else { "" };
    match property {
        Property::Same(name) => {
            out.push_str(if negated { r"\P{" } else { r"\p{" });
            out.push_str(name);
            out.push('}');
        }
        Property::Assigned(name) => {
            out.push_str(&format!(r"[{sign}\p{{{name}}}&&\p{{Age=V15_0}}]"));
        }
        Property::WithUnassigned(name) => {
            out.push_str(&format!(r"[{sign}\p{{{name}}}\P{{Age=V15_0}}]"));
        }
        Property::Nothing => out.push_str(if negated { ANYTHING } else { NOTHING }),
    }
}

fn push_class(out: &mut String, class: &Class) {
    let mut body = String::new();
    let mut any = false;
    for item in &class.items {
        match item {
            ClassItem::Range(lo, hi) => any |= push_range(&mut body, *lo, *hi),
            ClassItem::Ascii((ranges, negated)) => {
                body.push_str(if *negated { "[^" } else { "" });
                for &(lo, hi) in *ranges {
                    push_range(&mut body, u32::from(lo), u32::from(hi));
                }
                body.push_str(if *negated { "]" } else { "" });
                any = true;
            }
            ClassItem::Unicode(property, negated) => {
                push_property(&mut body, *property, *negated);
                any = true;
            }
        }
    }
    if class.fold {
        out.push_str("(?i:");
    }
    match (any, class.negated) {
        (false, false) => out.push_str(NOTHING),
        (false, true) => out.push_str(ANYTHING),
        (true, negated) => {
            out.push_str(if negated { "[^" } else { "[" });
            out.push_str(&body);
            out.push(']');
        }
    }
    if class.fold {
        out.push(')');
    }
}
