//! Random path elements, paths and sets, written as fieldsV1 text in canonical and loose
//! spellings, and byte mutations of such text.

use super::rng::Rng;
use super::text::{Spelling, gen_string, json_string, odd_u_escape, plain_name, space};
use super::values::{Val, gen_scalar, gen_value, to_json, to_yaml};
use serde_json::{Value as Json, json};

/// A path element as the generator builds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Pe {
    /// `f:NAME`.
    Field(String),
    /// `i:N`, as spelled (valid for Go's `strconv.Atoi` or not).
    Index(String),
    /// `v:JSON`.
    Value(Val),
    /// `k:{JSON object}`: the fields in writing order.
    Key(Vec<(String, Val)>),
}

/// Indexes: small, negative, large, at the int64 limits.
const INDEXES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "10",
    "-1",
    "-100",
    "2147483648",
    "9007199254740993",
    "9223372036854775807",
    "-9223372036854775808",
];

/// Index spellings `strconv.Atoi` accepts although they are not canonical, and some it refuses.
const ODD_INDEXES: &[&str] = &[
    "+1",
    "-0",
    "007",
    "00",
    "+0",
    "9223372036854775808",
    "-9223372036854775809",
    "1.0",
    "",
    " 1",
    "1 ",
    "0x1",
    "1e3",
    "abc",
    "١",
    "1_000",
    "--1",
    "+",
    "-",
];

/// Field names of keys, as Kubernetes uses them, and random ones.
fn key_field_name(rng: &mut Rng) -> String {
    if rng.percent(75) {
        rng.pick(&[
            "name",
            "key",
            "id",
            "port",
            "protocol",
            "containerPort",
            "a",
            "b",
        ])
        .to_owned()
    } else {
        gen_string(rng)
    }
}

/// The fields of a key: 1 to 3 (sometimes 0), mostly scalars.
pub fn gen_key(rng: &mut Rng) -> Vec<(String, Val)> {
    let n = if rng.one_in(30) { 0 } else { rng.range(1, 3) };
    let mut fields: Vec<(String, Val)> = Vec::new();
    for _ in 0..n {
        let name = key_field_name(rng);
        if fields.iter().any(|(k, _)| *k == name) {
            continue;
        }
        let value = if rng.percent(85) {
            gen_scalar(rng)
        } else {
            gen_value(rng, 2, false)
        };
        fields.push((name, value));
    }
    fields
}

/// How likely each kind of element is, and whether odd index spellings may appear.
#[derive(Debug, Clone, Copy)]
pub struct PeShape {
    /// Allow index spellings that are not canonical (some of them invalid).
    pub odd_indexes: bool,
}

/// A random path element.
pub fn gen_pe(rng: &mut Rng, shape: PeShape) -> Pe {
    match rng.weighted(&[50, 20, 15, 15]) {
        0 => Pe::Field(if rng.percent(60) {
            plain_name(rng)
        } else {
            gen_string(rng)
        }),
        1 => Pe::Key(gen_key(rng)),
        2 => Pe::Value(if rng.percent(85) {
            gen_scalar(rng)
        } else {
            gen_value(rng, 2, false)
        }),
        _ => {
            if shape.odd_indexes && rng.one_in(8) {
                Pe::Index(rng.pick(ODD_INDEXES).to_owned())
            } else if rng.percent(80) {
                Pe::Index(rng.range(0, 4).to_string())
            } else {
                Pe::Index(rng.pick(INDEXES).to_owned())
            }
        }
    }
}

/// The serialized text of `pe` (`f:…`, `i:…`, `v:…`, `k:…`), in the given spelling. Canonical
/// keys are written with their fields sorted, as Go writes them.
pub fn pe_text(rng: &mut Rng, pe: &Pe, spelling: Spelling) -> String {
    match pe {
        Pe::Field(name) => format!("f:{name}"),
        Pe::Index(i) => format!("i:{i}"),
        Pe::Value(v) => format!("v:{}", to_json(rng, v, spelling)),
        Pe::Key(fields) => {
            let mut fields = fields.clone();
            if spelling == Spelling::Canonical {
                fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            } else if rng.one_in(2) {
                rng.shuffle(&mut fields);
            }
            if spelling == Spelling::Loose && rng.one_in(25) && !fields.is_empty() {
                // A repeated field: the later one wins in Go's reader.
                let i = rng.below(fields.len());
                let (name, _) = fields[i].clone();
                fields.push((name, gen_scalar(rng)));
            }
            format!("k:{}", to_json(rng, &Val::Map(fields), spelling))
        }
    }
}

/// `pe` as a structured element of a scenario (`{field}`, `{index}`, `{value}`, `{key}`), or
/// None when its index is not an int64 written canonically.
pub fn pe_structured(rng: &mut Rng, pe: &Pe) -> Option<Json> {
    Some(match pe {
        Pe::Field(name) => json!({ "field": name }),
        Pe::Index(i) => {
            let n: i64 = i.parse().ok()?;
            if n.to_string() != *i {
                return None;
            }
            json!({ "index": n })
        }
        Pe::Value(v) => json!({ "value": value_spec(rng, v) }),
        Pe::Key(fields) => json!({ "key": value_spec(rng, &Val::Map(fields.clone())) }),
    })
}

/// A value spec for `v`: `{json: …}`, or now and then `{yaml: …}` when `v` can be YAML.
pub fn value_spec(rng: &mut Rng, v: &Val) -> Json {
    if rng.one_in(5) {
        let specials = rng.one_in(4);
        if let Some(yaml) = to_yaml(rng, v, specials) {
            return json!({ "yaml": yaml });
        }
    }
    let spelling = if rng.one_in(3) {
        Spelling::Loose
    } else {
        Spelling::Canonical
    };
    json!({ "json": to_json(rng, v, spelling) })
}

/// `count` random paths that share prefixes: some paths are parents of others, a few are
/// very deep.
pub fn gen_paths(rng: &mut Rng, count: usize, shape: PeShape) -> Vec<Vec<Pe>> {
    let mut paths: Vec<Vec<Pe>> = Vec::new();
    for _ in 0..count {
        let mut path: Vec<Pe> = Vec::new();
        if !paths.is_empty() && rng.percent(60) {
            let base = &paths[rng.below(paths.len())];
            path.extend_from_slice(&base[..rng.range(0, base.len())]);
        }
        let extra = if rng.one_in(40) {
            rng.range(10, 40)
        } else {
            rng.range(usize::from(path.is_empty()), 3)
        };
        for _ in 0..extra {
            path.push(gen_pe(rng, shape));
        }
        if path.is_empty() {
            path.push(gen_pe(rng, shape));
        }
        paths.push(path);
    }
    paths
}

/// A node of a set being written: whether it is a member, and its children by element text.
#[derive(Debug, Default)]
struct Node {
    member: bool,
    children: Vec<(String, Pe, Node)>,
}

impl Node {
    fn insert(&mut self, rng: &mut Rng, path: &[Pe], spelling: Spelling) {
        let Some((first, rest)) = path.split_first() else {
            self.member = true;
            return;
        };
        let text = pe_text(rng, first, spelling);
        let index = match self.children.iter().position(|(t, _, _)| *t == text) {
            Some(i) => i,
            None => {
                self.children.push((text, first.clone(), Node::default()));
                self.children.len() - 1
            }
        };
        self.children[index].2.insert(rng, rest, spelling);
    }
}

/// Roughly Go's order (fields, keys, values, indexes; then by text), so that most canonical
/// texts take Go's "already sorted" path on reading.
fn kind_rank(pe: &Pe) -> u8 {
    match pe {
        Pe::Field(_) => 0,
        Pe::Key(_) => 1,
        Pe::Value(_) => 2,
        Pe::Index(_) => 3,
    }
}

/// The fieldsV1 text of the set of `paths`.
pub fn set_text(rng: &mut Rng, paths: &[Vec<Pe>], spelling: Spelling) -> String {
    let mut root = Node::default();
    for path in paths {
        root.insert(rng, path, spelling);
    }
    if root.children.is_empty() && spelling == Spelling::Loose && rng.one_in(3) {
        return format!("{}null{}", space(rng, spelling), space(rng, spelling));
    }
    let mut out = String::new();
    out.push_str(space(rng, spelling));
    write_object(rng, &root, false, spelling, &mut out);
    out.push_str(space(rng, spelling));
    out
}

/// The value of an entry whose node has no children: a plain member.
fn leaf(rng: &mut Rng, spelling: Spelling) -> &'static str {
    if spelling == Spelling::Canonical || rng.percent(60) {
        return "{}";
    }
    rng.pick(&[
        "null",
        "{ }",
        "{\".\":{}}",
        "{\".\":null}",
        "{\".\":1}",
        "{\".\":\"s\"}",
        "{\".\":[1,{\"x\":\"y\"}]}",
        "{\".\":{\"f:hidden\":{}}}",
        "{\"x:foo\":{}}",
        "{\"x:foo\":{\"f:a\":{}}}",
        "{\"z:\":null}",
    ])
}

/// The value of a `"."` entry: anything, Go skips it.
fn dot_value(rng: &mut Rng, spelling: Spelling) -> &'static str {
    if spelling == Spelling::Canonical || rng.percent(60) {
        return "{}";
    }
    rng.pick(&[
        "null",
        "1",
        "\"s\"",
        "true",
        "[]",
        "[1,{\"x\":\"y\"}]",
        "{\"f:hidden\":{}}",
        "-0.5e3",
    ])
}

fn write_object(rng: &mut Rng, node: &Node, with_dot: bool, spelling: Spelling, out: &mut String) {
    let mut entries: Vec<String> = Vec::new();
    let mut children: Vec<&(String, Pe, Node)> = node.children.iter().collect();
    if spelling == Spelling::Canonical {
        children.sort_by(|a, b| (kind_rank(&a.1), &a.0).cmp(&(kind_rank(&b.1), &b.0)));
    } else if rng.percent(70) {
        rng.shuffle(&mut children);
    }
    for (text, _, child) in children.iter().copied() {
        let mut entry = json_string(rng, text, spelling);
        entry.push_str(space(rng, spelling));
        entry.push(':');
        entry.push_str(space(rng, spelling));
        if child.children.is_empty() {
            entry.push_str(leaf(rng, spelling));
        } else {
            write_object(rng, child, child.member, spelling, &mut entry);
        }
        entries.push(entry);
    }
    if spelling == Spelling::Loose {
        // Repeated keys, but not of big subtrees: deep paths would make the text explode.
        let small = entries.iter().map(String::len).sum::<usize>() < 2000;
        if small && rng.one_in(8) {
            split_entry(rng, &children, spelling, &mut entries);
        }
        if small && rng.one_in(12) && !entries.is_empty() {
            // A repeated key: Go merges members and replaces children.
            let i = rng.below(entries.len());
            let copy = entries[i].clone();
            entries.insert(rng.below(entries.len() + 1), copy);
        }
        if rng.one_in(15) {
            let unknown = rng.pick(&["\"x:foo\":{}", "\"z:\":null", "\"X:1\":{\"f:a\":{}}"]);
            entries.insert(rng.below(entries.len() + 1), unknown.to_owned());
        }
    }
    if with_dot {
        let dot = format!("\".\":{}", dot_value(rng, spelling));
        let at = if spelling == Spelling::Canonical || rng.percent(60) {
            0
        } else {
            rng.below(entries.len() + 1)
        };
        entries.insert(at, dot);
    }
    out.push('{');
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(space(rng, spelling));
        out.push_str(entry);
        out.push_str(space(rng, spelling));
    }
    out.push('}');
}

/// Adds an entry repeating the key of a child with children, holding some of them (or a bare
/// member): Go reads a repeated key as the same element, merging members and replacing the
/// children read before.
fn split_entry(
    rng: &mut Rng,
    children: &[&(String, Pe, Node)],
    spelling: Spelling,
    entries: &mut Vec<String>,
) {
    let with_children: Vec<usize> = (0..children.len())
        .filter(|&i| !children[i].2.children.is_empty())
        .collect();
    if with_children.is_empty() {
        return;
    }
    let i = rng.pick(&with_children);
    let (text, pe, node) = children[i];
    // The same element, maybe spelled differently.
    let key = if rng.one_in(2) {
        text.clone()
    } else {
        pe_text(rng, pe, spelling)
    };
    let mut part = Node {
        member: rng.one_in(3),
        children: Vec::new(),
    };
    for (t, p, child) in &node.children {
        if rng.one_in(2) {
            part.children
                .push((t.clone(), p.clone(), clone_node(child)));
        }
    }
    let mut entry = json_string(rng, &key, spelling);
    entry.push(':');
    if part.children.is_empty() {
        entry.push_str(leaf(rng, spelling));
    } else {
        write_object(rng, &part, part.member, spelling, &mut entry);
    }
    entries.insert(rng.below(entries.len() + 1), entry);
}

fn clone_node(node: &Node) -> Node {
    Node {
        member: node.member,
        children: node
            .children
            .iter()
            .map(|(t, p, c)| (t.clone(), p.clone(), clone_node(c)))
            .collect(),
    }
}

/// Bytes worth inserting: JSON punctuation, escapes, digits, and bytes that break UTF-8.
const INTERESTING_BYTES: &[u8] =
    b"{}[]\":,\\ \n0123456789aefnrtuxv.+-\x00\x01\x1f\x7f\x80\xbf\xc0\xc3\xe2\xed\xf0\xf4\xf5\xff";

/// Byte sequences that are not UTF-8.
const INVALID_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xc3",
    b"\xe2\x80",
    b"\xed\xa0\x80",
    b"\xc0\x80",
    b"\xf4\x90\x80\x80",
    b"\x80",
    b"\xc3\x28",
];

/// Applies one random mutation to `bytes`. `utf8` allows mutations that break UTF-8.
pub fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, utf8_only: bool) {
    let len = bytes.len();
    let at = rng.below(len + 1);
    let in_bounds = rng.below(len.max(1));
    match rng.weighted(&[10, 10, 15, 12, 10, 8, 8, 12, 8, 4, 6]) {
        0 if len > 0 && !utf8_only => bytes[in_bounds] ^= 1 << rng.below(8),
        1 if len > 0 && !utf8_only => bytes[in_bounds] = rng.pick(INTERESTING_BYTES),
        2 => {
            let b = rng.pick(INTERESTING_BYTES);
            if !utf8_only || b < 0x80 {
                bytes.insert(at, b);
            }
        }
        3 if len > 0 => {
            bytes.remove(in_bounds);
        }
        4 if len > 0 => {
            let end = (in_bounds + rng.range(1, 8)).min(len);
            bytes.drain(in_bounds..end);
        }
        5 if len > 0 => {
            let end = (in_bounds + rng.range(1, 12)).min(len);
            let span = bytes[in_bounds..end].to_vec();
            let to = rng.below(len + 1);
            bytes.splice(to..to, span);
        }
        6 => bytes.truncate(at),
        7 => {
            // A \u escape, most useful right inside a string: after a quote.
            let quotes: Vec<usize> = (0..len).filter(|&i| bytes[i] == b'"').collect();
            let to = if quotes.is_empty() || rng.one_in(4) {
                at
            } else {
                rng.pick(&quotes) + 1
            };
            let escape = odd_u_escape(rng).as_bytes().to_vec();
            bytes.splice(to..to, escape);
        }
        8 if !utf8_only => {
            let seq = rng.pick(INVALID_UTF8).to_vec();
            bytes.splice(at..at, seq);
        }
        9 if len > 1 => {
            let other = rng.below(len);
            bytes.swap(in_bounds, other);
        }
        10 => {
            let text = rng.pick(&[" ", "\t", "\u{feff}", "é", "\u{2028}", "null", "{}", ","]);
            bytes.splice(at..at, text.bytes());
        }
        _ => {
            if len > 0 {
                bytes.remove(in_bounds);
            }
        }
    }
    if utf8_only && std::str::from_utf8(bytes).is_err() {
        // A removal cut a character: drop what no longer decodes.
        *bytes = String::from_utf8_lossy(bytes)
            .replace('\u{fffd}', "")
            .into_bytes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_sets_are_json_objects() {
        let mut rng = Rng::new(5);
        for _ in 0..500 {
            let n = rng.range(0, 6);
            let paths = gen_paths(&mut rng, n, PeShape { odd_indexes: false });
            let text = set_text(&mut rng, &paths, Spelling::Canonical);
            if text.contains("e309") || text.contains("e400") || text.contains("59e308") {
                continue;
            }
            let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(parsed.is_object(), "{text}");
        }
    }

    #[test]
    fn utf8_only_mutations_keep_utf8() {
        let mut rng = Rng::new(9);
        for _ in 0..2000 {
            let mut bytes = "{\"f:é\":{\"v:\\\"中\\\"\":{}}}".as_bytes().to_vec();
            for _ in 0..3 {
                mutate(&mut rng, &mut bytes, true);
            }
            assert!(std::str::from_utf8(&bytes).is_ok());
        }
    }
}
