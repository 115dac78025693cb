//! Writing SMD's schema YAML in one canonical form, which reads back to the same schema.
//!
//! Block style, two-space indentation, sequence items at their key's indentation (as
//! `k8s-schema.yaml` is written); keys in the order of Go's struct fields; empty and default
//! parts left out, except the key fields (`name`, `fieldName`), which the format requires.
//! Strings are plain when YAML 1.1 cannot read them as anything else, double-quoted otherwise.
//! Defaults are written in flow style.

use std::fmt::Write;

use smd_value::Value;

use crate::model::{Atom, ElementRelationship, ListType, MapType, StructField, TypeDef, TypeRef};
use crate::model::{Union, UnionField};
use crate::schema::Schema;

/// A YAML node to emit.
enum Node {
    /// A scalar or a flow collection, already in its YAML text.
    Text(String),
    Map(Vec<(&'static str, Node)>),
    Seq(Vec<Node>),
}

pub(crate) fn to_string(schema: &Schema) -> String {
    let types = schema.types().iter().map(type_def).collect();
    let mut out = String::new();
    emit_map(&mut out, &[("types", Node::Seq(types))], 0, false);
    out
}

fn type_def(t: &TypeDef) -> Node {
    let mut entries = vec![("name", string(t.name()))];
    atom(&mut entries, t.atom());
    Node::Map(entries)
}

fn atom(entries: &mut Vec<(&'static str, Node)>, a: &Atom) {
    if let Some(s) = a.as_scalar() {
        entries.push(("scalar", string(s.as_str())));
    }
    if let Some(l) = a.as_list() {
        entries.push(("list", list(l)));
    }
    if let Some(m) = a.as_map() {
        entries.push(("map", map(m)));
    }
}

fn type_ref(tr: &TypeRef) -> Node {
    let mut entries = Vec::new();
    if let Some(name) = tr.named_type() {
        entries.push(("namedType", string(name)));
    }
    atom(&mut entries, tr.inlined_atom());
    if let Some(er) = tr.element_relationship() {
        entries.push(("elementRelationship", string(er.as_str())));
    }
    if tr.nullable() {
        entries.push(("nullable", Node::Text("true".into())));
    }
    Node::Map(entries)
}

fn relationship(entries: &mut Vec<(&'static str, Node)>, er: &ElementRelationship) {
    if *er != ElementRelationship::Unspecified {
        entries.push(("elementRelationship", string(er.as_str())));
    }
}

fn map(m: &MapType) -> Node {
    let mut entries = Vec::new();
    if !m.fields().is_empty() {
        entries.push(("fields", Node::Seq(m.fields().iter().map(field).collect())));
    }
    if !m.unions().is_empty() {
        entries.push(("unions", Node::Seq(m.unions().iter().map(union).collect())));
    }
    if !m.element_type_ref().is_zero() {
        entries.push(("elementType", type_ref(m.element_type_ref())));
    }
    relationship(&mut entries, m.element_relationship());
    Node::Map(entries)
}

fn list(l: &ListType) -> Node {
    let mut entries = Vec::new();
    if !l.element_type().is_zero() {
        entries.push(("elementType", type_ref(l.element_type())));
    }
    relationship(&mut entries, l.element_relationship());
    if !l.keys().is_empty() {
        entries.push((
            "keys",
            Node::Seq(l.keys().iter().map(|k| string(k)).collect()),
        ));
    }
    Node::Map(entries)
}

fn field(f: &StructField) -> Node {
    let mut entries = vec![("name", string(f.name()))];
    if !f.type_ref().is_zero() {
        entries.push(("type", type_ref(f.type_ref())));
    }
    if let Some(d) = f.default_value() {
        let mut text = String::new();
        flow(&mut text, d);
        entries.push(("default", Node::Text(text)));
    }
    Node::Map(entries)
}

fn union(u: &Union) -> Node {
    let mut entries = Vec::new();
    if let Some(d) = u.discriminator() {
        entries.push(("discriminator", string(d)));
    }
    if u.deduce_invalid_discriminator() {
        entries.push(("deduceInvalidDiscriminator", Node::Text("true".into())));
    }
    if !u.fields().is_empty() {
        entries.push((
            "fields",
            Node::Seq(u.fields().iter().map(union_field).collect()),
        ));
    }
    Node::Map(entries)
}

fn union_field(f: &UnionField) -> Node {
    let mut entries = vec![("fieldName", string(f.field_name()))];
    if !f.discriminator_value().is_empty() {
        entries.push(("discriminatorValue", string(f.discriminator_value())));
    }
    Node::Map(entries)
}

fn string(s: &str) -> Node {
    let mut text = String::new();
    write_string(&mut text, s);
    Node::Text(text)
}

/// Writes `entries` at `indent`; the first one on the current line when `inline` (after `- `).
fn emit_map(out: &mut String, entries: &[(&'static str, Node)], indent: usize, inline: bool) {
    for (i, (key, node)) in entries.iter().enumerate() {
        if i > 0 || !inline {
            pad(out, indent);
        }
        out.push_str(key);
        out.push(':');
        match node {
            Node::Text(text) => {
                out.push(' ');
                out.push_str(text);
                out.push('\n');
            }
            Node::Map(inner) if inner.is_empty() => out.push_str(" {}\n"),
            Node::Map(inner) => {
                out.push('\n');
                emit_map(out, inner, indent + 2, false);
            }
            Node::Seq(items) if items.is_empty() => out.push_str(" []\n"),
            Node::Seq(items) => {
                out.push('\n');
                emit_seq(out, items, indent);
            }
        }
    }
}

fn emit_seq(out: &mut String, items: &[Node], indent: usize) {
    for item in items {
        pad(out, indent);
        out.push_str("- ");
        match item {
            Node::Text(text) => {
                out.push_str(text);
                out.push('\n');
            }
            Node::Map(inner) if inner.is_empty() => out.push_str("{}\n"),
            Node::Map(inner) => emit_map(out, inner, indent + 2, true),
            // The format has no list of lists outside defaults, which are flow text.
            Node::Seq(_) => out.push_str("[]\n"),
        }
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// A value in flow style, reading back as the same value under YAML 1.1.
fn flow(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => float(out, *f),
        Value::String(s) => write_string(out, s),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                flow(out, item);
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_string(out, k);
                out.push_str(": ");
                flow(out, item);
            }
            out.push('}');
        }
    }
}

/// A float that YAML 1.1 reads back as this float (never as an int).
fn float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str(".nan");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { ".inf" } else { "-.inf" });
    } else {
        // Rust's shortest round-trip text: `1.0`, `1e21`, `1.5e-7`; each holds a `.` or an `e`.
        let _ = write!(out, "{f:?}");
    }
}

/// Words that YAML 1.1 (yaml.v2) reads as something other than a string when plain.
const SPECIAL_WORDS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
];

/// Writes `s` plain when that reads back as the same string, double-quoted otherwise.
fn write_string(out: &mut String, s: &str) {
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'))
        && !SPECIAL_WORDS.contains(&s);
    if plain {
        out.push_str(s);
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c if is_printable(c) => out.push(c),
            c if u32::from(c) <= 0xffff => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\U{:08x}", u32::from(c));
            }
        }
    }
    out.push('"');
}

/// Whether `c` may stand for itself in a double-quoted scalar: YAML's printable characters,
/// less the line breaks of YAML 1.1 and the byte-order mark.
fn is_printable(c: char) -> bool {
    let c = u32::from(c);
    (0xa0..=0xd7ff).contains(&c) && c != 0x2028 && c != 0x2029
        || (0xe000..=0xfffd).contains(&c) && c != 0xfeff
        || c >= 0x10000
}

#[cfg(test)]
mod tests {
    use crate::Schema;

    #[test]
    fn canonical_form() {
        let schema = Schema::from_yaml(
            r#"{types: [
              {name: pod, map: {fields: [
                {name: ports, type: {list: {elementType: {namedType: port}, elementRelationship: associative, keys: [port, protocol]}}},
                {name: "y", type: {namedType: labels, elementRelationship: "", nullable: true}},
                {name: "n", default: {"on": [1, 2.0, .inf, "a b", null, "010"]}}],
                unions: [{discriminator: kind, fields: [{fieldName: a, discriminatorValue: A}]}]}},
              {name: "é \"x\"\n", scalar: untyped, list: {}, map: {}}]}"#,
        )
        .unwrap();
        let expected = r#"types:
- name: pod
  map:
    fields:
    - name: ports
      type:
        list:
          elementType:
            namedType: port
          elementRelationship: associative
          keys:
          - port
          - protocol
    - name: "y"
      type:
        namedType: labels
        elementRelationship: ""
        nullable: true
    - name: "n"
      default: {"on": [1, 2.0, .inf, "a b", null, "010"]}
    unions:
    - discriminator: kind
      fields:
      - fieldName: a
        discriminatorValue: A
- name: "é \"x\"\n"
  scalar: untyped
  list: {}
  map: {}
"#;
        assert_eq!(schema.to_yaml(), expected);
        assert_eq!(Schema::from_yaml(expected).unwrap(), schema);
    }
}
