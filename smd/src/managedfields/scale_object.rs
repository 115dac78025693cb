//! The Scale object the API server shows for a built-in parent (`scaleFromDeployment` and its
//! siblings, e.g. `K/apps/deployment/storage/storage.go:371-394`), as the scale endpoint's
//! field manager sees it (`autoscaling/v1`, typed fields converted to an unstructured object).

use smd_fieldpath::{Map, Value};

use super::error::Error;
use super::object::nested_str;
use super::scale::SCALE_API_VERSION;
use super::time::Timestamp;

/// The Scale object of `parent` (a Deployment, ReplicaSet, StatefulSet or
/// ReplicationController): `metadata` with the parent's name, namespace, uid,
/// resourceVersion and creationTimestamp; `spec.replicas` (left out when 0);
/// `status.replicas` (0 when unset); `status.selector`, the parent's selector as text (left
/// out when empty). The selector of a ReplicationController is a map; the others' is a
/// label selector, printed as Go's `labels.Selector.String()` does (requirements sorted by
/// key, `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`). Label keys and values are not
/// checked; an unknown operator is refused, as the API server refuses it.
///
/// ```
/// use smd::fieldpath::yaml;
/// let deployment = yaml::from_str("{kind: Deployment, metadata: {name: web, uid: u1}, spec: {replicas: 3, \
///     selector: {matchLabels: {tier: web, app: x}, matchExpressions: [{key: env, operator: In, values: [prod, dev]}]}}}").unwrap();
/// let scale = smd::managedfields::scale_object(&deployment).unwrap();
/// assert_eq!(scale, yaml::from_str("{apiVersion: autoscaling/v1, kind: Scale, \
///     metadata: {name: web, uid: u1, creationTimestamp: null}, spec: {replicas: 3}, \
///     status: {replicas: 0, selector: 'app=x,env in (dev,prod),tier=web'}}").unwrap());
/// ```
pub fn scale_object(parent: &Value) -> Result<Value, Error> {
    let meta = scale_metadata(parent);
    let mut spec = Map::new();
    if let Some(replicas) = get(parent, &["spec", "replicas"]).filter(|r| r.as_int() != Some(0)) {
        spec.insert("replicas", replicas.clone());
    }
    let mut status = Map::new();
    let replicas = get(parent, &["status", "replicas"])
        .cloned()
        .unwrap_or(Value::Int(0));
    status.insert("replicas", replicas);
    let selector = match get(parent, &["spec", "selector"]) {
        None | Some(Value::Null) => String::new(),
        Some(Value::Map(selector)) if nested_str(parent, &["kind"]) == "ReplicationController" => {
            let mut pairs: Vec<String> = selector
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect();
            pairs.sort();
            pairs.join(",")
        }
        Some(Value::Map(selector)) => label_selector(selector)?,
        Some(_) => String::new(),
    };
    if !selector.is_empty() {
        status.insert("selector", Value::from(selector));
    }
    let mut scale = Map::new();
    scale.insert("apiVersion", Value::from(SCALE_API_VERSION));
    scale.insert("kind", Value::from("Scale"));
    scale.insert("metadata", Value::Map(meta));
    scale.insert("spec", Value::Map(spec));
    scale.insert("status", Value::Map(status));
    Ok(Value::Map(scale))
}

/// The Scale's metadata: the parent's name, namespace, uid and resourceVersion, and its
/// creationTimestamp as `metav1.Time` reads and writes it (RFC 3339 in UTC, `null` when it
/// is missing or does not parse).
pub(crate) fn scale_metadata(parent: &Value) -> Map {
    let mut meta = Map::new();
    for key in ["name", "namespace", "uid", "resourceVersion"] {
        let value = nested_str(parent, &["metadata", key]);
        if !value.is_empty() {
            meta.insert(key, Value::from(value));
        }
    }
    let created = Timestamp::parse(nested_str(parent, &["metadata", "creationTimestamp"]))
        .ok()
        .filter(|t| !t.is_go_zero())
        .map_or(Value::Null, |t| Value::from(t.to_string()));
    meta.insert("creationTimestamp", created);
    meta
}

/// `metav1.LabelSelectorAsSelector(s).String()`.
fn label_selector(selector: &Map) -> Result<String, Error> {
    let mut requirements: Vec<(String, String)> = Vec::new();
    if let Some(Value::Map(labels)) = selector.get("matchLabels") {
        for (k, v) in labels.iter() {
            requirements.push((
                k.to_owned(),
                format!("{k}={}", v.as_str().unwrap_or_default()),
            ));
        }
    }
    if let Some(Value::List(expressions)) = selector.get("matchExpressions") {
        for e in expressions {
            let key = nested_str(e, &["key"]);
            let operator = nested_str(e, &["operator"]);
            let mut values: Vec<&str> = get(e, &["values"])
                .and_then(Value::as_list)
                .unwrap_or_default()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            values.sort_unstable();
            let text = match operator {
                "In" => format!("{key} in ({})", values.join(",")),
                "NotIn" => format!("{key} notin ({})", values.join(",")),
                "Exists" => key.to_owned(),
                "DoesNotExist" => format!("!{key}"),
                other => {
                    return Err(Error::internal(format!(
                        "{} is not a valid label selector operator",
                        super::identity::quote(other)
                    )));
                }
            };
            requirements.push((key.to_owned(), text));
        }
    }
    requirements.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(requirements
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join(","))
}

fn get<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut at = value;
    for key in path {
        at = at.as_map()?.get(key)?;
    }
    Some(at)
}
