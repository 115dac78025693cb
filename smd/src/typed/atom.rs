//! What every walk shares: resolving a type reference, choosing the part of an atom that
//! applies to a value (Go's `deduceAtom` and `handleAtom`), naming list items, and Go's texts
//! of offending values.

use std::fmt::Write;
use std::sync::Arc;

use smallvec::SmallVec;

use smd_fieldpath::value::gofmt::{MapKeys, value_go_syntax};
use smd_fieldpath::{Key, KeyField, Name, PathElement, Value};
use smd_schema::{ElementRelationship, ListView, MapView, ResolvedAtom, Scalar, Schema, TypeRef};

use super::MAX_DEPTH;
use super::error::{ValidationError, ValidationErrors};

/// The part of an atom a walk handles for a value.
#[derive(Clone, Copy)]
pub(crate) enum Part<'s> {
    Scalar(&'s Scalar),
    List(ListView<'s>),
    Map(MapView<'s>),
}

const SCALAR: u8 = 1;
const LIST: u8 = 2;
const MAP: u8 = 4;

/// An atom narrowed to the part that fits a value: one part when the value's kind has one,
/// else the whole atom (and the walk fails later with a better message).
#[derive(Clone, Copy)]
pub(crate) struct Deduced<'s> {
    atom: ResolvedAtom<'s>,
    parts: u8,
}

impl<'s> Deduced<'s> {
    /// Go's `deduceAtom`: `None` is a value that is not there (Go's nil).
    pub(crate) fn new(atom: ResolvedAtom<'s>, value: Option<&Value>) -> Deduced<'s> {
        let mut all = 0;
        if atom.scalar().is_some() {
            all |= SCALAR;
        }
        if atom.atom().as_list().is_some() {
            all |= LIST;
        }
        if atom.atom().as_map().is_some() {
            all |= MAP;
        }
        let fits = match value {
            None | Some(Value::Null) => 0,
            Some(Value::List(_)) => LIST,
            Some(Value::Map(_)) => MAP,
            Some(_) => SCALAR,
        };
        let parts = if all & fits != 0 { fits } else { all };
        Deduced { atom, parts }
    }

    /// Whether two narrowings of one atom are equal (Go compares the narrowed atoms).
    pub(crate) fn same(&self, other: &Deduced<'_>) -> bool {
        self.parts == other.parts
    }

    /// Go's `handleAtom`: the map part first, then the scalar, then the list.
    pub(crate) fn part(&self) -> Option<Part<'s>> {
        if self.parts & MAP != 0 {
            return self.atom.map().map(Part::Map);
        }
        if self.parts & SCALAR != 0 {
            return self.atom.scalar().map(Part::Scalar);
        }
        if self.parts & LIST != 0 {
            return self.atom.list().map(Part::List);
        }
        None
    }
}

/// Go's message for a reference that resolves to nothing.
pub(crate) fn unresolved(tr: &TypeRef) -> String {
    format!(
        "schema error: no type found matching: {}",
        tr.named_type().unwrap_or("inlined type")
    )
}

/// Go's message for an atom with no part.
pub(crate) fn invalid_atom(tr: &TypeRef) -> String {
    match tr.named_type() {
        Some(name) => format!("schema error: invalid atom: named type: {name}"),
        None => "schema error: invalid atom: inlined".to_owned(),
    }
}

pub(crate) use smd_fieldpath::value::gofmt::value_plain as go_plain;

/// Go's `%#v` of a `value.Value` holding `v` (an unstructured object, so maps are
/// `map[string]interface {}`).
pub(crate) fn go_syntax(v: &Value) -> String {
    value_go_syntax(v, MapKeys::String)
}

/// Checks a scalar against its type (Go's `validateScalar`); `prefix` is `""`, `"lhs: "` or
/// `"rhs: "`. Null (and absence) always passes.
pub(crate) fn check_scalar(t: &Scalar, v: Option<&Value>, prefix: &str) -> Option<String> {
    let v = match v {
        None | Some(Value::Null) => return None,
        Some(v) => v,
    };
    let number = matches!(v, Value::Int(_) | Value::Float(_));
    let scalar = number || matches!(v, Value::String(_) | Value::Bool(_));
    match t {
        Scalar::Numeric if !number => Some(format!(
            "{prefix}expected numeric (int or float), got {}",
            smd_fieldpath::value::gofmt::type_name(v)
        )),
        Scalar::String if !matches!(v, Value::String(_)) => {
            Some(format!("{prefix}expected string, got {}", go_syntax(v)))
        }
        Scalar::Boolean if !matches!(v, Value::Bool(_)) => {
            Some(format!("{prefix}expected boolean, got {}", go_plain(v)))
        }
        Scalar::Untyped if !scalar => {
            Some(format!("{prefix}expected any scalar, got {}", go_plain(v)))
        }
        Scalar::Other(name) => Some(format!("{prefix}unexpected scalar type in schema: {name}")),
        _ => None,
    }
}

/// The path element naming an item of `list` (Go's `listItemToPathElement`): its key fields
/// for a keyed associative list, its value for a set. Positional lists have none.
pub(crate) fn list_item_element(
    schema: &Schema,
    list: &ListView<'_>,
    item: &Value,
) -> Result<PathElement, String> {
    if *list.element_relationship() != ElementRelationship::Associative {
        return Err("invalid indexing of non-associative list".to_owned());
    }
    let keys = list.keys();
    if keys.is_empty() {
        return match item {
            Value::Map(_) => {
                Err("associative list without keys has an element that's a map type".to_owned())
            }
            Value::List(_) => {
                Err("not supported: associative list with lists as elements".to_owned())
            }
            Value::Null => Err(
                "associative list without keys has an element that's an explicit null".to_owned(),
            ),
            scalar => Ok(PathElement::Value(Arc::new(scalar.clone()))),
        };
    }
    let map = match item {
        Value::Null => {
            return Err("associative list with keys may not have a null element".to_owned());
        }
        Value::Map(m) => m,
        _ => return Err("associative list with keys may not have non-map elements".to_owned()),
    };
    // Most lists have one or two key fields: no vector on the way to the key's own storage.
    let mut fields: SmallVec<[KeyField; 2]> = SmallVec::with_capacity(keys.len());
    for name in keys {
        if let Some(v) = map.get(name) {
            fields.push(KeyField {
                name: Name::from(name.as_str()),
                value: v.clone(),
            });
            continue;
        }
        match key_default(schema, list, name) {
            Err(e) => return Err(format!("couldn't find default value for {name}: {e}")),
            Ok(Some(default)) => fields.push(KeyField {
                name: Name::from(name.as_str()),
                value: default.clone(),
            }),
            Ok(None) => {}
        }
    }
    if fields.is_empty() {
        let mut quoted = String::from("[");
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                quoted.push(' ');
            }
            let _ = write!(quoted, "{}", Value::from(k.as_str()));
        }
        quoted.push(']');
        return Err(format!(
            "associative list with keys has an element that omits all key fields {quoted} \
             (and doesn't have default values for any key fields)"
        ));
    }
    Ok(PathElement::Key(Key::new(fields)))
}

/// Whether a value is a list or map with something in it: a child node of its parent's, where
/// anything else is a member.
pub(crate) fn has_content(value: &Value) -> bool {
    match value {
        Value::List(items) => !items.is_empty(),
        Value::Map(entries) => !entries.is_empty(),
        _ => false,
    }
}

/// The default of key field `name` from the list's element type (Go's
/// `getAssociativeKeyDefault`).
fn key_default<'s>(
    schema: &'s Schema,
    list: &ListView<'s>,
    name: &str,
) -> Result<Option<&'s Value>, &'static str> {
    let atom = schema
        .resolve(list.element_type())
        .ok_or("invalid elementType for list")?;
    let map = atom
        .map()
        .ok_or("associative list may not have non-map types")?;
    Ok(map.find_field(name).and_then(|f| f.default_value()))
}

/// Go's text of a path: each element's text, concatenated.
pub(crate) fn path_text(path: &[PathElement]) -> String {
    let mut out = String::new();
    for pe in path {
        let _ = write!(out, "{pe}");
    }
    out
}

/// The items of a side that is a list (absent, null or another kind: none).
pub(crate) fn as_items(v: Option<&Value>) -> Option<&[Value]> {
    match v {
        Some(Value::List(items)) => Some(items),
        _ => None,
    }
}

/// The entries of a side that is a map (absent, null or another kind: none).
pub(crate) fn as_entries(v: Option<&Value>) -> Option<&smd_fieldpath::Map> {
    match v {
        Some(Value::Map(m)) => Some(m),
        _ => None,
    }
}

/// Where a walk is in the value, and what went wrong on the way: every walk holds one.
pub(crate) struct Trail {
    pub(crate) path: Vec<PathElement>,
    pub(crate) errors: Vec<ValidationError>,
}

impl Trail {
    pub(crate) fn new() -> Trail {
        Trail {
            // Room for the levels of most objects: the path is not grown level by level.
            path: Vec::with_capacity(16),
            errors: Vec::new(),
        }
    }

    /// A problem at the current path.
    pub(crate) fn error(&mut self, message: String) {
        self.errors.push(ValidationError {
            path: path_text(&self.path),
            message,
        });
    }

    /// The atom `tr` refers to; `None`, with the error said, when the walk is too deep or the
    /// reference resolves to nothing.
    pub(crate) fn resolve<'a>(
        &mut self,
        schema: &'a Schema,
        tr: &'a TypeRef,
    ) -> Option<ResolvedAtom<'a>> {
        if self.path.len() > MAX_DEPTH {
            self.error(format!("nested deeper than {MAX_DEPTH} levels"));
            return None;
        }
        let resolved = schema.resolve(tr);
        if resolved.is_none() {
            self.error(unresolved(tr));
        }
        resolved
    }

    /// Go's check of a scalar pair (compare, merge): refused, with both errors, only when both
    /// sides are wrong.
    pub(crate) fn refuse_scalars(
        &mut self,
        t: &Scalar,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> bool {
        let l = check_scalar(t, lhs, "lhs: ");
        let r = check_scalar(t, rhs, "rhs: ");
        if let (Some(l), Some(r)) = (l, r) {
            self.error(l);
            self.error(r);
            return true;
        }
        false
    }

    /// `out`, or every error found.
    pub(crate) fn finish<T>(self, out: T) -> Result<T, ValidationErrors> {
        if self.errors.is_empty() {
            Ok(out)
        } else {
            Err(ValidationErrors(self.errors))
        }
    }
}

/// The scalar type of an entry one level below a walk at `depth` whose sides are scalars,
/// neither null (one may be absent), when handling the pair would say
/// nothing: the type resolves to its scalar part for both, and the right side (the left, when
/// the right is absent) is of that type. A two-sided walk can then treat the entry as a leaf
/// without making its path, which only errors need.
pub(crate) fn quiet_scalar_pair<'a>(
    schema: &'a Schema,
    tr: &'a TypeRef,
    depth: usize,
    lhs: Option<&Value>,
    rhs: Option<&Value>,
) -> Option<&'a Scalar> {
    let scalar = |v: &Value| !matches!(v, Value::Map(_) | Value::List(_) | Value::Null);
    let either = rhs.or(lhs)?;
    if depth >= MAX_DEPTH || !lhs.is_none_or(scalar) || !rhs.is_none_or(scalar) {
        return None;
    }
    let resolved = schema.resolve(tr)?;
    // The sides are scalars: they deduce alike, to the type's scalar part if it has one.
    let Some(Part::Scalar(t)) = Deduced::new(resolved, Some(either)).part() else {
        return None;
    };
    check_scalar(t, Some(either), "").is_none().then_some(t)
}

/// The parts of an atom a two-sided walk (compare, merge) handles for a pair, as Go picks
/// them: the right side's part (the left's when the right is absent); when the sides have
/// different kinds (a scalar that became a map, in a deduced type), the left side's part
/// first, for its errors and effects, then the right side's.
pub(crate) fn sides<'a>(
    atom: ResolvedAtom<'a>,
    lhs: Option<&Value>,
    rhs: Option<&Value>,
) -> (Option<Deduced<'a>>, Deduced<'a>) {
    let left = Deduced::new(atom, lhs);
    let right = Deduced::new(atom, rhs);
    if rhs.is_none() {
        (None, left)
    } else if lhs.is_none() || left.same(&right) {
        (None, right)
    } else {
        (Some(left), right)
    }
}
