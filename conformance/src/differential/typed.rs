//! Random schemas of the shapes Server-Side Apply cares about, random objects of them, and
//! cases of kind `typed` (and, built on them, `updater`).
//!
//! The grammar: a root struct whose fields are scalars (string, numeric, boolean, untyped),
//! structs (granular or atomic), maps (granular or atomic) of any shape, atomic lists, sets of
//! scalars, and keyed lists of structs (one or two key fields, sometimes with defaults). Names
//! come from small pools so that two objects of one schema share fields, keys and set items.

use super::rng::Rng;
use serde_json::{Value as Json, json};
use smd_fieldpath::{PathElement, Set, Value};
use std::fmt::Write;

/// A type of the grammar.
#[derive(Debug, Clone)]
pub enum Shape {
    /// A scalar of this SMD name.
    Scalar(&'static str),
    /// A named struct type.
    Struct {
        /// The type's name in the schema.
        name: String,
        /// Its fields.
        fields: Vec<(String, Shape)>,
        /// Whether the struct is atomic.
        atomic: bool,
    },
    /// A map with an element type.
    Map {
        /// The type of entries.
        elem: Box<Shape>,
        /// Whether the map is atomic.
        atomic: bool,
    },
    /// An atomic list.
    Atomic(Box<Shape>),
    /// A set of scalars of this name.
    Set(&'static str),
    /// A keyed list of structs: the key field names (scalar fields of the item), and their
    /// defaults.
    Keyed {
        /// The item struct.
        item: Box<Shape>,
        /// The key fields.
        keys: Vec<String>,
    },
}

const SCALARS: &[&str] = &["string", "numeric", "boolean", "untyped"];
const FIELDS: &[&str] = &["a", "b", "c", "d", "e"];
const MAP_KEYS: &[&str] = &["x", "y", "z"];
const KEY_FIELDS: &[&str] = &["name", "port"];

/// A schema: its SMD YAML text and the root shape (a struct named `root`).
#[derive(Debug, Clone)]
pub struct RandomSchema {
    /// SMD schema YAML.
    pub text: String,
    /// The root type.
    pub root: Shape,
}

/// A random schema.
pub fn gen_schema(rng: &mut Rng) -> RandomSchema {
    let mut counter = 0;
    let root = gen_struct(rng, 3, &mut counter, "root".to_owned(), false);
    let mut types = String::from("types:\n");
    write_types(&root, &mut types);
    RandomSchema { text: types, root }
}

fn gen_struct(
    rng: &mut Rng,
    depth: usize,
    counter: &mut usize,
    name: String,
    atomic: bool,
) -> Shape {
    let n = rng.range(1, 4);
    let mut names: Vec<&str> = FIELDS.to_vec();
    rng.shuffle(&mut names);
    let fields = names[..n]
        .iter()
        .map(|f| ((*f).to_owned(), gen_shape(rng, depth, counter)))
        .collect();
    Shape::Struct {
        name,
        fields,
        atomic,
    }
}

fn gen_shape(rng: &mut Rng, depth: usize, counter: &mut usize) -> Shape {
    let choice = if depth == 0 {
        0
    } else {
        rng.weighted(&[40, 14, 8, 8, 10, 20])
    };
    match choice {
        0 => Shape::Scalar(rng.pick(SCALARS)),
        1 => {
            *counter += 1;
            let name = format!("t{counter}");
            let atomic = rng.one_in(5);
            gen_struct(rng, depth - 1, counter, name, atomic)
        }
        2 => Shape::Map {
            elem: Box::new(gen_shape(rng, depth - 1, counter)),
            atomic: rng.one_in(4),
        },
        3 => Shape::Atomic(Box::new(gen_shape(rng, depth - 1, counter))),
        4 => Shape::Set(rng.pick(&["string", "numeric"])),
        _ => {
            *counter += 1;
            let name = format!("t{counter}");
            let keys: Vec<String> = if rng.one_in(3) {
                KEY_FIELDS.iter().map(|k| (*k).to_owned()).collect()
            } else {
                vec![KEY_FIELDS[0].to_owned()]
            };
            let mut fields: Vec<(String, Shape)> = keys
                .iter()
                .map(|k| {
                    let scalar = if k == "port" { "numeric" } else { "string" };
                    (k.clone(), Shape::Scalar(scalar))
                })
                .collect();
            let extra = rng.range(1, 2);
            let mut names: Vec<&str> = FIELDS.to_vec();
            rng.shuffle(&mut names);
            for f in &names[..extra] {
                fields.push(((*f).to_owned(), gen_shape(rng, depth - 1, counter)));
            }
            Shape::Keyed {
                item: Box::new(Shape::Struct {
                    name,
                    fields,
                    atomic: false,
                }),
                keys,
            }
        }
    }
}

/// Writes the named types of `shape` (structs), depth first.
fn write_types(shape: &Shape, out: &mut String) {
    match shape {
        Shape::Struct {
            name,
            fields,
            atomic,
        } => {
            let _ = writeln!(out, "- name: {name}\n  map:\n    fields:");
            for (field, ty) in fields {
                let _ = writeln!(out, "    - name: {field}\n      type: {}", type_ref(ty));
                if field == "port" && matches!(ty, Shape::Scalar(_)) && name.starts_with('t') {
                    // A key field with a default now and then is decided by the name's digit.
                    if name.ends_with('3') || name.ends_with('7') {
                        out.push_str("      default: 80\n");
                    }
                }
            }
            if *atomic {
                out.push_str("    elementRelationship: atomic\n");
            }
            for (_, ty) in fields {
                write_types(ty, out);
            }
        }
        Shape::Map { elem, .. } | Shape::Atomic(elem) => write_types(elem, out),
        Shape::Keyed { item, .. } => write_types(item, out),
        Shape::Scalar(_) | Shape::Set(_) => {}
    }
}

/// A type reference in flow YAML.
fn type_ref(shape: &Shape) -> String {
    match shape {
        Shape::Scalar(s) => format!("{{scalar: {s}}}"),
        Shape::Struct { name, .. } => format!("{{namedType: {name}}}"),
        Shape::Map { elem, atomic } => format!(
            "{{map: {{elementType: {}{}}}}}",
            type_ref(elem),
            if *atomic {
                ", elementRelationship: atomic"
            } else {
                ""
            }
        ),
        Shape::Atomic(elem) => format!(
            "{{list: {{elementType: {}, elementRelationship: atomic}}}}",
            type_ref(elem)
        ),
        Shape::Set(s) => {
            format!("{{list: {{elementType: {{scalar: {s}}}, elementRelationship: associative}}}}")
        }
        Shape::Keyed { item, keys } => format!(
            "{{list: {{elementType: {}, elementRelationship: associative, keys: [{}]}}}}",
            type_ref(item),
            keys.join(", ")
        ),
    }
}

/// A random object of `shape`; `wrong` is the percentage of scalars of the wrong kind.
pub fn gen_object(rng: &mut Rng, shape: &Shape, wrong: usize) -> Value {
    gen_value(rng, shape, wrong, 0)
}

fn gen_scalar(rng: &mut Rng, kind: &str, wrong: usize) -> Value {
    if rng.percent(wrong) {
        return match rng.below(3) {
            0 => Value::from("w"),
            1 => Value::Int(9),
            _ => Value::Bool(true),
        };
    }
    if rng.percent(4) {
        return Value::Null;
    }
    match kind {
        "string" => Value::from(rng.pick(&["a", "b", "c"])),
        "numeric" => match rng.below(5) {
            0 => Value::Float(1.5),
            n => Value::Int(n as i64),
        },
        "boolean" => Value::Bool(rng.one_in(2)),
        _ => match rng.below(3) {
            0 => Value::from("u"),
            1 => Value::Int(7),
            _ => Value::Bool(false),
        },
    }
}

fn gen_value(rng: &mut Rng, shape: &Shape, wrong: usize, depth: usize) -> Value {
    if depth > 0 && rng.percent(3) {
        return Value::Null;
    }
    match shape {
        Shape::Scalar(kind) => gen_scalar(rng, kind, wrong),
        Shape::Struct { fields, .. } => {
            let mut m = smd_fieldpath::Map::new();
            for (name, ty) in fields {
                if rng.percent(65) {
                    m.insert(name.as_str(), gen_value(rng, ty, wrong, depth + 1));
                }
            }
            if rng.percent(wrong) {
                m.insert("undeclared", Value::Int(1));
            }
            Value::Map(m)
        }
        Shape::Map { elem, .. } => {
            let mut m = smd_fieldpath::Map::new();
            for _ in 0..rng.range(0, 3) {
                let key = rng.pick(MAP_KEYS);
                m.insert(key, gen_value(rng, elem, wrong, depth + 1));
            }
            Value::Map(m)
        }
        Shape::Atomic(elem) => Value::List(
            (0..rng.range(0, 3))
                .map(|_| gen_value(rng, elem, wrong, depth + 1))
                .collect(),
        ),
        Shape::Set(kind) => {
            let mut items: Vec<Value> = Vec::new();
            for _ in 0..rng.range(0, 4) {
                let v = match *kind {
                    "numeric" => Value::Int(rng.range(1, 4) as i64),
                    _ => Value::from(rng.pick(&["a", "b", "c", "d"])),
                };
                // Duplicates only now and then: they are refused outside updates.
                if !items.contains(&v) || rng.percent(wrong.max(2)) {
                    items.push(v);
                }
            }
            Value::List(items)
        }
        Shape::Keyed { item, keys } => {
            let mut items: Vec<Value> = Vec::new();
            let mut seen: Vec<Vec<Value>> = Vec::new();
            for _ in 0..rng.range(0, 3) {
                let mut v = gen_value(rng, item, wrong, depth + 1);
                if let Value::Map(m) = &mut v {
                    for k in keys {
                        let key = if k == "port" {
                            Value::Int(rng.range(1, 3) as i64)
                        } else {
                            Value::from(rng.pick(&["n1", "n2", "n3"]))
                        };
                        if !rng.percent(6) {
                            m.insert(k.as_str(), key);
                        } else {
                            m.remove(k);
                        }
                    }
                    let id: Vec<Value> = keys
                        .iter()
                        .map(|k| m.get(k).cloned().unwrap_or_default())
                        .collect();
                    if seen.contains(&id) && !rng.percent(wrong.max(2)) {
                        continue;
                    }
                    seen.push(id);
                }
                items.push(v);
            }
            Value::List(items)
        }
    }
}

/// `v` changed here and there: fields dropped, scalars changed, items added or removed, with
/// everything else kept (so that a second object overlaps the first).
pub fn mutate(rng: &mut Rng, shape: &Shape, v: &Value, wrong: usize) -> Value {
    if rng.percent(15) {
        return gen_value(rng, shape, wrong, 1);
    }
    match (shape, v) {
        (Shape::Struct { fields, .. }, Value::Map(m)) => {
            let mut out = smd_fieldpath::Map::new();
            for (name, ty) in fields {
                match m.get(name) {
                    Some(_) if rng.percent(15) => {}
                    Some(inner) => {
                        out.insert(name.as_str(), mutate(rng, ty, inner, wrong));
                    }
                    None if rng.percent(20) => {
                        out.insert(name.as_str(), gen_value(rng, ty, wrong, 1));
                    }
                    None => {}
                }
            }
            Value::Map(out)
        }
        (Shape::Map { elem, .. }, Value::Map(m)) => {
            let mut out = smd_fieldpath::Map::new();
            for (k, inner) in m.iter() {
                if !rng.percent(20) {
                    out.insert(k, mutate(rng, elem, inner, wrong));
                }
            }
            if rng.percent(20) {
                out.insert(rng.pick(MAP_KEYS), gen_value(rng, elem, wrong, 1));
            }
            Value::Map(out)
        }
        (Shape::Keyed { item, .. }, Value::List(items)) => {
            let mut out: Vec<Value> = Vec::with_capacity(items.len());
            for i in items {
                if !rng.percent(20) {
                    out.push(keep_keys(rng, item, i, wrong));
                }
            }
            if rng.percent(20) {
                if let Value::List(more) = gen_value(rng, shape, wrong, 1) {
                    for extra in more.into_iter().take(1) {
                        out.push(extra);
                    }
                }
            }
            if rng.percent(15) {
                rng.shuffle(&mut out);
            }
            Value::List(out)
        }
        (Shape::Set(_), Value::List(items)) => {
            let mut out: Vec<Value> = items.iter().filter(|_| !rng.percent(25)).cloned().collect();
            if rng.percent(30) {
                if let Value::List(more) = gen_value(rng, shape, wrong, 1) {
                    for extra in more {
                        if !out.contains(&extra) {
                            out.push(extra);
                        }
                    }
                }
            }
            Value::List(out)
        }
        (Shape::Scalar(kind), _) if rng.percent(40) => gen_scalar(rng, kind, wrong),
        _ => v.clone(),
    }
}

/// A keyed item mutated, its key fields kept.
fn keep_keys(rng: &mut Rng, item: &Shape, v: &Value, wrong: usize) -> Value {
    let mut out = mutate(rng, item, v, wrong);
    if let (Value::Map(from), Value::Map(to)) = (v, &mut out) {
        for k in KEY_FIELDS {
            if let Some(key) = from.get(k) {
                to.insert(*k, key.clone());
            }
        }
    }
    out
}

/// A random set of paths found in `v` (fields, map entries, list items), as fieldsV1.
pub fn gen_set(rng: &mut Rng, shape: &Shape, v: &Value) -> String {
    let mut paths = Vec::new();
    collect_paths(shape, v, &mut Vec::new(), &mut paths);
    let mut set = Set::new();
    for p in paths {
        if rng.percent(30) {
            set.insert(&p);
        }
    }
    match set.to_fields_v1() {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => "{}".to_owned(),
    }
}

fn collect_paths(
    shape: &Shape,
    v: &Value,
    prefix: &mut Vec<PathElement>,
    out: &mut Vec<Vec<PathElement>>,
) {
    match (shape, v) {
        (Shape::Struct { fields, .. }, Value::Map(m)) => {
            for (name, ty) in fields {
                if let Some(inner) = m.get(name) {
                    prefix.push(PathElement::field(name.as_str()));
                    out.push(prefix.clone());
                    collect_paths(ty, inner, prefix, out);
                    prefix.pop();
                }
            }
        }
        (Shape::Map { elem, .. }, Value::Map(m)) => {
            for (k, inner) in m.iter() {
                prefix.push(PathElement::field(k));
                out.push(prefix.clone());
                collect_paths(elem, inner, prefix, out);
                prefix.pop();
            }
        }
        (Shape::Set(_), Value::List(items)) => {
            for item in items {
                if !matches!(item, Value::Null | Value::List(_) | Value::Map(_)) {
                    prefix.push(PathElement::value(item.clone()));
                    out.push(prefix.clone());
                    prefix.pop();
                }
            }
        }
        (Shape::Keyed { item, keys }, Value::List(items)) => {
            for i in items {
                let Value::Map(m) = i else { continue };
                let key: Vec<(&str, Value)> = keys
                    .iter()
                    .filter_map(|k| m.get(k).map(|v| (k.as_str(), v.clone())))
                    .collect();
                if key.is_empty() {
                    continue;
                }
                prefix.push(PathElement::key(key));
                out.push(prefix.clone());
                collect_paths(item, i, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

/// `v` as a value spec: flow YAML (ints stay ints), JSON-compatible.
pub fn spec(v: &Value) -> Json {
    json!({ "yaml": yaml_text(v) })
}

fn yaml_text(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::String(s) => format!("{s:?}"),
        Value::List(items) => {
            let inner: Vec<String> = items.iter().map(yaml_text).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Map(m) => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k:?}: {}", yaml_text(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
    }
}

/// A case of kind `typed`: `op` on a random schema and objects.
pub fn typed_case(rng: &mut Rng, op: &str) -> Json {
    let schema = gen_schema(rng);
    let wrong = if op == "validate" { 8 } else { 1 };
    let object = gen_object(rng, &schema.root, wrong);
    let mut case = json!({
        "kind": "typed",
        "op": op,
        "schema": schema.text,
        "type": "root",
        "object": spec(&object),
    });
    if rng.percent(20) {
        case["allowDuplicates"] = json!(true);
    }
    match op {
        "compare" | "merge" => {
            let rhs = if rng.percent(80) {
                mutate(rng, &schema.root, &object, 1)
            } else {
                gen_object(rng, &schema.root, 1)
            };
            case["rhs"] = spec(&rhs);
        }
        "removeItems" | "extractItems" => {
            case["set"] = json!(gen_set(rng, &schema.root, &object));
            if op == "extractItems" && rng.one_in(2) {
                case["appendKeyFields"] = json!(true);
            }
        }
        _ => {}
    }
    case
}

/// A case of kind `updater`: a sequence of applies, forced applies and updates by 2–4
/// managers at 1–3 versions (one type for every version; now and then with the converter
/// that drops versions), on one random schema. Later objects are mostly changed copies of
/// earlier ones, so that managers meet on the same fields.
pub fn updater_case(rng: &mut Rng) -> Json {
    let schema = gen_schema(rng);
    let managers: Vec<&str> = {
        let mut all = vec!["m1", "m2", "m3", "ctl"];
        rng.shuffle(&mut all);
        all.truncate(rng.range(2, 4));
        all
    };
    let versions: Vec<&str> = ["v1", "v2", "v3"][..rng.range(1, 3)].to_vec();
    let accepted = versions.len() > 1 && rng.percent(15);
    let mut steps = Vec::new();
    let mut objects: Vec<Value> = Vec::new();
    for _ in 0..rng.range(2, 7) {
        if accepted && rng.percent(10) {
            let mut keep: Vec<&str> = versions
                .iter()
                .copied()
                .filter(|_| rng.percent(70))
                .collect();
            if keep.is_empty() {
                keep.push(versions[0]);
            }
            steps.push(json!({ "op": "setAccepted", "accepted": keep }));
            continue;
        }
        let object = match objects.last() {
            Some(previous) if rng.percent(70) => {
                let base = if rng.percent(50) {
                    previous.clone()
                } else {
                    rng.pick(&objects)
                };
                mutate(rng, &schema.root, &base, 1)
            }
            _ => gen_object(rng, &schema.root, 1),
        };
        objects.push(object.clone());
        let op = rng.weighted(&[55, 12, 33]);
        let mut step = json!({
            "op": if op == 2 { "update" } else { "apply" },
            "manager": rng.pick(&managers),
            "apiVersion": rng.pick(&versions),
            "object": spec(&object),
        });
        if op == 1 {
            step["force"] = json!(true);
        }
        steps.push(step);
    }
    let mut case = json!({
        "kind": "updater",
        "op": "sequence",
        "schema": schema.text,
        "type": "root",
        "steps": steps,
    });
    if accepted {
        case["converter"] = json!({ "accepted": versions });
    }
    if rng.percent(10) {
        case["returnInputOnNoop"] = json!(true);
    }
    case
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::judge::smd_result;

    #[test]
    fn random_typed_cases_are_well_formed_and_smd_answers_them() {
        let mut answered = std::collections::BTreeMap::new();
        for op in [
            "validate",
            "toFieldSet",
            "compare",
            "merge",
            "removeItems",
            "extractItems",
        ] {
            for i in 0..300 {
                let mut rng = Rng::for_case(11, i);
                let case = typed_case(&mut rng, op);
                let result = smd_result(&case);
                assert!(
                    result.get("smdPanic").is_none() && result.get("smdMalformed").is_none(),
                    "{case}\n{result}"
                );
                let key = if result.get("error").is_some() {
                    "error"
                } else {
                    "ok"
                };
                *answered.entry((op, key)).or_insert(0) += 1;
            }
        }
        for i in 0..300 {
            let case = updater_case(&mut Rng::for_case(12, i));
            let result = smd_result(&case);
            assert!(
                result.get("smdPanic").is_none() && result.get("smdMalformed").is_none(),
                "{case}\n{result}"
            );
        }
        // Most cases type their objects; some are meant to fail.
        for op in ["toFieldSet", "compare", "merge"] {
            assert!(
                answered.get(&(op, "ok")).copied().unwrap_or(0) > 150,
                "{answered:?}"
            );
        }
    }
}
