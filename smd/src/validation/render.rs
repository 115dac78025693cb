//! A built-in value shown in a message as Go shows it: `json.Marshal` of the internal Go
//! value (`k8s.io/kubernetes/pkg/apis/<group>` types, whose fields have no JSON tags and so
//! are named and ordered as in Go), and the unified diff `diff.Diff` writes of two of them.
//!
//! The value smd holds is the versioned one; [`convert`] turns it into the internal type's
//! shape (keys named as `json.Marshal` names the internal fields), the built-in types' Go
//! walk fills in Go's zero values and encodes the custom types, and the writers here print it
//! compact or indented. [`difflib`] is go-difflib's unified diff.

mod convert;
mod difflib;

use smd_fieldpath::Value;
use smd_fieldpath::value::gojson;

use crate::builtin::gotypes::{gotypes, internal_types};
use crate::builtin::marshal_struct;

/// `json.Marshal` of `value`, a versioned value of the OpenAPI type `type_name`
/// (`io.k8s.api.core.v1.PodTemplateSpec`), converted to its internal Go type. A type the
/// tables do not know is written as it is.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn internal_json(type_name: &str, value: &Value) -> String {
    match internal_value(type_name, value) {
        Some(v) => {
            let mut out = String::new();
            write_compact(&mut out, &v);
            out
        }
        None => super::json(value),
    }
}

/// `diff.Diff(old, new)` of two versioned values of `type_name` as their internal Go types:
/// go-difflib's unified diff (3 lines of context, no file header) of their
/// `json.MarshalIndent(v, "", " ")` texts.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn internal_diff(type_name: &str, old: &Value, new: &Value) -> String {
    let a = internal_indent(type_name, old);
    let b = internal_indent(type_name, new);
    difflib::unified_diff(&split_lines(&a), &split_lines(&b), 3)
}

/// `json.MarshalIndent(v, "", " ")` of the internal value (what `diff.Diff` compares).
pub(crate) fn internal_indent(type_name: &str, value: &Value) -> String {
    let v = internal_value(type_name, value).unwrap_or_else(|| value.clone());
    let mut out = String::new();
    write_indented(&mut out, &v, 0);
    out
}

/// The internal Go value of a versioned value, as `json.Marshal` sees it (struct fields in
/// declaration order); `None` when the tables do not know the type.
fn internal_value(type_name: &str, value: &Value) -> Option<Value> {
    let versioned = gotypes().ok()?;
    let internal = internal_types().ok()?;
    let internal_name = internal.internal_of(type_name)?;
    let v = versioned.index_of(type_name)?;
    let i = internal.index_of(internal_name)?;
    let shaped = convert::to_internal(versioned, internal, v, i, value);
    Some(marshal_struct(internal, i, &shaped))
}

/// go-difflib's `SplitLines`: lines with their `\n`, the last one given one too.
fn split_lines(s: &str) -> Vec<String> {
    let mut lines: Vec<String> = s.split_inclusive('\n').map(str::to_owned).collect();
    if s.is_empty() || s.ends_with('\n') {
        lines.push(String::new());
    }
    if let Some(last) = lines.last_mut() {
        last.push('\n');
    }
    lines
}

/// `json.Marshal`'s text of an encoded value whose maps are in the order to write (struct
/// fields in declaration order, Go maps already sorted).
fn write_compact(out: &mut String, v: &Value) {
    match v {
        Value::List(items) => {
            out.push('[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            for (n, (k, item)) in m.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                gojson::write_string(out, k);
                out.push(':');
                write_compact(out, item);
            }
            out.push('}');
        }
        leaf => write_leaf(out, leaf),
    }
}

/// `json.MarshalIndent(v, "", " ")`: one member a line, one space per level, empty lists
/// and maps kept as `[]` and `{}`.
fn write_indented(out: &mut String, v: &Value, level: usize) {
    let newline = |out: &mut String, level: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', level));
    };
    match v {
        Value::List(items) if !items.is_empty() => {
            out.push('[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                write_indented(out, item, level + 1);
            }
            newline(out, level);
            out.push(']');
        }
        Value::Map(m) if !m.is_empty() => {
            out.push('{');
            for (n, (k, item)) in m.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                gojson::write_string(out, k);
                out.push_str(": ");
                write_indented(out, item, level + 1);
            }
            newline(out, level);
            out.push('}');
        }
        Value::List(_) => out.push_str("[]"),
        Value::Map(_) => out.push_str("{}"),
        leaf => write_leaf(out, leaf),
    }
}

fn write_leaf(out: &mut String, v: &Value) {
    // Scalars only: NaN and infinities cannot come from a decoded object.
    if gojson::write_value(out, v).is_err() {
        out.push_str("null");
    }
}

#[cfg(test)]
mod tests;
