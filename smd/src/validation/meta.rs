//! `ObjectMeta` validation (apimachinery v0.37.2 `pkg/api/validation/objectmeta.go`) and the
//! generic checks `rest.BeforeCreate`/`rest.BeforeUpdate` add (`ValidateObjectMetaAccessor`
//! with path-segment names, `validateCommonFields`).
//!
//! Go walks labels and annotations as maps, in an order that changes between requests; with
//! several bad keys the server's order is not reproducible, so these checks keep the object's.

use smd_fieldpath::Value;

use super::names::{self, is_label_value, is_qualified_name};
use super::{BadValue, FieldError, FieldPath, json, member, str_at};

/// A kind's name check (`ValidateNameFunc`): the name (or a `generateName` prefix, `true`)
/// to Go's problems.
pub(crate) type NameFn = fn(&str, bool) -> Vec<String>;

/// `TotalAnnotationSizeLimitB`: the keys and values of all annotations together.
const ANNOTATIONS_MAX_BYTES: usize = 256 * 1024;

/// `FieldImmutableErrorMsg`.
pub(crate) const IMMUTABLE: &str = "field is immutable";

/// `IsNegativeErrorMsg`.
pub(crate) const IS_NEGATIVE: &str = "must be greater than or equal to 0";

/// `ValidateObjectMeta(meta, namespaced, nameFn, path)` as the kinds of k8s.io/kubernetes
/// call it (`pkg/apis/core/validation`: apimachinery's checks, then a finalizer without a
/// `/` must be one of Kubernetes' own): `object` is the whole object, whose `metadata` is
/// checked; `path` is where that metadata sits (`metadata`).
pub(crate) fn validate_object_meta(
    object: &Value,
    namespaced: bool,
    name_fn: NameFn,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = apimachinery_object_meta(object, namespaced, name_fn, path);
    errs.extend(kube_finalizer_names(object, path));
    errs
}

/// `validateKubeFinalizerName` of each finalizer: one without a domain must be standard.
fn kube_finalizer_names(object: &Value, path: &FieldPath) -> Vec<FieldError> {
    let finalizers = string_list(super::at(object, &["metadata", "finalizers"]));
    finalizers
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            !f.contains('/') && !["kubernetes", "orphan", "foregroundDeletion"].contains(f)
        })
        .map(|(i, f)| {
            FieldError::invalid(
                &path.child("finalizers").index(i),
                BadValue::str(*f),
                "name is neither a standard finalizer name nor is it fully qualified",
            )
        })
        .collect()
}

/// apimachinery's `ValidateObjectMeta` (`ValidateObjectMetaAccessor`).
pub(crate) fn apimachinery_object_meta(
    object: &Value,
    namespaced: bool,
    name_fn: NameFn,
    path: &FieldPath,
) -> Vec<FieldError> {
    let meta = member(object, "metadata").unwrap_or(&Value::Null);
    let mut errs = Vec::new();
    let generate_name = str_at(meta, &["generateName"]);
    if !generate_name.is_empty() {
        for msg in name_fn(generate_name, true) {
            errs.push(FieldError::invalid(
                &path.child("generateName"),
                BadValue::str(generate_name),
                msg,
            ));
        }
    }
    let name = str_at(meta, &["name"]);
    if name.is_empty() {
        errs.push(FieldError::required(
            &path.child("name"),
            "name or generateName is required",
        ));
    } else {
        for msg in name_fn(name, false) {
            errs.push(FieldError::invalid(
                &path.child("name"),
                BadValue::str(name),
                msg,
            ));
        }
    }
    errs.extend(common(meta, namespaced, path));
    errs
}

/// `validateObjectMetaAccessorWithOptsCommon`: scope, generation, labels, annotations,
/// owner references, finalizers.
fn common(meta: &Value, namespaced: bool, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let namespace = str_at(meta, &["namespace"]);
    if namespaced {
        if namespace.is_empty() {
            errs.push(FieldError::required(&path.child("namespace"), ""));
        } else {
            for msg in names::name_is_dns_label(namespace, false) {
                errs.push(FieldError::invalid(
                    &path.child("namespace"),
                    BadValue::str(namespace),
                    msg,
                ));
            }
        }
    } else if !namespace.is_empty() {
        errs.push(FieldError::forbidden(
            &path.child("namespace"),
            "not allowed on this type",
        ));
    }
    errs.extend(nonnegative(meta, "generation", path));
    errs.extend(validate_labels(
        member(meta, "labels"),
        &path.child("labels"),
    ));
    errs.extend(validate_annotations(
        member(meta, "annotations"),
        &path.child("annotations"),
    ));
    errs.extend(owner_references(meta, &path.child("ownerReferences")));
    errs.extend(finalizers(meta, &path.child("finalizers")));
    errs
}

/// `ValidateNonnegativeField` of an integer member of `meta`.
fn nonnegative(meta: &Value, key: &str, path: &FieldPath) -> Vec<FieldError> {
    match member(meta, key).and_then(Value::as_int) {
        Some(n) if n < 0 => vec![FieldError::invalid(
            &path.child(key),
            BadValue::Int(n),
            IS_NEGATIVE,
        )],
        _ => Vec::new(),
    }
}

/// The entries of a string map (labels, annotations, a selector), values as strings.
pub(crate) fn string_entries(map: Option<&Value>) -> Vec<(&str, &str)> {
    map.and_then(Value::as_map)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k, v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default()
}

/// `v1validation.ValidateLabels`: each key a qualified name, each value a label value; the
/// errors name the map, not the entry.
pub(crate) fn validate_labels(labels: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in string_entries(labels) {
        errs.extend(validate_label_name(k, path));
        for msg in is_label_value(v) {
            errs.push(FieldError::invalid(path, BadValue::str(v), msg));
        }
    }
    errs
}

/// `v1validation.ValidateLabelName`.
pub(crate) fn validate_label_name(key: &str, path: &FieldPath) -> Vec<FieldError> {
    is_qualified_name(key)
        .into_iter()
        .map(|msg| FieldError::invalid(path, BadValue::str(key), msg))
        .collect()
}

/// `v1validation.ValidateLabelSelector` (no unknown operators, label values checked):
/// `matchLabels` as labels, each expression's operator, values, key.
pub(crate) fn validate_label_selector(
    selector: Option<&Value>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let Some(selector) = selector.filter(|v| !v.is_null()) else {
        return Vec::new();
    };
    let mut errs = validate_labels(member(selector, "matchLabels"), &path.child("matchLabels"));
    let expressions = member(selector, "matchExpressions")
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    for (i, expression) in expressions.iter().enumerate() {
        let p = path.child("matchExpressions").index(i);
        let values = string_list(member(expression, "values"));
        let operator = str_at(expression, &["operator"]);
        errs.extend(selector_operator(operator, values.len(), false, &p));
        errs.extend(validate_label_name(
            str_at(expression, &["key"]),
            &p.child("key"),
        ));
        for (j, value) in values.iter().enumerate() {
            for msg in is_label_value(value) {
                errs.push(FieldError::invalid(
                    &p.child("values").index(j),
                    BadValue::str(*value),
                    msg,
                ));
            }
        }
    }
    errs
}

/// The operator rules of a selector requirement: `In`/`NotIn` need values,
/// `Exists`/`DoesNotExist` take none, node selectors' `Gt`/`Lt` take one.
pub(crate) fn selector_operator(
    operator: &str,
    values: usize,
    numeric: bool,
    path: &FieldPath,
) -> Vec<FieldError> {
    match operator {
        "In" | "NotIn" if values == 0 => vec![FieldError::required(
            &path.child("values"),
            "must be specified when `operator` is 'In' or 'NotIn'",
        )],
        "Exists" | "DoesNotExist" if values > 0 => vec![FieldError::forbidden(
            &path.child("values"),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        )],
        "Gt" | "Lt" if numeric && values != 1 => vec![FieldError::required(
            &path.child("values"),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
        )],
        "In" | "NotIn" | "Exists" | "DoesNotExist" => Vec::new(),
        "Gt" | "Lt" if numeric => Vec::new(),
        other => vec![FieldError::invalid(
            &path.child("operator"),
            BadValue::str(other),
            "not a valid selector operator",
        )],
    }
}

/// `ValidateAnnotations`: keys are qualified names in any case, and all entries together
/// stay within 256 KiB.
pub(crate) fn validate_annotations(
    annotations: Option<&Value>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let entries = string_entries(annotations);
    for (k, _) in &entries {
        for msg in is_qualified_name(&k.to_lowercase()) {
            errs.push(FieldError::invalid(path, BadValue::str(*k), msg));
        }
    }
    let total: usize = entries.iter().map(|(k, v)| k.len() + v.len()).sum();
    if total > ANNOTATIONS_MAX_BYTES {
        errs.push(FieldError::too_long(path, ANNOTATIONS_MAX_BYTES as i64));
    }
    errs
}

/// `ValidateOwnerReferences`: each reference complete, no banned owner, at most one
/// controller.
fn owner_references(meta: &Value, path: &FieldPath) -> Vec<FieldError> {
    let refs = member(meta, "ownerReferences")
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    let mut errs = Vec::new();
    let mut first_controller: Option<String> = None;
    for (i, r) in refs.iter().enumerate() {
        errs.extend(owner_reference(r, &path.index(i)));
        if member(r, "controller").and_then(Value::as_bool) == Some(true) {
            let this = format!("{}/{}", str_at(r, &["kind"]), str_at(r, &["name"]));
            match &first_controller {
                Some(first) => errs.push(FieldError::invalid(
                    path,
                    BadValue::Json(format!(
                        "[{}]",
                        refs.iter()
                            .map(owner_reference_json)
                            .collect::<Vec<_>>()
                            .join(",")
                    )),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"
                    ),
                )),
                None => first_controller = Some(this),
            }
        }
    }
    errs
}

/// `validateOwnerReference`.
fn owner_reference(r: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let api_version = str_at(r, &["apiVersion"]);
    let group_version = parse_group_version(api_version);
    if api_version.is_empty() {
        errs.push(FieldError::required(
            &path.child("apiVersion"),
            "must not be empty",
        ));
    } else if group_version.is_none_or(|(_, v)| v.is_empty()) {
        errs.push(FieldError::invalid(
            &path.child("apiVersion"),
            BadValue::str(api_version),
            "must be <group>/<version> or <version>",
        ));
    }
    for key in ["kind", "name", "uid"] {
        if str_at(r, &[key]).is_empty() {
            errs.push(FieldError::required(&path.child(key), "must not be empty"));
        }
    }
    // A version Go cannot parse leaves the zero group and version.
    let (group, version) = group_version.unwrap_or(("", ""));
    let kind = str_at(r, &["kind"]);
    if group.is_empty() && version == "v1" && kind == "Event" {
        errs.push(FieldError::invalid(
            path,
            BadValue::Json(owner_reference_json(r)),
            format!("{group}/{version}, Kind={kind} is disallowed from being an owner"),
        ));
    }
    errs
}

/// `schema.ParseGroupVersion`: `""`, `version` or `group/version`; more slashes are an error.
fn parse_group_version(s: &str) -> Option<(&str, &str)> {
    if s.is_empty() || s == "/" {
        return Some(("", ""));
    }
    match s.split('/').collect::<Vec<_>>().as_slice() {
        [version] => Some(("", version)),
        [group, version] => Some((group, version)),
        _ => None,
    }
}

/// An owner reference as `json.Marshal` writes `metav1.OwnerReference` (its fields in Go's
/// order, the optional pointers omitted when absent).
fn owner_reference_json(r: &Value) -> String {
    let mut out = String::from("{");
    for (i, key) in ["apiVersion", "kind", "name", "uid"].iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "\"{key}\":{}",
            json(&Value::from(str_at(r, &[key])))
        ));
    }
    for key in ["controller", "blockOwnerDeletion"] {
        if let Some(b) = member(r, key).and_then(Value::as_bool) {
            out.push_str(&format!(",\"{key}\":{b}"));
        }
    }
    out.push('}');
    out
}

/// `ValidateFinalizers`: each a qualified name; not both orphaning and foreground deletion.
fn finalizers(meta: &Value, path: &FieldPath) -> Vec<FieldError> {
    let list = string_list(member(meta, "finalizers"));
    let mut errs = Vec::new();
    for f in &list {
        for msg in is_qualified_name(f) {
            errs.push(FieldError::invalid(path, BadValue::str(*f), msg));
        }
    }
    if list.contains(&"orphan") && list.contains(&"foregroundDeletion") {
        errs.push(FieldError::invalid(
            path,
            BadValue::Json(json(member(meta, "finalizers").unwrap_or(&Value::Null))),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// The strings of a list value.
pub(crate) fn string_list(list: Option<&Value>) -> Vec<&str> {
    list.and_then(Value::as_list)
        .map(|l| l.iter().map(|v| v.as_str().unwrap_or("")).collect())
        .unwrap_or_default()
}

/// `ValidateObjectMetaUpdate(new, old, path)` as the kinds of k8s.io/kubernetes call it
/// (apimachinery's checks, then the new finalizers' names): `new` and `old` are whole objects.
pub(crate) fn validate_object_meta_update(
    new: &Value,
    old: &Value,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = apimachinery_object_meta_update(new, old, path);
    errs.extend(kube_finalizer_names(new, path));
    errs
}

/// apimachinery's `ValidateObjectMetaAccessorUpdate`.
pub(crate) fn apimachinery_object_meta_update(
    new: &Value,
    old: &Value,
    path: &FieldPath,
) -> Vec<FieldError> {
    let null = Value::Null;
    let new_meta = member(new, "metadata").unwrap_or(&null);
    let old_meta = member(old, "metadata").unwrap_or(&null);
    let mut errs = Vec::new();
    if member(old_meta, "deletionTimestamp").is_some_and(|v| !v.is_null()) {
        let old_finalizers = string_list(member(old_meta, "finalizers"));
        let mut extra: Vec<&str> = string_list(member(new_meta, "finalizers"))
            .into_iter()
            .filter(|f| !old_finalizers.contains(f))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        if !extra.is_empty() {
            let shown: Vec<String> = extra
                .iter()
                .map(|f| smd_fieldpath::value::go_quote(f))
                .collect();
            errs.push(FieldError::forbidden(
                &path.child("finalizers"),
                format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                    shown.join(", ")
                ),
            ));
        }
    }
    let version = str_at(new_meta, &["resourceVersion"]);
    // An object a server holds always has a version; one without (a live object smd was
    // handed offline) cannot tell a server's update from a versionless one, so no refusal.
    if version.is_empty() && !str_at(old_meta, &["resourceVersion"]).is_empty() {
        errs.push(FieldError::invalid(
            &path.child("resourceVersion"),
            BadValue::str(version),
            "must be specified for an update",
        ));
    }
    errs.extend(nonnegative(new_meta, "generation", path));
    let generation = |m: &Value| member(m, "generation").and_then(Value::as_int).unwrap_or(0);
    if generation(new_meta) < generation(old_meta) {
        errs.push(FieldError::invalid(
            &path.child("generation"),
            BadValue::Int(generation(new_meta)),
            "must not be decremented",
        ));
    }
    // name and namespace are Go strings (`%q`); the rest are named or pointer types, shown as
    // their JSON.
    for (key, plain) in [
        ("name", true),
        ("namespace", true),
        ("uid", false),
        ("creationTimestamp", false),
        ("deletionTimestamp", false),
        ("deletionGracePeriodSeconds", false),
    ] {
        let n = member(new_meta, key).unwrap_or(&null);
        let o = member(old_meta, key).unwrap_or(&null);
        if !same_scalar(n, o) {
            let value = match n {
                Value::Null if plain => BadValue::str(""),
                Value::String(s) if plain => BadValue::str(s),
                Value::Null if key == "uid" => BadValue::Json("\"\"".to_owned()),
                other => BadValue::Json(json(other)),
            };
            errs.push(FieldError::invalid(&path.child(key), value, IMMUTABLE));
        }
    }
    errs.extend(validate_labels(
        member(new_meta, "labels"),
        &path.child("labels"),
    ));
    errs.extend(validate_annotations(
        member(new_meta, "annotations"),
        &path.child("annotations"),
    ));
    errs.extend(owner_references(new_meta, &path.child("ownerReferences")));
    errs
}

/// Whether two metadata scalars are equal as Go's zero values see them (absent = `""` for a
/// string, nil for a pointer).
fn same_scalar(a: &Value, b: &Value) -> bool {
    let zero = |v: &Value| matches!(v, Value::String(s) if s.is_empty());
    match (a, b) {
        (Value::Null, other) | (other, Value::Null) => other.is_null() || zero(other),
        _ => a == b,
    }
}

/// What `rest.ValidateCreate` checks of every object once its strategy found nothing:
/// `ValidateObjectMetaAccessor` with path-segment names.
pub(super) fn validate_object_meta_accessor(object: &Value, namespaced: bool) -> Vec<FieldError> {
    apimachinery_object_meta(
        object,
        namespaced,
        path_segment,
        &FieldPath::new("metadata"),
    )
}

/// `validatePathSegment` of `rest`: a name usable as one segment of a URL path.
fn path_segment(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return names::is_path_segment_prefix(name);
    }
    names::is_path_segment_name(name)
}

/// `validateCommonFields` of `rest.ValidateUpdate`.
pub(super) fn validate_common_fields(new: &Value, old: &Value) -> Vec<FieldError> {
    let path = FieldPath::new("metadata");
    // Go validates the object's current name and scope with the create rules first. By now
    // the request layer has put a namespaced object's namespace in and refused one on a
    // cluster-scoped object, so the namespace tells the scope.
    let namespaced = !str_at(new, &["metadata", "namespace"]).is_empty()
        || !str_at(old, &["metadata", "namespace"]).is_empty();
    let mut errs = apimachinery_object_meta(new, namespaced, path_segment, &path);
    errs.extend(apimachinery_object_meta_update(new, old, &path));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(json_text: &str) -> Value {
        Value::from_json(json_text).unwrap_or_default()
    }

    #[test]
    fn names_labels_and_owners() {
        let o = object(
            r#"{"metadata":{"name":"a","namespace":"ns","labels":{"-x":"ok"},
            "ownerReferences":[{"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}]}}"#,
        );
        let errs = validate_object_meta(
            &o,
            true,
            names::name_is_dns_subdomain,
            &FieldPath::new("metadata"),
        );
        let texts: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts[0].starts_with("metadata.labels: Invalid value: \"-x\": name part"));
        assert_eq!(
            texts[1],
            "metadata.ownerReferences[0]: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u\"}: /v1, Kind=Event is disallowed from being an owner"
        );
    }

    #[test]
    fn updates_keep_identity() {
        let old = object(r#"{"metadata":{"name":"a","uid":"1","resourceVersion":"5"}}"#);
        let new = object(r#"{"metadata":{"name":"a","uid":"2","resourceVersion":"5"}}"#);
        let errs = validate_object_meta_update(&new, &old, &FieldPath::new("metadata"));
        assert_eq!(
            errs.iter().map(ToString::to_string).collect::<Vec<_>>(),
            vec!["metadata.uid: Invalid value: \"2\": field is immutable"]
        );
        assert_eq!(parse_group_version("a/b/c"), None);
        assert_eq!(parse_group_version("apps/"), Some(("apps", "")));
    }
}
