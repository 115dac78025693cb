//! Reading `fieldsV1` bytes, with Go's acceptance, leniency and partial results.
//!
//! The reader follows Go's control flow over json-iterator step by step (see
//! [`smd_value::json::Reader`] for why): after an error Go keeps reading, and the set it returns
//! next to the error holds whatever it read; smd returns the same set.

use crate::element::{Key, KeyField, PathElement};
use crate::error::{Error, ErrorKind, Result};
use crate::name::Name;
use crate::set::{NodeBuilder, Repeat, Set};
use crate::value::go_quote;
use smd_value::Location;
use smd_value::json::{Reader, SET_FROM_JSON_BUFFER};
use std::sync::Arc;

impl Set {
    /// Reads a `fieldsV1` document (`null` is the empty set). Accepts and refuses exactly what
    /// the API server does, with Go's leniency: element kinds it does not know (`x:…`) are
    /// dropped with what lies below them, `"."` may hold anything, duplicate keys merge.
    ///
    /// ```
    /// use smd_fieldpath::Set;
    /// let set = Set::from_fields_v1(br#"{"f:b":{}, "f:a":{".":{}, "f:c":{}}}"#)?;
    /// assert_eq!(set.to_fields_v1()?, br#"{"f:a":{".":{},"f:c":{}},"f:b":{}}"#);
    /// assert!(Set::from_fields_v1(b"[]").is_err());
    /// # Ok::<(), smd_fieldpath::Error>(())
    /// ```
    pub fn from_fields_v1(bytes: &[u8]) -> Result<Set> {
        match Set::from_fields_v1_partial(bytes) {
            (set, None) => Ok(set),
            (_, Some(error)) => Err(error),
        }
    }

    /// Like [`Set::from_fields_v1`], and on failure also the part of the set that was read, as
    /// Go's `Set.FromJSON` leaves it next to its error.
    pub fn from_fields_v1_partial(bytes: &[u8]) -> (Set, Option<Error>) {
        match super::fast::read(bytes) {
            Some(set) => (set, None),
            None => read_faithfully(bytes),
        }
    }
}

impl Set {
    /// [`Set::from_fields_v1_partial`] without its fast path: Go's reader step by step, for
    /// any document. Not for use: the `fieldsv1` fuzz target holds the fast path to it.
    #[doc(hidden)]
    pub fn from_fields_v1_step_by_step(bytes: &[u8]) -> (Set, Option<Error>) {
        read_faithfully(bytes)
    }
}

/// [`Set::from_fields_v1_partial`] by Go's reader step by step, for any document.
pub(super) fn read_faithfully(bytes: &[u8]) -> (Set, Option<Error>) {
    let mut reader = Reader::buffered(bytes, SET_FROM_JSON_BUFFER);
    let (children, _) = read_node(&mut reader);
    let set = children.unwrap_or_default();
    let error = match reader.current_error() {
        Some(error) => Some(error),
        None => reader.expect_end().err(),
    };
    (
        set,
        error.map(|e| Error::from(e).with_kind(ErrorKind::FieldsV1)),
    )
}

impl Set {
    /// The set a `fieldsV1` value stands for, read from the value itself rather than from its
    /// JSON text: what [`Set::from_fields_v1`] gives for the text Go would write for `value`,
    /// when that text reads without error. `None` for anything else (a key that is not a path
    /// element, a member that is not an object): the caller then reads the text, for Go's
    /// exact error.
    ///
    /// ```
    /// use smd_fieldpath::{Set, Value};
    /// let value = Value::from_json(r#"{"f:a":{".":{},"f:c":{}},"f:b":{}}"#)?;
    /// let set = Set::from_fields_v1_value(&value).unwrap();
    /// assert_eq!(set, Set::from_fields_v1(br#"{"f:a":{".":{},"f:c":{}},"f:b":{}}"#)?);
    /// assert!(Set::from_fields_v1_value(&Value::from_json(r#"{"x":{}}"#)?).is_none());
    /// # Ok::<(), smd_fieldpath::Error>(())
    /// ```
    pub fn from_fields_v1_value(value: &crate::Value) -> Option<Set> {
        match value {
            crate::Value::Null => Some(Set::new()),
            crate::Value::Map(map) => {
                node_from_value(map).map(|(children, _)| children.unwrap_or_default())
            }
            _ => None,
        }
    }
}

/// [`read_node`] over a value.
fn node_from_value(map: &crate::Map) -> Option<(Option<Set>, bool)> {
    // Room for each entry as what it most likely brings: an empty map a member, anything else
    // a child node.
    let members = map
        .values()
        .filter(|v| matches!(v, crate::Value::Map(m) if m.is_empty()))
        .count();
    let mut node = NodeBuilder::with_capacity(members, map.len() - members);
    let mut member = false;
    // Go reads the text encoding/json writes for the value, keys sorted by bytes; the order
    // decides which of two keys naming equal elements (`v:1` and `v:1.0`, `v:0` and `v:-0`)
    // gives the element and which the subtree. The field manager writes them sorted already.
    let mut sorted: Vec<(&str, &crate::Value)> = Vec::new();
    let entries: &mut dyn Iterator<Item = (&str, &crate::Value)> =
        if map.keys().is_sorted_by(|a, b| a.as_bytes() < b.as_bytes()) {
            &mut map.iter()
        } else {
            sorted.extend(map.iter());
            sorted.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            &mut sorted.iter().copied()
        };
    for (key, value) in entries {
        // Anything unusual goes the text way: values under "." and under dropped keys are
        // skipped by the reader, but the text of a NaN there would not be written at all.
        if key == "." {
            if !matches!(value, crate::Value::Map(m) if m.is_empty()) {
                return None;
            }
            member = true;
            continue;
        }
        match parse_element(key.as_bytes()) {
            Err(_) => return None,
            Ok(element) => {
                let crate::Value::Map(child) = value else {
                    return None;
                };
                let (grandchildren, child_is_member) = node_from_value(child)?;
                add_child(&mut node, element, grandchildren, child_is_member);
            }
        }
    }
    Some(finish_node(node, member))
}

/// What one key of a node brings to it: the element as a member, the node below it, or both.
fn add_child(
    node: &mut NodeBuilder,
    element: PathElement,
    grandchildren: Option<Set>,
    child_is_member: bool,
) {
    match (grandchildren, child_is_member) {
        (Some(grandchildren), true) => {
            node.member(element.clone());
            node.child(element, grandchildren);
        }
        (Some(grandchildren), false) => node.child(element, grandchildren),
        (None, true) => node.member(element),
        (None, false) => {}
    }
}

/// The node's children (if any key made one) and whether the node itself is a member. The
/// elements are placed as Go's reader places them one by one: a repeated key keeps its first
/// element and replaces what an earlier one put below it.
pub(super) fn finish_node(node: NodeBuilder, member: bool) -> (Option<Set>, bool) {
    if node.is_empty() {
        // A node with no children is a member whatever it says (`{}`, `null`, or only
        // dropped keys).
        return (None, true);
    }
    (Some(node.finish(Repeat::Replace)), member)
}

impl PathElement {
    /// Reads one serialized path element: `f:name`, `k:{"name":"a"}`, `v:80`, `i:3`.
    ///
    /// ```
    /// use smd_fieldpath::PathElement;
    /// let key = PathElement::from_fields_v1(br#"k:{"port":80,"name":"http"}"#)?;
    /// assert_eq!(key.to_string(), r#"[name="http",port=80]"#);
    /// assert_eq!(
    ///     PathElement::from_fields_v1(b"i:x").unwrap_err().message(),
    ///     r#"strconv.Atoi: parsing "x": invalid syntax"#
    /// );
    /// # Ok::<(), smd_fieldpath::Error>(())
    /// ```
    pub fn from_fields_v1(text: &[u8]) -> Result<PathElement> {
        match parse_element(text) {
            Ok(element) => Ok(element),
            Err(Refusal::UnknownKind) => Err(element_error("unknown path element type".into())),
            Err(Refusal::Invalid(error)) => Err(error),
        }
    }
}

/// Why a key is not a path element.
pub(super) enum Refusal {
    /// A kind letter this version does not know: the key is dropped, not an error (Go's
    /// `ErrUnknownPathElementType`, kept for forward compatibility).
    UnknownKind,
    Invalid(Error),
}

fn element_error(message: String) -> Error {
    Error::new(ErrorKind::PathElement, message, Location::Unknown)
}

/// One node: its children (if any key made one) and whether the node itself is a member.
fn read_node(reader: &mut Reader<'_>) -> (Option<Set>, bool) {
    let mut node = NodeBuilder::default();
    let mut member = false;
    reader.read_map_cb(|reader, key| {
        if *key == *b"." {
            member = true;
            reader.skip();
            return true;
        }
        match parse_element(&key) {
            Err(Refusal::UnknownKind) => reader.skip(),
            Err(Refusal::Invalid(error)) => {
                let limit = error.kind() == ErrorKind::Limit;
                reader.report_nested("parsing key as path element", error.message(), limit);
                reader.skip();
            }
            Ok(element) => {
                let (grandchildren, child_is_member) = read_node(reader);
                add_child(&mut node, element, grandchildren, child_is_member);
            }
        }
        true
    });
    finish_node(node, member)
}

pub(super) fn parse_element(text: &[u8]) -> std::result::Result<PathElement, Refusal> {
    let [kind, separator, rest @ ..] = text else {
        return Err(Refusal::Invalid(element_error(
            "key must be 2 characters long:".into(),
        )));
    };
    if *separator != b':' {
        return Err(Refusal::Invalid(element_error(format!(
            "missing colon: {}",
            String::from_utf8_lossy(text)
        ))));
    }
    let invalid =
        |e: smd_value::Error| Refusal::Invalid(Error::from(e).with_kind(ErrorKind::PathElement));
    match kind {
        b'f' => Ok(PathElement::Field(Name::from_bytes(rest))),
        b'v' => {
            let mut reader = Reader::new(rest);
            let value = reader.read_value();
            if let Some(error) = reader.error() {
                return Err(invalid(error.clone()));
            }
            reader.expect_end().map_err(invalid)?;
            Ok(PathElement::Value(Arc::new(value)))
        }
        b'k' => {
            let mut reader = Reader::new(rest);
            let mut fields = Vec::new();
            reader.read_object_cb(|reader, name| {
                let value = reader.read_value();
                if let Some(error) = reader.error().cloned() {
                    reader.set_error(error);
                    return false;
                }
                fields.push(KeyField {
                    name: Name::from_bytes(&name),
                    value,
                });
                true
            });
            reader.expect_end().map_err(invalid)?;
            Ok(PathElement::Key(Key::new(fields)))
        }
        b'i' => atoi(rest).map(PathElement::Index).map_err(Refusal::Invalid),
        _ => Err(Refusal::UnknownKind),
    }
}

/// Go's `strconv.Atoi` on 64 bits: an optional sign, then decimal digits (leading zeros fine);
/// refused at the first byte that is not a digit, or once the number overflows.
pub(super) fn atoi(text: &[u8]) -> std::result::Result<i64, Error> {
    let fail = |why: &str| {
        let quoted = go_quote(&String::from_utf8_lossy(text));
        element_error(format!("strconv.Atoi: parsing {quoted}: {why}"))
    };
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if digits.is_empty() {
        return Err(fail("invalid syntax"));
    }
    let mut magnitude: u64 = 0;
    for &byte in digits {
        if !byte.is_ascii_digit() {
            return Err(fail("invalid syntax"));
        }
        magnitude = magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(byte - b'0')))
            .ok_or_else(|| fail("value out of range"))?;
    }
    let limit = if negative {
        1u64 << 63
    } else {
        (1u64 << 63) - 1
    };
    if magnitude > limit {
        return Err(fail("value out of range"));
    }
    Ok(if negative {
        0i64.wrapping_sub_unsigned(magnitude)
    } else {
        magnitude as i64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_to_the_limit_reads_and_past_it_is_a_limit_error() {
        let deep = |levels: usize| {
            let mut text = Vec::new();
            for _ in 0..levels {
                text.extend_from_slice(br#"{"f:a":"#);
            }
            text.extend_from_slice(b"{}");
            text.extend(std::iter::repeat_n(b'}', levels));
            text
        };
        let set = Set::from_fields_v1(&deep(crate::MAX_DEPTH - 2));
        assert!(set.is_ok(), "{set:?}");
        let error = Set::from_fields_v1(&deep(crate::MAX_DEPTH + 5)).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Limit);
    }

    /// `{"f:k000000":{},"f:k000001":{"f:x":{}},...}` with `n` keys, in Go's order or reversed:
    /// members and child nodes both.
    fn siblings(n: usize, reversed: bool) -> Vec<u8> {
        let mut keys: Vec<String> = (0..n)
            .map(|i| match i % 2 {
                0 => format!(r#""f:k{i:06}":{{}}"#),
                _ => format!(r#""f:k{i:06}":{{"f:x":{{}}}}"#),
            })
            .collect();
        if reversed {
            keys.reverse();
        }
        format!("{{{}}}", keys.join(",")).into_bytes()
    }

    #[test]
    fn reversed_sibling_keys_read_as_sorted_ones() {
        let n = 200_000;
        let sorted = Set::from_fields_v1(&siblings(n, false)).unwrap();
        let reversed = Set::from_fields_v1(&siblings(n, true)).unwrap();
        assert_eq!(sorted.size(), n);
        assert_eq!(reversed, sorted);
        let value = crate::Value::from_json(std::str::from_utf8(&siblings(n, true)).unwrap());
        assert_eq!(Set::from_fields_v1_value(&value.unwrap()), Some(sorted));
    }

    /// The work (element comparisons and elements shifted by insertions) of reading `text`.
    fn work_to_read(text: &[u8]) -> u64 {
        crate::work::take();
        let set = Set::from_fields_v1(text);
        let work = crate::work::take();
        assert!(set.is_ok(), "{set:?}");
        work
    }

    #[test]
    fn reading_siblings_in_any_order_costs_n_log_n() {
        // Quadratic insertion shifts about n²/4 elements here (two lists of n/2): 10⁸ at
        // 20,000 keys, where n·log₂n is 3·10⁵.
        let n = 20_000;
        let bound = 16 * n as u64 * (n as f64).log2() as u64;
        let text = siblings(n, true);
        let work = work_to_read(&text);
        assert!(
            work <= bound,
            "reading {n} reversed keys took {work} units (bound {bound})"
        );
        let value = crate::Value::from_json(std::str::from_utf8(&text).unwrap()).unwrap();
        crate::work::take();
        assert!(Set::from_fields_v1_value(&value).is_some());
        let work = crate::work::take();
        assert!(
            work <= bound,
            "reading {n} reversed keys as a value took {work} units"
        );
    }

    #[test]
    fn atoi_is_gos() {
        assert_eq!(atoi(b"+007").ok(), Some(7));
        assert_eq!(atoi(b"-9223372036854775808").ok(), Some(i64::MIN));
        assert_eq!(
            atoi(b"9223372036854775808").unwrap_err().message(),
            r#"strconv.Atoi: parsing "9223372036854775808": value out of range"#
        );
        assert_eq!(
            atoi(b" 1").unwrap_err().message(),
            r#"strconv.Atoi: parsing " 1": invalid syntax"#
        );
    }
}
