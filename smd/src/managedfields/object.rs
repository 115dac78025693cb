//! What the pipeline reads of an object, as Go's `Unstructured` accessors read it: a part of
//! the wrong kind reads as empty.

use smd_fieldpath::{Map, Value};
use smd_schema::gvk::GroupVersionKind;

/// The string at `path`, or `""` (Go's `getNestedString`).
pub(crate) fn nested_str<'a>(object: &'a Value, path: &[&str]) -> &'a str {
    object.str_at(path)
}

/// The object's group, version and kind (Go's `Unstructured.GroupVersionKind()`).
pub(crate) fn gvk_of(object: &Value) -> GroupVersionKind {
    GroupVersionKind::from_api_version(
        nested_str(object, &["apiVersion"]),
        nested_str(object, &["kind"]),
    )
}

/// `GroupVersion.String()`: `apps/v1`, or `v1` for the core group.
pub(crate) fn group_version(gvk: &GroupVersionKind) -> String {
    if gvk.group.is_empty() {
        gvk.version.clone()
    } else {
        format!("{}/{}", gvk.group, gvk.version)
    }
}

/// Go's `schema.ParseGroupVersion`: `(group, version)`, or its error text.
pub(crate) fn parse_group_version(text: &str) -> Result<(&str, &str), String> {
    if text.is_empty() || text == "/" {
        return Ok(("", ""));
    }
    match text.matches('/').count() {
        0 => Ok(("", text)),
        1 => Ok(text.split_once('/').unwrap_or_default()),
        _ => Err(format!("unexpected GroupVersion string: {text}")),
    }
}

/// `objectGVKNN` (`IN/structuredmerge.go:79-88`): `namespace/name; gvk`.
pub(crate) fn describe(object: &Value) -> String {
    format!(
        "{}/{}; {}",
        nested_str(object, &["metadata", "namespace"]),
        nested_str(object, &["metadata", "name"]),
        gvk_of(object)
    )
}

/// An empty object of `gvk`, as the API server's `creater.New` gives one for a create (with
/// the kind set, as the field manager sets it on unstructured objects).
pub(crate) fn new_object(gvk: &GroupVersionKind) -> Value {
    let mut map = Map::with_capacity(2);
    map.insert("apiVersion", Value::from(group_version(gvk)));
    map.insert("kind", Value::from(gvk.kind.as_str()));
    Value::Map(map)
}

/// The annotations as Go's `GetAnnotations` reads them (`NestedNullCoercingStringMap`): null
/// values become `""`; a map with another kind of value, or no map, reads as none.
pub(crate) fn annotations(object: &Value) -> Option<Vec<(String, String)>> {
    let meta = object.as_map()?.get("metadata")?.as_map()?;
    let Value::Map(annotations) = meta.get("annotations")? else {
        return None;
    };
    annotations
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => Some((k.to_owned(), s.clone())),
            Value::Null => Some((k.to_owned(), String::new())),
            _ => None,
        })
        .collect()
}

/// Sets the annotations (Go's `SetAnnotations`: `None` removes the key; `metadata` is created
/// when missing).
pub(crate) fn set_annotations(object: &mut Value, annotations: Option<Vec<(String, String)>>) {
    let Some(object) = object.as_map_mut() else {
        return;
    };
    let Some(annotations) = annotations else {
        if let Some(Value::Map(meta)) = object.get_mut("metadata") {
            meta.remove("annotations");
        }
        return;
    };
    let map: Map = annotations
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    if !matches!(object.get("metadata"), Some(Value::Map(_))) {
        if matches!(object.get("metadata"), None | Some(Value::Null)) {
            object.insert("metadata", Value::Map(Map::new()));
        } else {
            return;
        }
    }
    if let Some(Value::Map(meta)) = object.get_mut("metadata") {
        meta.insert("annotations", Value::Map(map));
    }
}

/// Reads a request body or stored object the way the API server reads an apply patch: YAML
/// (1.1, so `yes` is a boolean) or JSON text, with its numbers made what JSON decoding makes
/// of them ([`normalize_numbers`]).
///
/// ```
/// let object = smd::managedfields::read_object("{kind: ConfigMap, data: {n: '1'}, spec: {replicas: 2.0}}").unwrap();
/// assert_eq!(object, smd::fieldpath::yaml::from_str("{kind: ConfigMap, data: {n: '1'}, spec: {replicas: 2}}").unwrap());
/// ```
pub fn read_object(text: &str) -> Result<Value, ReadError> {
    let mut value = smd_fieldpath::yaml::from_str(text)?;
    match value {
        // Go decodes `null` into the map it was given, which stays empty.
        Value::Null => return Ok(Value::Map(Map::new())),
        Value::Map(_) => {}
        ref other => {
            let kind = match other {
                Value::Bool(_) => "bool",
                Value::Int(_) | Value::Float(_) => "number",
                Value::String(_) => "string",
                _ => "array",
            };
            return Err(ReadError::NotAnObject(kind));
        }
    }
    normalize_numbers(&mut value);
    Ok(value)
}

/// Why a request body cannot be read as an object.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The text is not YAML or JSON.
    #[error("{0}")]
    Syntax(#[from] smd_value::Error),
    /// The text holds something other than an object (Go's words for it).
    #[error(
        "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {0} into Go value of type map[string]interface {{}}"
    )]
    NotAnObject(&'static str),
}

/// Makes `value`'s numbers what the API server makes of an apply patch, which it reads as
/// YAML, writes as JSON and decodes again (`k8s.io/apimachinery/pkg/util/yaml.Unmarshal`): a
/// float whose Go JSON text (shortest digits, no exponent below 1e21) reads as an int64
/// becomes that int, so `1.0` is `1` and `1e3` is `1000`, while `1.5`, `1e21` and
/// `-9223372036854775808.0` (written `-9223372036854776000`) stay floats.
///
/// ```
/// use smd::fieldpath::{yaml, Value};
/// let mut v = yaml::from_str("{a: 1.0, b: [1e3, 1.5, -0.0], c: 1e21, d: -9223372036854775808.0}").unwrap();
/// smd::managedfields::normalize_numbers(&mut v);
/// let m = v.as_map().unwrap();
/// assert!(matches!(m.get("a"), Some(Value::Int(1))));
/// assert!(matches!(m.get("c"), Some(Value::Float(_))));
/// assert!(matches!(m.get("d"), Some(Value::Float(_))));
/// let b = m.get("b").unwrap().as_list().unwrap();
/// assert!(matches!(b, [Value::Int(1000), Value::Float(_), Value::Int(0)]));
/// ```
pub fn normalize_numbers(value: &mut Value) {
    match value {
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e21 => {
            // Go's `strconv.FormatFloat(f, 'f', -1, 64)` is Rust's shortest display.
            if let Ok(i) = f.to_string().parse::<i64>() {
                *value = Value::Int(i);
            }
        }
        Value::List(items) => items.iter_mut().for_each(normalize_numbers),
        Value::Map(map) => map.iter_mut().for_each(|(_, v)| normalize_numbers(v)),
        _ => {}
    }
}
