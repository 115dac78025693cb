//! The `fieldsV1` reader's fast path: one pass over a document in the shape Go writes, straight
//! into the set, with no per-key allocation.
//!
//! Go's reader drives json-iterator token by token, and what it accepts, the error it gives and
//! the partial set it leaves depend on which operation reads each byte; `read.rs` reproduces
//! that faithfully and pays for it (each key copied out, each element parsed by a reader of its
//! own, each node's vectors grown one element at a time). This pass reads only documents made of
//! objects whose keys are `"."` (holding `{}`) and path elements (holding objects), with
//! whitespace anywhere JSON allows it, and gives up (`None`) at anything else: an error, `null`,
//! a key of an unknown kind, a control character in a key, a surrogate escape, nesting near the
//! limit. What it accepts, Go accepts without error, and what it builds is what Go builds: the
//! same elements arrive in the same order at the same [`NodeBuilder`] rules. The caller then
//! reads a refused document again the faithful way, so a hostile document costs at most two
//! linear passes.
//!
//! Elements are parsed here for their common forms (`f:`, `i:`, and `v:`/`k:` over strings,
//! integers of up to 15 digits, booleans and `null`, without whitespace or escapes); any other
//! `v:` or `k:` text goes to the faithful element parser.

#[cfg(test)]
use super::read::read_faithfully;
use super::read::{atoi, finish_node, parse_element};
use crate::element::{Key, KeyField, PathElement};
use crate::name::Name;
use crate::set::{NodeBuilder, Set};
use crate::value::Value;
use smallvec::SmallVec;
use std::ops::Not;
use std::sync::Arc;

/// Reads `bytes` as a `fieldsV1` document, or `None` when it is not of the shape this pass
/// knows (see the module documentation).
pub(super) fn read(bytes: &[u8]) -> Option<Set> {
    let mut fast = Fast {
        input: bytes,
        at: 0,
        depth: 0,
        key: Vec::new(),
        members: Vec::new(),
        children: Vec::new(),
        seen: Seen::default(),
    };
    fast.space();
    if !fast.eat(b'{') {
        return None;
    }
    let (children, _) = fast.node()?;
    fast.space();
    if fast.at != bytes.len() {
        return None;
    }
    Some(children.unwrap_or_default())
}

struct Fast<'a> {
    input: &'a [u8],
    at: usize,
    /// Objects open, as json-iterator counts them.
    depth: usize,
    /// The last key with escapes, decoded.
    key: Vec<u8>,
    /// The members and child nodes of every node being read, innermost last: each node takes
    /// its own from where they stood when it began, in one allocation of the right size.
    members: Vec<PathElement>,
    children: Vec<(PathElement, Arc<Set>)>,
    seen: Seen,
}

impl Fast<'_> {
    fn space(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.input.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.input.get(self.at) == Some(&byte) {
            self.at += 1;
            return true;
        }
        false
    }

    /// Whether the object about to be read is `{}`.
    fn below_is_empty(&self) -> bool {
        let rest = self.input.get(self.at..).unwrap_or_default();
        rest.iter()
            .find(|b| !matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
            .is_none_or(|&b| b == b'}')
    }

    /// [`Fast::eat`] after any whitespace, looked for only when `byte` is not next.
    fn eat_spaced(&mut self, byte: u8) -> bool {
        if self.eat(byte) {
            return true;
        }
        self.space();
        self.eat(byte)
    }

    /// Enters an object whose `{` was just read; `false` near the depth limit, where the
    /// faithful reader decides.
    fn enter(&mut self) -> bool {
        self.depth += 1;
        self.depth < crate::MAX_DEPTH
    }

    /// One object, its `{` read: the node's children (if any key made one) and whether the
    /// node is itself a member, as `read.rs` has them.
    fn node(&mut self) -> Option<(Option<Set>, bool)> {
        if !self.enter() {
            return None;
        }
        let (members_from, children_from) = (self.members.len(), self.children.len());
        let mut member = false;
        if !self.eat_spaced(b'}') {
            loop {
                if !self.eat_spaced(b'"') {
                    return None;
                }
                let (start, end, escaped) = self.string()?;
                if !self.eat_spaced(b':') || !self.eat_spaced(b'{') {
                    return None;
                }
                let raw = self.input.get(start..end)?;
                let element = match (raw.first(), escaped) {
                    // Repeated items and members are looked up by their text as written, and
                    // decoded only the first time.
                    (Some(b'k' | b'v'), _) => Some(self.seen.element(raw, &mut self.key)?),
                    (_, false) if raw == b"." => None,
                    (_, false) => Some(element(raw)?),
                    (_, true) => {
                        decode(raw, &mut self.key)?;
                        match self.key.as_slice() {
                            b"." => None,
                            text => Some(element(text)?),
                        }
                    }
                };
                if let Some(element) = element {
                    // A child node's block is taken before what lies below it, so that a
                    // walk from the top meets the blocks in the order they lie in memory.
                    let mut block = self.below_is_empty().not().then(|| Arc::new(Set::new()));
                    let (grandchildren, child_is_member) = self.node()?;
                    match grandchildren {
                        Some(grandchildren) => {
                            if child_is_member {
                                self.members.push(element.clone());
                            }
                            let node = match block.take() {
                                Some(mut node) => match Arc::get_mut(&mut node) {
                                    Some(slot) => {
                                        *slot = grandchildren;
                                        node
                                    }
                                    None => Arc::new(grandchildren),
                                },
                                None => Arc::new(grandchildren),
                            };
                            self.children.push((element, node));
                        }
                        None => {
                            // A node with no children is always a member (see `finish_node`).
                            self.members.push(element);
                        }
                    }
                } else {
                    // Go skips what "." holds; only the empty object is taken here.
                    if !self.enter() || !self.eat_spaced(b'}') {
                        return None;
                    }
                    self.depth -= 1;
                    member = true;
                }
                if self.eat_spaced(b'}') {
                    break;
                }
                if !self.eat(b',') {
                    return None;
                }
            }
        }
        self.depth -= 1;
        let members = self.members.split_off(members_from);
        let children = self.children.split_off(children_from);
        Some(finish_node(
            NodeBuilder::from_json_arrivals(members, children),
            member,
        ))
    }

    /// A string whose `"` was just read, up to and including its closing `"`: where its text
    /// lies in the input, and whether that text has escapes. Refused: a control character
    /// (json-iterator refuses some and not others, depending on where its buffer ends and
    /// whether an escape came first), the end of the input.
    fn string(&mut self) -> Option<(usize, usize, bool)> {
        let start = self.at;
        let mut escaped = false;
        loop {
            let rest = self.input.get(self.at..)?;
            let run = rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
            self.at += run + 1;
            match rest.get(run)? {
                b'"' => return Some((start, self.at - 1, escaped)),
                b'\\' => {
                    // The escaped byte cannot end the string; `decode` checks it.
                    escaped = true;
                    self.input.get(self.at)?;
                    self.at += 1;
                }
                _ => return None,
            }
        }
    }
}

/// Decodes the text of a string that has escapes into `out`. Refused: an unknown escape, an
/// escaped surrogate (json-iterator pairs surrogates by rules left to the faithful reader), a
/// control character.
fn decode(raw: &[u8], out: &mut Vec<u8>) -> Option<()> {
    out.clear();
    let mut rest = raw;
    loop {
        let run = rest
            .iter()
            .position(|&b| b == b'\\' || b < 0x20)
            .unwrap_or(rest.len());
        out.extend_from_slice(rest.get(..run)?);
        let Some((&special, after)) = rest.get(run..)?.split_first() else {
            return Some(());
        };
        if special != b'\\' {
            return None;
        }
        let (&escape, after) = after.split_first()?;
        rest = after;
        let byte = match escape {
            b'"' | b'\\' | b'/' => escape,
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let hex = rest.get(..4)?;
                rest = rest.get(4..)?;
                let code = hex.iter().try_fold(0u32, |code, &h| {
                    Some(code * 16 + char::from(h).to_digit(16)?)
                })?;
                let c = char::from_u32(code)?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            _ => return None,
        };
        out.push(byte);
    }
}

/// The `k:` and `v:` elements met so far in a document, by their key text, so that a key that
/// repeats (the same list item or set member under many nodes) is parsed once and its element
/// shared rather than allocated again: elements are immutable, and a clone shares the key's or
/// value's allocation. A small open-addressing table over the first [`Seen::ENTRIES`] distinct
/// keys; a key is looked for in at most [`Seen::PROBES`] slots, so that keys made to collide
/// cost a bounded number of comparisons each.
struct Seen {
    /// Entry index + 1 for each slot, 0 for an empty one.
    slots: [u16; Seen::SLOTS],
    /// Each entry's key text as a range of `text`, and its element.
    entries: Vec<(usize, usize, PathElement)>,
    text: Vec<u8>,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            slots: [0; Seen::SLOTS],
            entries: Vec::new(),
            text: Vec::new(),
        }
    }
}

impl Seen {
    const SLOTS: usize = 512;
    const ENTRIES: usize = 384;
    const PROBES: usize = 8;
    /// Longer keys are parsed each time: they are unlikely to repeat, and would fill `text`.
    const LONGEST: usize = 128;

    /// The element the key written `text` names (escapes and all): the one seen before, or
    /// [`element`]'s of the decoded text (decoded in `scratch`), remembered.
    fn element(&mut self, text: &[u8], scratch: &mut Vec<u8>) -> Option<PathElement> {
        let start = hash(text);
        let mut free = None;
        for probe in 0..Seen::PROBES {
            let slot = (start + probe) % Seen::SLOTS;
            let index = match self.slots.get(slot) {
                Some(0) | None => {
                    free = Some(slot);
                    break;
                }
                Some(&index) => usize::from(index) - 1,
            };
            if let Some((from, to, element)) = self.entries.get(index) {
                if self.text.get(*from..*to) == Some(text) {
                    return Some(element.clone());
                }
            }
        }
        let parsed = match text.contains(&b'\\') {
            true => {
                decode(text, scratch)?;
                element(scratch)?
            }
            false => element(text)?,
        };
        if let Some(slot) = free {
            if self.entries.len() < Seen::ENTRIES && text.len() <= Seen::LONGEST {
                let from = self.text.len();
                self.text.extend_from_slice(text);
                self.entries.push((from, self.text.len(), parsed.clone()));
                if let Some(s) = self.slots.get_mut(slot) {
                    *s = self.entries.len() as u16;
                }
            }
        }
        Some(parsed)
    }
}

/// A quick hash of a key's bytes (FxHash's multiply and rotate over eight bytes at a time).
fn hash(bytes: &[u8]) -> usize {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = <[u8; 8]>::try_from(chunk).map_or(0, u64::from_le_bytes);
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let mut tail = [0u8; 8];
    let rest = chunks.remainder();
    tail.get_mut(..rest.len())
        .unwrap_or_default()
        .copy_from_slice(rest);
    h = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    (h >> 32) as usize
}

/// The element a key names, parsed here in its common forms and by the faithful parser
/// otherwise; `None` for a key that is not an element (an error or an unknown kind).
fn element(text: &[u8]) -> Option<PathElement> {
    let [kind, b':', rest @ ..] = text else {
        return None;
    };
    let quick = match kind {
        b'f' => return Some(PathElement::Field(Name::from_bytes(rest))),
        b'i' => return atoi(rest).ok().map(PathElement::Index),
        b'v' => match scalar(rest) {
            Some((value, [])) => Some(PathElement::Value(Arc::new(value))),
            _ => None,
        },
        b'k' => key(rest).map(PathElement::Key),
        _ => return None,
    };
    match quick {
        Some(element) => Some(element),
        // Refused (an unknown kind or an invalid element): the faithful reader decides.
        None => parse_element(text).ok(),
    }
}

/// `{"name":scalar,...}` with at least one field, nothing after it, no whitespace.
fn key(text: &[u8]) -> Option<Key> {
    let mut rest = text.strip_prefix(b"{")?;
    let mut fields: SmallVec<[KeyField; 2]> = SmallVec::new();
    loop {
        let after_quote = rest.strip_prefix(b"\"")?;
        let end = after_quote
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let (name, after_name) = after_quote.split_at(end);
        let after_colon = after_name.strip_prefix(b"\":")?;
        let (value, after_value) = scalar(after_colon)?;
        fields.push(KeyField {
            name: Name::from_bytes(name),
            value,
        });
        match after_value {
            [b',', more @ ..] => rest = more,
            [b'}'] => break,
            _ => return None,
        }
    }
    // Sorted by name, stably, as `Key::new` does, and shared in one allocation.
    let mut fields = fields.into_iter();
    let shared: Arc<[KeyField]> = match (fields.next(), fields.next(), fields.next()) {
        (Some(a), None, _) => Arc::new([a]),
        (Some(a), Some(b), None) => match b.name < a.name {
            true => Arc::new([b, a]),
            false => Arc::new([a, b]),
        },
        (a, b, c) => return Some(Key::new(a.into_iter().chain(b).chain(c).chain(fields))),
    };
    Some(Key::from_shared(shared))
}

/// A JSON scalar at the start of `text` as json-iterator's `Read` gives it (every number a
/// float), and what follows it; only strings without escapes or control characters that are
/// UTF-8, plain decimals (see [`number`]), `true`, `false`, `null`.
fn scalar(text: &[u8]) -> Option<(Value, &[u8])> {
    match text.first()? {
        b'"' => {
            let body = text.get(1..)?;
            let end = body
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
            let (string, after) = body.split_at(end);
            let after = after.strip_prefix(b"\"")?;
            let string = std::str::from_utf8(string).ok()?;
            Some((Value::String(string.to_owned()), after))
        }
        b't' => Some((Value::Bool(true), text.strip_prefix(b"true")?)),
        b'f' => Some((Value::Bool(false), text.strip_prefix(b"false")?)),
        b'n' => Some((Value::Null, text.strip_prefix(b"null")?)),
        b'-' | b'0'..=b'9' => number(text),
        _ => None,
    }
}

/// A number at the start of `text` and what follows it, for a plain decimal of at most 15
/// digits (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`, not `-0`): the digits make an integer below 2^53 and
/// the fraction an exact power of ten, so their quotient is the correctly rounded value that
/// reading the text gives.
fn number(text: &[u8]) -> Option<(Value, &[u8])> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (negative, rest) = match text.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let whole = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (integer, rest) = rest.split_at(whole);
    let (fraction, after) = match rest.strip_prefix(b".") {
        Some(rest) => {
            let len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if len == 0 {
                return None;
            }
            rest.split_at(len)
        }
        None => (&rest[..0], rest),
    };
    let plain = match integer {
        [] => false,
        [b'0'] => true,
        [first, ..] => *first != b'0',
    };
    if !plain || integer.len() + fraction.len() > 15 || matches!(after.first(), Some(b'e' | b'E')) {
        return None;
    }
    let n = integer
        .iter()
        .chain(fraction)
        .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
    if negative && n == 0 {
        return None;
    }
    let magnitude = n as f64 / *POW10.get(fraction.len())?;
    Some((
        Value::Float(if negative { -magnitude } else { magnitude }),
        after,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Element texts in and around the forms parsed here.
    const ELEMENTS: &[&str] = &[
        "f:",
        "f:a",
        "f:a-name-longer-than-twenty-two-bytes",
        "f:\u{0}\u{ff}",
        "i:0",
        "i:-3",
        "i:+007",
        "i:9223372036854775808",
        "i:x",
        "v:\"\"",
        "v:\"a\"",
        "v:\"привет\"",
        "v:\"a\\\"b\"",
        "v:\"a\" ",
        "v:\"a\"x",
        "v:\"\u{1}\"",
        "v:true",
        "v:false",
        "v:null",
        "v:nul",
        "v:truex",
        "v:0",
        "v:-0",
        "v:00",
        "v:01",
        "v:7",
        "v:-7",
        "v:123456789012345",
        "v:1234567890123456",
        "v:99999999999999999999",
        "v:1.5",
        "v:3.14159",
        "v:-0.5",
        "v:0.0",
        "v:-0.0",
        "v:1.",
        "v:.5",
        "v:1.50",
        "v:00.5",
        "v:123456789.123456",
        "v:0.123456789012345",
        "v:0.1234567890123456",
        "v:9007199254740993",
        "v:1.5e3",
        "v:1.5x",
        "v:1e3",
        "v:-",
        "v:[1]",
        "v:{\"a\":1}",
        "v:",
        "k:{\"name\":\"a\"}",
        "k:{\"port\":443,\"protocol\":\"tcp\"}",
        "k:{\"b\":1,\"a\":2}",
        "k:{\"a\":1,\"a\":2}",
        "k:{\"a\":true,\"b\":null,\"c\":-5}",
        "k:{\"a\":1.5}",
        "k:{\"a\":-2.25,\"b\":0.1}",
        "k:{\"c\":1,\"b\":2,\"a\":3}",
        "k:{\"b\":1,\"a\":2,\"a\":1}",
        "k:{\"a\":1,}",
        "k:{\"a\":1} ",
        "k:{\"a\":1}x",
        "k:{ \"a\":1}",
        "k:{\"a\" :1}",
        "k:{\"a\\\"\":1}",
        "k:{\"\u{ff}\":1}",
        "k:{}",
        "k:{\"a\":01}",
        "k:{\"a\":[1]}",
        "k:[]",
        "k:",
        "x:1",
        "f",
        "",
        "fx",
    ];

    #[test]
    fn elements_are_the_faithful_parsers() {
        for text in ELEMENTS {
            let fast = element(text.as_bytes());
            let faithful = parse_element(text.as_bytes()).ok();
            assert_eq!(format!("{fast:?}"), format!("{faithful:?}"), "{text:?}");
        }
    }

    #[test]
    fn numbers_are_the_faithful_parsers() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut quick = 0;
        for _ in 0..100_000 {
            let digits = |n: u64, len: u64| {
                let text = format!("{n:020}");
                text[20 - len as usize..].to_owned()
            };
            let whole = digits(next(), next() % 12 + 1);
            let fraction = digits(next(), next() % 9);
            let sign = if next() % 3 == 0 { "-" } else { "" };
            let dot = if fraction.is_empty() { "" } else { "." };
            let text = format!("v:{sign}{whole}{dot}{fraction}");
            let fast = element(text.as_bytes());
            quick += usize::from(scalar(&text.as_bytes()[2..]).is_some());
            let faithful = parse_element(text.as_bytes()).ok();
            assert_eq!(format!("{fast:?}"), format!("{faithful:?}"), "{text}");
        }
        assert!(quick > 30_000, "{quick}");
    }

    #[test]
    fn documents_read_here_read_the_same_the_faithful_way() {
        let documents = [
            "{}",
            " {} ",
            "{\"f:a\":{}}",
            "{\"f:a\":{\".\":{},\"f:b\":{}}}",
            "{ \"f:a\" : { \".\" : { } , \"f:b\" : { } } }\n",
            "{\"f:b\":{},\"f:a\":{}}",
            "{\"f:a\":{\"f:x\":{}},\"f:a\":{\"f:y\":{}}}",
            "{\"k:{\\\"name\\\":\\\"a\\\"}\":{\".\":{},\"v:\\\"x\\\"\":{}}}",
            "{\"f:\\u00e9\\n\\/\":{}}",
            "{\"v:1\":{},\"v:1.0\":{\"f:a\":{}},\"v:-0\":{},\"v:0\":{}}",
            "{\"i:2\":{},\"i:1\":{},\"i:2\":{}}",
            r#"{"f:a":{"\u002e":{},"f:b":{}}}"#,
            r#"{"\u006b:{\"a\":1}":{},"k:{\"a\":1}":{"f:x":{}}}"#,
            r#"{"v:\"x\\\\y\"":{},"v:\"x\\\\y\"":{"f:z":{}},"v:\"\u003c\"":{}}"#,
        ];
        for text in documents {
            same_both_ways(text.as_bytes());
        }
    }

    fn same_both_ways(text: &[u8]) -> Set {
        let fast = read(text);
        let faithful = read_faithfully(text);
        let shown = String::from_utf8_lossy(text);
        assert!(faithful.1.is_none(), "{shown}");
        assert_eq!(fast.as_ref(), Some(&faithful.0), "{shown}");
        faithful.0
    }

    #[test]
    fn repeated_elements_are_parsed_once_and_shared() {
        // More distinct keys than are remembered, each repeated under other nodes.
        let mut text = String::from("{");
        for i in 0..3000 {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&format!(
                r#""f:n{i}":{{"k:{{\"name\":\"v{}\"}}":{{}},"v:{}":{{"v:\"{}\"":{{}}}}}}"#,
                i % 500,
                i % 700,
                i % 11
            ));
        }
        text.push('}');
        let set = same_both_ways(text.as_bytes());
        assert_eq!(set.size(), 6000);
        let shared = read(text.as_bytes()).unwrap_or_default();
        let key = |name: &str| {
            let child = shared.child(&PathElement::field(name))?;
            match child.members().first()? {
                PathElement::Key(key) => Some(key.fields().as_ptr()),
                _ => None,
            }
        };
        assert!(key("n0").is_some());
        assert_eq!(key("n0"), key("n500"));
        assert_ne!(key("n0"), key("n1"));
    }

    #[test]
    fn what_this_pass_refuses_is_left_to_the_faithful_reader() {
        let refused = [
            "",
            "null",
            "[]",
            "{",
            "{}x",
            "{\"f:a\":null}",
            "{\"f:a\":{},}",
            "{\"f:a\" {}}",
            "{\".\":{\"f:a\":{}}}",
            "{\".\":null}",
            "{\"x:a\":{}}",
            "{\"a\":{}}",
            "{\"i:x\":{}}",
            "{\"f:\u{1}\":{}}",
            "{\"f:\\ud800\\udc00\":{}}",
            "{\"f:\\q\":{}}",
            "{\"f:a\":{}",
            "{null:{}}",
        ];
        for text in refused {
            assert!(read(text.as_bytes()).is_none(), "{text}");
        }
        let mut deep = String::new();
        for _ in 0..crate::MAX_DEPTH {
            deep.push_str("{\"f:a\":");
        }
        deep.push_str("{}");
        deep.push_str(&"}".repeat(crate::MAX_DEPTH));
        assert!(read(deep.as_bytes()).is_none());
    }
}
