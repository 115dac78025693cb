//! A versioned value turned into the shape of its internal Go type, as the scheme's
//! conversion fills it: each internal field from the versioned field of the same Go name (the
//! generated conversions copy fields by name), embedded structs followed on either side (the
//! internal `PodTemplateSpec` embeds `ObjectMeta` where `v1` names it `metadata`).
//!
//! What the hand-written conversions of v1.37.2 change that a message can show:
//! - `apiVersion` and `kind` (`metav1.TypeMeta`) are empty in every internal value: the
//!   conversion to the internal version clears the object's (`setTargetKind`), and the one
//!   nested object that keeps them in `v1`, a StatefulSet's volume claim template, loses them
//!   in `Convert_v1_StatefulSetSpec_To_apps_StatefulSetSpec`.
//! - A field the internal type has and the versioned one lacks keeps Go's zero value
//!   (`smd-scheme internal-types` pairs the types; the core `PodSpec` and its parts match
//!   field for field in this release).

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use crate::builtin::gotypes::{Field, GoTypes, Shape, TypeDef};

/// Nesting deeper than this is left as Go's zero value (the readers cap objects lower).
const MAX_DEPTH: usize = smd_fieldpath::MAX_DEPTH;

/// `value`, of the versioned struct `v` of `versioned`, with the keys and nesting of the
/// internal struct `i` of `internal`.
pub(super) fn to_internal(
    versioned: &GoTypes,
    internal: &GoTypes,
    v: usize,
    i: usize,
    value: &Value,
) -> Value {
    Converter {
        versioned,
        internal,
    }
    .structure(v, i, value, 0)
}

struct Converter<'a> {
    versioned: &'a GoTypes,
    internal: &'a GoTypes,
}

impl Converter<'_> {
    fn structure(&self, v: usize, i: usize, value: &Value, depth: usize) -> Value {
        let mut out = Map::new();
        let Some(t) = self.internal.get(i) else {
            return Value::Map(out);
        };
        if depth > MAX_DEPTH {
            return Value::Map(out);
        }
        for f in &t.flat {
            if f.via.last().is_some_and(|e| e == "TypeMeta") {
                continue;
            }
            let mut go_path: Vec<&str> = f.via.iter().map(String::as_str).collect();
            go_path.push(&f.field.go);
            let Some((item, shape)) = self.lookup(v, value, &go_path, 0) else {
                continue;
            };
            let converted = self.shaped(shape, &f.field.shape, item, depth + 1);
            out.insert(f.field.json.clone(), converted);
        }
        Value::Map(out)
    }

    /// The versioned value and shape at a path of Go field names from the struct `v`:
    /// an embedded struct's fields found in the same map, a named one's under its key.
    fn lookup<'v>(
        &'v self,
        v: usize,
        value: &'v Value,
        go_path: &[&str],
        depth: usize,
    ) -> Option<(&'v Value, &'v Shape)> {
        let (first, rest) = go_path.split_first()?;
        let TypeDef::Struct(fields) = &self.versioned.get(v)?.def else {
            return None;
        };
        if depth > 16 {
            return None;
        }
        if let Some(f) = fields.iter().find(|f| f.go == *first) {
            return self.descend(f, value, rest, depth);
        }
        // A field promoted from an embedded struct of the versioned type.
        fields
            .iter()
            .filter(|f| f.embedded)
            .find_map(|f| match f.shape {
                Shape::Named(e) => self.lookup(e, value, go_path, depth + 1),
                _ => None,
            })
    }

    fn descend<'v>(
        &'v self,
        f: &'v Field,
        value: &'v Value,
        rest: &[&str],
        depth: usize,
    ) -> Option<(&'v Value, &'v Shape)> {
        let here = if f.embedded {
            value
        } else {
            value.as_map()?.get(&f.json)?
        };
        if rest.is_empty() {
            return Some((here, &f.shape));
        }
        match strip_pointers(&f.shape) {
            Shape::Named(e) => self.lookup(*e, here, rest, depth + 1),
            _ => None,
        }
    }

    /// A versioned value of shape `from` in the internal shape `to`.
    fn shaped(&self, from: &Shape, to: &Shape, value: &Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        match (strip_pointers(from), strip_pointers(to), value) {
            (Shape::Slice(a), Shape::Slice(b), Value::List(items)) => Value::List(
                items
                    .iter()
                    .map(|item| self.shaped(a, b, item, depth + 1))
                    .collect(),
            ),
            (Shape::Map(a), Shape::Map(b), Value::Map(m)) => {
                let mut out = Map::with_capacity(m.len());
                for (k, item) in m.iter() {
                    out.insert(k, self.shaped(a, b, item, depth + 1));
                }
                Value::Map(out)
            }
            (Shape::Named(a), Shape::Named(b), Value::Map(_))
                if self.is_struct(self.versioned, *a) && self.is_struct(self.internal, *b) =>
            {
                self.structure(*a, *b, value, depth + 1)
            }
            _ => value.clone(),
        }
    }

    fn is_struct(&self, types: &GoTypes, i: usize) -> bool {
        matches!(types.get(i).map(|t| &t.def), Some(TypeDef::Struct(_)))
    }
}

fn strip_pointers(shape: &Shape) -> &Shape {
    match shape {
        Shape::Pointer(inner) => strip_pointers(inner),
        other => other,
    }
}
