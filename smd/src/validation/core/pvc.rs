//! PersistentVolumeClaims (`ValidatePersistentVolumeClaim`, `...Spec`, `...Update`,
//! `...StatusUpdate`) with the options the strategy derives from the old claim
//! (`ValidationOptionsForPersistentVolumeClaim`) at 1.37's feature gates (volume attributes
//! classes and recovery from expansion failure on, cross-namespace data sources off).

use std::cmp::Ordering;

use smd_fieldpath::Value;

use super::{
    invalid_each, label_selector, object_meta, object_meta_update, pointer, present, strings, typed,
};
use crate::builtin::quantity;
use crate::validation::{BadValue, FieldError, FieldPath, Rules, at, member, names, str_at};

/// The PersistentVolumeClaim strategies' rules (main resource and `status`).
pub(super) const RULES: Rules = Rules { create, update };

const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
const STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// What the old claim lets the new one keep (`PersistentVolumeClaimSpecValidationOptions`).
#[derive(Default)]
struct Options {
    allow_invalid_api_group: bool,
    allow_invalid_selector_values: bool,
}

impl Options {
    fn from_old(old: &Value) -> Options {
        let spec = member(old, "spec");
        let has_group = |name: &str| {
            present(
                spec.and_then(|s| member(s, name))
                    .and_then(|d| member(d, "apiGroup")),
            )
            .is_some()
        };
        let selector = spec.and_then(|s| present(member(s, "selector")));
        Options {
            allow_invalid_api_group: has_group("dataSource") || has_group("dataSourceRef"),
            allow_invalid_selector_values: selector
                .is_some_and(|s| !label_selector(s, false, &FieldPath::default()).is_empty()),
        }
    }
}

fn create(object: &Value) -> Vec<FieldError> {
    claim(object, &Options::default())
}

fn claim(object: &Value, opts: &Options) -> Vec<FieldError> {
    let mut errs = object_meta(object, true, names::name_is_dns_subdomain);
    let empty = Value::Map(Default::default());
    let spec = member(object, "spec").unwrap_or(&empty);
    errs.extend(spec_errors(spec, &FieldPath::new("spec"), opts));
    errs
}

/// `ValidatePersistentVolumeClaimSpec`.
fn spec_errors(spec: &Value, path: &FieldPath, opts: &Options) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let modes = strings(member(spec, "accessModes"));
    if modes.is_empty() {
        errs.push(FieldError::required(
            &path.child("accessModes"),
            "at least 1 access mode is required",
        ));
    }
    if let Some(selector) = present(member(spec, "selector")) {
        errs.extend(label_selector(
            selector,
            opts.allow_invalid_selector_values,
            &path.child("selector"),
        ));
    }
    let (mut once_pod, mut other) = (false, false);
    for mode in &modes {
        if !ACCESS_MODES.contains(mode) {
            errs.push(FieldError::not_supported(
                &path.child("accessModes"),
                typed(mode),
                &ACCESS_MODES,
            ));
        } else if *mode == "ReadWriteOncePod" {
            once_pod = true;
        } else {
            other = true;
        }
    }
    if once_pod && other {
        errs.push(FieldError::forbidden(
            &path.child("accessModes"),
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    // Go's path for the request: a key of `resources`, not of `resources.requests`.
    let storage_path = path.child("resources").key("storage");
    match at(spec, &["resources", "requests", "storage"]).and_then(Value::as_str) {
        None => errs.push(FieldError::required(&storage_path, "")),
        Some(q) => {
            if quantity::compare(q, "0") != Some(Ordering::Greater) {
                let shown = quantity::canonical(q).unwrap_or_else(|_| q.to_owned());
                errs.push(FieldError::invalid(
                    &storage_path,
                    BadValue::str(shown),
                    "must be greater than zero",
                ));
            }
        }
    }
    for (name, field) in [
        ("storageClassName", "storageClassName"),
        ("volumeAttributesClassName", "volumeAttributesClassName"),
    ] {
        let class = str_at(spec, &[name]);
        if !class.is_empty() {
            errs.extend(invalid_each(
                &path.child(field),
                class,
                names::name_is_dns_subdomain(class, false),
            ));
        }
        if name == "storageClassName" {
            if let Some(mode) = present(member(spec, "volumeMode")).and_then(Value::as_str) {
                if mode != "Block" && mode != "Filesystem" {
                    errs.push(FieldError::not_supported(
                        &path.child("volumeMode"),
                        typed(mode),
                        &["Block", "Filesystem"],
                    ));
                }
            }
            errs.extend(data_sources(spec, path, opts));
        }
    }
    errs
}

/// `validateDataSource`/`validateDataSourceRef` and how the two must agree.
fn data_sources(spec: &Value, path: &FieldPath, opts: &Options) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let source = present(member(spec, "dataSource"));
    let reference = present(member(spec, "dataSourceRef"));
    for (value, name) in [(source, "dataSource"), (reference, "dataSourceRef")] {
        let Some(value) = value else { continue };
        let p = path.child(name);
        if str_at(value, &["name"]).is_empty() {
            errs.push(FieldError::required(&p.child("name"), ""));
        }
        let kind = str_at(value, &["kind"]);
        if kind.is_empty() {
            errs.push(FieldError::required(&p.child("kind"), ""));
        }
        let group = str_at(value, &["apiGroup"]);
        if group.is_empty() && kind != "PersistentVolumeClaim" {
            errs.push(FieldError::invalid(
                &p,
                BadValue::str(kind),
                "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
            ));
        }
        if !group.is_empty() && !opts.allow_invalid_api_group {
            errs.extend(invalid_each(
                &p.child("apiGroup"),
                group,
                names::is_dns1123_subdomain(group),
            ));
        }
        let namespace = str_at(value, &["namespace"]);
        if name == "dataSourceRef" && !namespace.is_empty() {
            errs.extend(invalid_each(
                &p.child("namespace"),
                namespace,
                names::name_is_dns_label(namespace, false),
            ));
        }
    }
    // Go shows the path value itself, a struct of unexported fields: `{}`.
    let shown = || BadValue::Json("{}".to_owned());
    let ref_namespace = reference.map_or("", |r| str_at(r, &["namespace"]));
    if !ref_namespace.is_empty() {
        if source.is_some() {
            errs.push(FieldError::invalid(
                path,
                shown(),
                "may not be specified when dataSourceRef.namespace is specified",
            ));
        }
    } else if let (Some(s), Some(r)) = (source, reference) {
        let same = present(member(s, "apiGroup")) == present(member(r, "apiGroup"))
            && str_at(s, &["kind"]) == str_at(r, &["kind"])
            && str_at(s, &["name"]) == str_at(r, &["name"]);
        if !same {
            errs.push(FieldError::invalid(
                path,
                shown(),
                "must match dataSourceRef",
            ));
        }
    }
    errs
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    if subresource == "status" {
        return status_update(new, old);
    }
    // An old claim put in from outside may not have been through the strategy.
    let mut old = old.clone();
    if let Some(spec) = old
        .as_map_mut()
        .and_then(|m| m.get_mut("spec"))
        .and_then(Value::as_map_mut)
    {
        crate::builtin::normalize_data_sources(spec);
    }
    let old = &old;
    let opts = Options::from_old(old);
    let mut errs = object_meta_update(new, old);
    errs.extend(claim(new, &opts));
    errs.extend(immutable_spec(new, old));
    let storage =
        |o: &Value, p: &[&str]| at(o, p).and_then(Value::as_str).unwrap_or("0").to_owned();
    let new_size = storage(new, &["spec", "resources", "requests", "storage"]);
    let old_size = storage(old, &["spec", "resources", "requests", "storage"]);
    let status_size = storage(old, &["status", "capacity", "storage"]);
    if quantity::compare(&new_size, &old_size) == Some(Ordering::Less)
        && quantity::compare(&new_size, &status_size) != Some(Ordering::Greater)
    {
        errs.push(FieldError::forbidden(
            &FieldPath::new("spec")
                .child("resources")
                .child("requests")
                .child("storage"),
            "field can not be less than status.capacity",
        ));
    }
    let mode = |o: &Value| present(at(o, &["spec", "volumeMode"])).cloned();
    if mode(new) != mode(old) {
        // Go's path leaves out `spec`.
        errs.push(FieldError::invalid(
            &FieldPath::new("volumeMode"),
            pointer(at(new, &["spec", "volumeMode"])),
            "field is immutable",
        ));
    }
    let vac = |o: &Value| present(at(o, &["spec", "volumeAttributesClassName"])).cloned();
    if vac(new) != vac(old)
        && present(at(old, &["status", "currentVolumeAttributesClassName"])).is_some()
    {
        let path = FieldPath::new("spec").child("volumeAttributesClassName");
        match vac(new) {
            None => errs.push(FieldError::forbidden(
                &path,
                "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some(Value::String(s)) if s.is_empty() => errs.push(FieldError::forbidden(
                &path,
                "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil",
            )),
            Some(_) => {}
        }
    }
    errs
}

/// The spec may change only in what Go lets it: `volumeName` once, the storage class from
/// the beta annotation or from nil, and a bound claim's storage request and volume
/// attributes class.
fn immutable_spec(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let empty = Value::Map(Default::default());
    let mut old_spec = member(old, "spec").unwrap_or(&empty).clone();
    let mut new_spec = member(new, "spec").unwrap_or(&empty).clone();
    let (Some(o), Some(n)) = (old_spec.as_map_mut(), new_spec.as_map_mut()) else {
        return errs;
    };
    if str_at(old, &["spec", "volumeName"]).is_empty() {
        match n.get("volumeName").cloned() {
            Some(v) => o.insert("volumeName", v),
            None => o.remove("volumeName"),
        };
    }
    fn annotation(obj: &Value) -> Option<&str> {
        at(obj, &["metadata", "annotations", STORAGE_CLASS_ANNOTATION]).and_then(Value::as_str)
    }
    let old_class = present(o.get("storageClassName"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let new_class = present(n.get("storageClassName"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let from_annotation = annotation(old).is_some_and(|oa| {
        old_class.is_none()
            && new_class.as_deref() == Some(oa)
            && annotation(new).is_none_or(|na| na == oa)
    });
    if from_annotation {
        n.remove("storageClassName");
    } else {
        let (na, oa) = (annotation(new).unwrap_or(""), annotation(old).unwrap_or(""));
        if na != oa {
            // `Child("annotations", key)`: the key joined with dots, not in brackets.
            errs.push(FieldError::invalid(
                &FieldPath::new("metadata")
                    .child("annotations")
                    .child(STORAGE_CLASS_ANNOTATION),
                BadValue::str(na),
                "field is immutable",
            ));
        }
        let from_nil = new_class
            .as_deref()
            .is_some_and(|nc| old_class.is_none() && annotation(old).is_none_or(|oa| oa == nc));
        if from_nil {
            n.remove("storageClassName");
        }
    }
    if str_at(new, &["status", "phase"]) == "Bound" {
        let old_storage = at(old, &["spec", "resources", "requests", "storage"]).cloned();
        if let Some(requests) = n
            .get_mut("resources")
            .and_then(Value::as_map_mut)
            .and_then(|r| r.get_mut("requests"))
            .and_then(Value::as_map_mut)
        {
            requests.insert(
                "storage",
                old_storage.unwrap_or_else(|| Value::String("0".into())),
            );
        }
        match o.get("volumeAttributesClassName").cloned() {
            Some(v) => n.insert("volumeAttributesClassName", v),
            None => n.remove("volumeAttributesClassName"),
        };
    }
    if !semantic_eq(&old_spec, &new_spec) {
        let diff = crate::validation::render::internal_diff(
            "io.k8s.api.core.v1.PersistentVolumeClaimSpec",
            &old_spec,
            &new_spec,
        );
        errs.push(FieldError::forbidden(
            &FieldPath::new("spec"),
            format!(
                "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n{diff}"
            ),
        ));
    }
    errs
}

/// `equality.Semantic.DeepEqual`: nil and empty maps and lists alike, quantities by value.
fn semantic_eq(a: &Value, b: &Value) -> bool {
    let empty = |v: Option<&Value>| match v {
        None | Some(Value::Null) => true,
        Some(Value::Map(m)) => m.is_empty(),
        Some(Value::List(l)) => l.is_empty(),
        Some(_) => false,
    };
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            x.keys()
                .chain(y.keys())
                .all(|k| match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) if !(empty(Some(p)) && empty(Some(q))) => semantic_eq(p, q),
                    (p, q) => empty(p) == empty(q) && (empty(p) || p == q),
                })
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| semantic_eq(p, q))
        }
        (Value::String(x), Value::String(y)) => x == y || quantity_eq(x, y),
        _ => a == b,
    }
}

/// Two texts of one quantity (`1Gi` and `1024Mi`), which the spec's resource maps hold.
fn quantity_eq(a: &str, b: &str) -> bool {
    a.starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-' || c == '+')
        && quantity::same_value(a, b)
}

/// `ValidatePersistentVolumeClaimStatusUpdate`.
fn status_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = object_meta_update(new, old);
    if str_at(new, &["metadata", "resourceVersion"]).is_empty() {
        errs.push(FieldError::required(&FieldPath::new("resourceVersion"), ""));
    }
    if strings(at(new, &["spec", "accessModes"])).is_empty() {
        // Go's path names the internal field, `Spec`.
        errs.push(FieldError::required(
            &FieldPath::new("Spec").child("accessModes"),
            "",
        ));
    }
    let resources = |name: &str| -> Vec<(String, String)> {
        let mut all: Vec<(String, String)> = at(new, &["status", name])
            .and_then(Value::as_map)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.to_owned(), v.as_str().unwrap_or("").to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        all.sort();
        all
    };
    let capacity = FieldPath::new("status").child("capacity");
    for (name, q) in resources("capacity") {
        errs.extend(basic_resource(&q, &capacity.key(&name)));
    }
    let statuses = FieldPath::new("status").child("allocatedResourceStatuses");
    let known = [
        "ControllerResizeInProgress",
        "ControllerResizeInfeasible",
        "NodeResizeInProgress",
        "NodeResizeInfeasible",
        "NodeResizePending",
    ];
    for (name, state) in resources("allocatedResourceStatuses") {
        errs.extend(resource_key(&name, &statuses));
        if !known.contains(&state.as_str()) {
            errs.push(FieldError::not_supported(&statuses, typed(&name), &known));
        }
    }
    let allocated = FieldPath::new("status").child("allocatedResources");
    for (name, q) in resources("allocatedResources") {
        let key_errs = resource_key(&name, &allocated);
        if !key_errs.is_empty() {
            errs.extend(key_errs);
            continue;
        }
        let p = allocated.key(&name);
        let basic = basic_resource(&q, &p);
        if basic.is_empty() && quantity::compare(&q, "0") == Some(Ordering::Less) {
            let shown = quantity::canonical(&q).unwrap_or(q);
            errs.push(FieldError::invalid(
                &p,
                BadValue::str(shown),
                "must be greater than or equal to 0",
            ));
        }
        errs.extend(basic);
    }
    errs
}

/// `validateBasicResource`: the value rounded up must not be negative.
fn basic_resource(q: &str, path: &FieldPath) -> Vec<FieldError> {
    match quantity::value(q) {
        Some(v) if v < 0 => vec![FieldError::invalid(
            path,
            BadValue::Int(v),
            "must be a valid resource quantity",
        )],
        _ => Vec::new(),
    }
}

/// `validatePersistentVolumeClaimResourceKey`: a qualified name; a native one must be
/// `storage`.
fn resource_key(name: &str, path: &FieldPath) -> Vec<FieldError> {
    let errs = invalid_each(path, name, names::is_qualified_name(name));
    if !errs.is_empty() {
        return errs;
    }
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    if native && name != "storage" {
        return vec![FieldError::not_supported(
            path,
            BadValue::str(name),
            &["storage"],
        )];
    }
    errs
}
