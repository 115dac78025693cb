//! The table of Go types (`smd/src/builtin/gotypes.json`, `gogen gotypes`) covers every built-in
//! kind and version: every GVK of the embedded 1.37 schema is in it with the same type, every
//! type those kinds reach is a type of the embedded schema (except embedded structs, whose
//! fields OpenAPI inlines), and a body of each kind with nothing but `apiVersion` and `kind`
//! goes through the round trip.

use std::collections::BTreeSet;

use smd::builtin::gotypes::{Shape, TypeDef, gotypes};
use smd::builtin::{is_builtin, round_trip};
use smd::fieldpath::Value;
use smd::fieldpath::value::Map;

#[test]
fn every_kind_of_the_embedded_schema_has_its_go_type() {
    let table = gotypes().expect("the table loads");
    let index = smd_schema::kubernetes::v1_37_gvk();
    let mut missing = Vec::new();
    for (gvk, type_name) in index.entries() {
        match table.kind(gvk) {
            Some(t) if t.name == type_name => {}
            Some(t) => missing.push(format!(
                "{gvk:?}: {} in the table, {type_name} in the schema",
                t.name
            )),
            None => missing.push(format!("{gvk:?} ({type_name}) is not in the table")),
        }
        assert!(is_builtin(gvk), "{gvk:?}");
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(
        index.len() >= 269,
        "the embedded index has {} kinds",
        index.len()
    );
    // The scheme registers more than the server serves (alpha and beta versions, lists,
    // options): the table has all of them.
    assert!(table.kinds().len() >= 755, "{} kinds", table.kinds().len());
}

#[test]
fn every_type_the_served_kinds_reach_is_in_the_embedded_schema() {
    let table = gotypes().expect("the table loads");
    let schema = smd_schema::kubernetes::v1_37();
    let index = smd_schema::kubernetes::v1_37_gvk();
    let mut stack: Vec<usize> = index
        .entries()
        .iter()
        .filter_map(|(_, name)| table.index_of(name))
        .collect();
    let mut seen = BTreeSet::new();
    let mut absent = Vec::new();
    while let Some(i) = stack.pop() {
        if !seen.insert(i) {
            continue;
        }
        let t = table.get(i).expect("an index of the table");
        if schema.find(&t.name).is_none() {
            absent.push(t.name.clone());
        }
        let TypeDef::Struct(fields) = &t.def else {
            continue;
        };
        for f in fields {
            let mut shape = &f.shape;
            while let Shape::Pointer(s) | Shape::Slice(s) | Shape::Map(s) = shape {
                shape = s;
            }
            if let Shape::Named(j) = shape {
                if f.embedded {
                    // OpenAPI inlines an embedded struct's fields; its own fields' types count.
                    stack.extend(struct_fields_types(table, *j));
                } else {
                    stack.push(*j);
                }
            }
        }
    }
    assert!(absent.is_empty(), "not in the embedded schema: {absent:?}");
    assert!(seen.len() > 800, "{} types reached", seen.len());
}

fn struct_fields_types(table: &smd::builtin::gotypes::GoTypes, i: usize) -> Vec<usize> {
    let mut out = Vec::new();
    if let Some(TypeDef::Struct(fields)) = table.get(i).map(|t| &t.def) {
        for f in fields {
            let mut shape = &f.shape;
            while let Shape::Pointer(s) | Shape::Slice(s) | Shape::Map(s) = shape {
                shape = s;
            }
            if let Shape::Named(j) = shape {
                if f.embedded {
                    out.extend(struct_fields_types(table, *j));
                } else {
                    out.push(*j);
                }
            }
        }
    }
    out
}

#[test]
fn a_bare_body_of_every_kind_round_trips() {
    let table = gotypes().expect("the table loads");
    for kind in table.kinds() {
        let gvk = smd_schema::gvk::GroupVersionKind::new(&kind.group, &kind.version, &kind.kind);
        let api_version = if kind.group.is_empty() {
            kind.version.clone()
        } else {
            format!("{}/{}", kind.group, kind.version)
        };
        let mut m = Map::new();
        m.insert("apiVersion", Value::String(api_version));
        m.insert("kind", Value::String(kind.kind.clone()));
        let decoded = round_trip(&gvk, &Value::Map(m)).unwrap_or_else(|e| panic!("{gvk:?}: {e}"));
        let Value::Map(out) = &decoded.object else {
            panic!("{gvk:?}: not a map");
        };
        if out.get("kind").is_some() {
            assert_eq!(
                out.get("kind").and_then(Value::as_str),
                Some(kind.kind.as_str()),
                "{gvk:?}"
            );
            assert!(decoded.unknown_fields.is_empty(), "{gvk:?}");
        } else {
            // metav1.WatchEvent has no TypeMeta.
            assert_eq!(decoded.unknown_fields, ["apiVersion", "kind"], "{gvk:?}");
        }
    }
}
