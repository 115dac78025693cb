//! How large the values of a schema node can be, as apiserver's `SchemaDeclType` records it
//! for the cost estimator (`MaxElements`, `MinSerializedSize`), and how many times a node's
//! children can occur.

use smd_cel::check::escape_property;
use smd_value::{MAX_DEPTH, Map, Value};

use smd_cel::{SizeEstimate, SizeEstimator};

/// The largest request the API server reads (3 MiB): what bounds a value the schema does not.
const MAX_REQUEST: i64 = 3 * 1024 * 1024;
/// A string without `maxLength`: the request less its two quotes.
const UNBOUNDED_STRING: i64 = MAX_REQUEST - 2;

/// How large values of one schema node can be, as the server's `DeclType` records it:
/// `max_elements` (a list's items, a map's entries, a string's bytes) and the size of its
/// smallest JSON form, which bounds how many can fit in a request.
#[derive(Debug, Clone)]
pub(crate) struct Sizes {
    max_elements: i64,
    pub(super) min_size: i64,
    shape: Shape,
}

#[derive(Debug, Clone)]
enum Shape {
    Scalar,
    List(Box<Sizes>),
    Map(Box<Sizes>),
    /// Fields by the names rules write (escaped).
    Object(Vec<(String, Sizes)>),
}

/// A map's keys: strings the server gives no bound (its shared string type has 0).
const MAP_KEY: Sizes = Sizes {
    max_elements: 0,
    min_size: 2,
    shape: Shape::Scalar,
};

impl Sizes {
    fn scalar(max_elements: i64, min_size: i64) -> Sizes {
        Sizes {
            max_elements,
            min_size,
            shape: Shape::Scalar,
        }
    }

    /// The sizes of a node whose rules see it as a resource (the root, embedded resources)
    /// when `resource`; `None` where the server gives the node no type.
    pub(crate) fn of(m: &Map, resource: bool) -> Option<Sizes> {
        sizes(m, resource, 0)
    }

    /// How many times a node of this type could occur in one request: the bound the server
    /// uses for a rule whose ancestors set no `maxItems` or `maxProperties`.
    pub(super) fn fitting_in_request(&self) -> u64 {
        // Go converts the signed quotient as is.
        per_request(MAX_REQUEST, self.min_size, 1) as u64
    }

    /// The size of what `path` reaches (cel-go's node path: a variable, then field names,
    /// `@items`, `@values`, `@keys`); both `self` and `oldSelf` start from this node.
    pub(super) fn at(&self, path: &[String]) -> Option<SizeEstimate> {
        let mut node = self;
        for step in path.iter().skip(1) {
            node = match (step.as_str(), &node.shape) {
                ("@items" | "@values", Shape::List(elem) | Shape::Map(elem)) => elem,
                ("@keys", Shape::Map(_)) => &MAP_KEY,
                (name, Shape::Object(fields)) => &fields.iter().find(|(f, _)| f == name)?.1,
                _ => return None,
            };
        }
        // Go converts the signed count as is; every count here is at least 0 but a
        // `maxLength` times 4 that wrapped.
        Some(SizeEstimate {
            min: 0,
            max: node.max_elements as u64,
        })
    }
}

impl SizeEstimator for Sizes {
    fn estimate_size(&self, path: &[String]) -> Option<SizeEstimate> {
        self.at(path)
    }
}

fn int(m: &Map, key: &str) -> Option<i64> {
    m.get(key).and_then(Value::as_int).map(|n| n.max(0))
}

fn sizes(m: &Map, resource: bool, depth: usize) -> Option<Sizes> {
    if depth >= MAX_DEPTH {
        return None;
    }
    if matches!(m.get("x-kubernetes-int-or-string"), Some(Value::Bool(true))) {
        let max = int(m, "maxLength").map_or(UNBOUNDED_STRING, |n| n.wrapping_mul(4));
        return Some(Sizes::scalar(max, 1));
    }
    let child = |v: &Value| {
        let s = v.as_map()?;
        let embedded = matches!(
            s.get("x-kubernetes-embedded-resource"),
            Some(Value::Bool(true))
        );
        sizes(s, embedded, depth + 1)
    };
    let node = match m.get("type").and_then(Value::as_str)? {
        "array" => {
            let items = child(m.get("items")?)?;
            let max = int(m, "maxItems").unwrap_or(per_request(MAX_REQUEST - 2, items.min_size, 1));
            Sizes {
                max_elements: max,
                min_size: 2,
                shape: Shape::List(Box::new(items)),
            }
        }
        "object"
            if m.get("additionalProperties")
                .is_some_and(|a| a.as_map().is_some()) =>
        {
            let values = child(m.get("additionalProperties")?)?;
            let max =
                int(m, "maxProperties").unwrap_or(per_request(MAX_REQUEST - 2, values.min_size, 6));
            Sizes {
                max_elements: max,
                min_size: 2,
                shape: Shape::Map(Box::new(values)),
            }
        }
        "object" => object(m, resource, child),
        "string" => {
            let format = m.get("format").and_then(Value::as_str);
            let max_length = int(m, "maxLength");
            match format {
                Some("byte") => Sizes::scalar(max_length.unwrap_or(UNBOUNDED_STRING), 2),
                Some("duration") => Sizes::scalar(32, 3),
                Some("date") => Sizes::scalar(12, 12),
                Some("date-time") => Sizes::scalar(32, 21),
                _ => {
                    let max = match (max_length, m.get("enum").and_then(Value::as_list)) {
                        (Some(n), _) => n.wrapping_mul(4),
                        (None, Some(values)) if !values.is_empty() => enum_length(values),
                        _ => UNBOUNDED_STRING,
                    };
                    Sizes::scalar(max, 2)
                }
            }
        }
        "boolean" => Sizes::scalar(0, 4),
        "number" | "integer" => Sizes::scalar(0, 1),
        _ => return None,
    };
    Some(node)
}

/// How many values of `min_size` bytes and `separator` more fit in `bytes` (sizes only
/// overflow on schemas far larger than any request; Go divides by zero there, smd says 0).
fn per_request(bytes: i64, min_size: i64, separator: i64) -> i64 {
    bytes
        .checked_div(min_size.wrapping_add(separator))
        .unwrap_or(0)
}

/// The longest string of an enum, in bytes (other values count as 0).
fn enum_length(values: &[Value]) -> i64 {
    let longest = values.iter().filter_map(Value::as_str).map(str::len).max();
    i64::try_from(longest.unwrap_or(0)).unwrap_or(i64::MAX)
}

/// An object's fields; its smallest form holds each required field without a default.
fn object(m: &Map, resource: bool, child: impl Fn(&Value) -> Option<Sizes>) -> Sizes {
    let empty = Map::new();
    let props = m
        .get("properties")
        .and_then(Value::as_map)
        .unwrap_or(&empty);
    let required: Vec<&str> = m
        .get("required")
        .and_then(Value::as_list)
        .unwrap_or(&[])
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut fields: Vec<(&str, Sizes, bool)> = props
        .iter()
        .filter_map(|(k, p)| {
            let defaulted = p
                .as_map()
                .is_some_and(|p| p.get("default").is_some_and(|d| !matches!(d, Value::Null)));
            Some((k, child(p)?, defaulted))
        })
        .collect();
    if resource && !has_type_and_object_meta(props) {
        with_type_and_object_meta(props, &mut fields);
    }
    let mut min_size: i64 = 2;
    let mut named = Vec::with_capacity(fields.len());
    for (name, sizes, defaulted) in fields {
        if required.contains(&name) && !defaulted {
            let len = i64::try_from(name.len()).unwrap_or(i64::MAX);
            min_size = min_size.wrapping_add(len.wrapping_add(sizes.min_size).wrapping_add(4));
        }
        if let Some(escaped) = escape_property(name) {
            named.push((escaped, sizes));
        }
    }
    Sizes {
        max_elements: 0,
        min_size,
        shape: Shape::Object(named),
    }
}

/// Whether a resource's schema already declares `kind`, `apiVersion` and `metadata` with
/// `name` and `generateName` as strings (then the server keeps it as it is).
fn has_type_and_object_meta(props: &Map) -> bool {
    let typed = |m: Option<&Value>, t: &str| {
        m.and_then(Value::as_map)
            .and_then(|m| m.get("type"))
            .and_then(Value::as_str)
            == Some(t)
    };
    let meta = props.get("metadata").and_then(Value::as_map);
    let meta_props = meta
        .and_then(|m| m.get("properties"))
        .and_then(Value::as_map);
    typed(props.get("kind"), "string")
        && typed(props.get("apiVersion"), "string")
        && typed(props.get("metadata"), "object")
        && meta_props.is_some_and(|p| {
            typed(p.get("name"), "string") && typed(p.get("generateName"), "string")
        })
}

/// What the server gives a resource: `kind` and `apiVersion` as strings, and `metadata`
/// with only `name` and `generateName`, as long as a name can be (their own `maxLength`
/// where shorter).
fn with_type_and_object_meta(props: &Map, fields: &mut Vec<(&str, Sizes, bool)>) {
    fields.retain(|(f, _, _)| !matches!(*f, "kind" | "apiVersion" | "metadata"));
    let declared = |name: &str| {
        props
            .get("metadata")
            .and_then(Value::as_map)
            .and_then(|m| m.get("properties"))
            .and_then(Value::as_map)
            .and_then(|p| p.get(name))
            .and_then(Value::as_map)
            .and_then(|m| m.get("maxLength"))
            .and_then(Value::as_int)
    };
    let capped = |name: &str, cap: i64| {
        let max = declared(name).map_or(cap, |n| n.min(cap)).max(0);
        Sizes::scalar(max.wrapping_mul(4), 2)
    };
    let meta = Sizes {
        max_elements: 0,
        min_size: 2,
        shape: Shape::Object(vec![
            ("name".to_owned(), capped("name", 253)),
            ("generateName".to_owned(), capped("generateName", 252)),
        ]),
    };
    fields.push(("kind", Sizes::scalar(UNBOUNDED_STRING, 2), false));
    fields.push(("apiVersion", Sizes::scalar(UNBOUNDED_STRING, 2), false));
    fields.push(("metadata", meta, false));
}

/// How many values of a node's children one value of the node holds, for the cardinality
/// of the children (`None`: no bound).
pub(crate) fn children_per_value(m: &Map) -> Option<u64> {
    let count = |key| int(m, key).and_then(|n| u64::try_from(n).ok());
    match m.get("type").and_then(Value::as_str) {
        Some("object") if m.get("additionalProperties").is_some_and(|a| !a.is_null()) => {
            count("maxProperties")
        }
        Some("array") => count("maxItems"),
        _ => Some(1),
    }
}
