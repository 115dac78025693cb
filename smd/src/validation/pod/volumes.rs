//! A pod's volumes (`ValidateVolumes`, `validateVolumeSource`): unique DNS-label names and
//! exactly one source each, with the common sources' own rules.

use smd_fieldpath::Value;

use super::super::{BadValue, FieldError, FieldPath, member, str_at};
use super::containers::dns1123_label;
use super::{int, list};

/// The volume sources in the order Go looks at them, each with the path its "more than one"
/// error names (Go's own spelling, typos included).
const SOURCES: &[(&str, &str)] = &[
    ("emptyDir", "emptyDir"),
    ("hostPath", "hostPath"),
    ("gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("secret", "secret"),
    ("nfs", "nfs"),
    ("iscsi", "iscsi"),
    ("glusterfs", "glusterfs"),
    ("flocker", "flocker"),
    ("persistentVolumeClaim", "persistentVolumeClaim"),
    ("rbd", "rbd"),
    ("cinder", "cinder"),
    ("cephfs", "cephFS"),
    ("quobyte", "quobyte"),
    ("downwardAPI", "downwarAPI"),
    ("fc", "fc"),
    ("flexVolume", "flexVolume"),
    ("configMap", "configMap"),
    ("azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk"),
    ("storageos", "storageos"),
    ("projected", "projected"),
    ("scaleIO", "scaleIO"),
    ("csi", "csi"),
    ("ephemeral", "ephemeral"),
    ("image", "image"),
];

/// `supportedHostPathTypes`, sorted (the unset type is `""`).
const HOST_PATH_TYPES: &[&str] = &[
    "",
    "BlockDevice",
    "CharDevice",
    "Directory",
    "DirectoryOrCreate",
    "File",
    "FileOrCreate",
    "Socket",
];

const FILE_MODE: &str = "must be a number between 0 and 0777 (octal), both inclusive";
const EMPTY_DIR_MODE: &str = "must be a number between 0 and 01777 (octal), both inclusive";

/// `ValidateVolumes`: the errors, and the names of the volumes that passed (what mounts may
/// refer to).
///
/// `pod_name` is the pod's name (none for a template): an ephemeral volume's claim is named
/// after it.
pub(super) fn validate_volumes<'a>(
    volumes: Option<&'a Value>,
    pod_name: Option<&str>,
    path: &FieldPath,
) -> (Vec<&'a str>, Vec<FieldError>) {
    let mut valid: Vec<&str> = Vec::new();
    let mut errs = Vec::new();
    let pod_name = pod_name.filter(|n| !n.is_empty());
    // The claims the pod's ephemeral volumes create, which no claim volume may name.
    let created: Vec<String> = pod_name
        .map(|pod| {
            list(volumes)
                .filter(|v| member(v, "ephemeral").is_some_and(|e| !e.is_null()))
                .map(|v| format!("{pod}-{}", str_at(v, &["name"])))
                .collect()
        })
        .unwrap_or_default();
    for (i, volume) in list(volumes).enumerate() {
        let p = path.index(i);
        let name = str_at(volume, &["name"]);
        let mut own = source_problems(volume, pod_name, &p);
        if name.is_empty() {
            own.push(FieldError::required(&p.child("name"), ""));
        } else {
            own.extend(dns1123_label(name, &p.child("name")));
        }
        if valid.contains(&name) {
            own.push(FieldError::duplicate(&p.child("name"), BadValue::str(name)));
        }
        if own.is_empty() {
            valid.push(name);
        } else {
            errs.extend(own);
        }
        let claim = super::super::str_at(volume, &["persistentVolumeClaim", "claimName"]);
        if member(volume, "persistentVolumeClaim").is_some_and(|c| !c.is_null())
            && created.iter().any(|c| c == claim)
        {
            errs.push(FieldError::invalid(
                &p.child("persistentVolumeClaim").child("claimName"),
                BadValue::str(claim),
                "must not reference a PVC that gets created for an ephemeral volume",
            ));
        }
    }
    (valid, errs)
}

/// `validateVolumeSource`: exactly one source, and the common sources' rules.
fn source_problems(volume: &Value, pod_name: Option<&str>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut count = 0;
    for (key, forbidden_path) in SOURCES {
        let Some(source) = member(volume, key).filter(|v| !v.is_null()) else {
            continue;
        };
        // emptyDir comes first, so it is always counted.
        if count > 0 {
            errs.push(FieldError::forbidden(
                &path.child(forbidden_path),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        count += 1;
        let p = path.child(key);
        match *key {
            "emptyDir" => errs.extend(empty_dir(source, &p)),
            "hostPath" => errs.extend(host_path(source, &p)),
            "secret" => errs.extend(projection(source, "secretName", &p)),
            "configMap" => errs.extend(projection(source, "name", &p)),
            "persistentVolumeClaim" if str_at(source, &["claimName"]).is_empty() => {
                errs.push(FieldError::required(&p.child("claimName"), ""));
            }
            "ephemeral" => errs.extend(ephemeral(volume, source, pod_name, path)),
            _ => {}
        }
    }
    if count == 0 {
        errs.push(FieldError::required(path, "must specify a volume type"));
    }
    errs
}

/// An `emptyDir`: a non-negative size limit, a mode within `01777`.
fn empty_dir(source: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(limit) = member(source, "sizeLimit").and_then(Value::as_str)
        && crate::builtin::quantity::compare(limit, "0") == Some(std::cmp::Ordering::Less)
    {
        errs.push(FieldError::forbidden(
            &path.child("sizeLimit"),
            "SizeLimit field must be a valid resource quantity",
        ));
    }
    if let Some(mode) = int(source, "mode")
        && !(0..=0o1777).contains(&mode)
    {
        errs.push(FieldError::invalid(
            &path.child("mode"),
            BadValue::Int(mode),
            EMPTY_DIR_MODE,
        ));
    }
    errs
}

/// `validateHostPathVolumeSource`: a path without backsteps, a known type.
fn host_path(source: &Value, path: &FieldPath) -> Vec<FieldError> {
    let host = str_at(source, &["path"]);
    if host.is_empty() {
        return vec![FieldError::required(&path.child("path"), "")];
    }
    let mut errs = no_backsteps(host, &path.child("path"));
    if let Some(kind) = member(source, "type").and_then(Value::as_str)
        && !HOST_PATH_TYPES.contains(&kind)
    {
        errs.push(FieldError::not_supported(
            &path.child("type"),
            BadValue::str(kind),
            HOST_PATH_TYPES,
        ));
    }
    errs
}

/// A `secret` or `configMap` volume: its object's name, file modes, items.
fn projection(source: &Value, name_key: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if str_at(source, &[name_key]).is_empty() {
        errs.push(FieldError::required(&path.child(name_key), ""));
    }
    if let Some(mode) = int(source, "defaultMode")
        && !(0..=0o777).contains(&mode)
    {
        errs.push(FieldError::invalid(
            &path.child("defaultMode"),
            BadValue::Int(mode),
            FILE_MODE,
        ));
    }
    for (i, item) in list(member(source, "items")).enumerate() {
        let p = path.child("items").index(i);
        if str_at(item, &["key"]).is_empty() {
            errs.push(FieldError::required(&p.child("key"), ""));
        }
        let item_path = str_at(item, &["path"]);
        if item_path.is_empty() {
            errs.push(FieldError::required(&p.child("path"), ""));
        }
        errs.extend(local_non_reserved_path(item_path, &p.child("path")));
        if let Some(mode) = int(item, "mode")
            && !(0..=0o777).contains(&mode)
        {
            errs.push(FieldError::invalid(
                &p.child("mode"),
                BadValue::Int(mode),
                FILE_MODE,
            ));
        }
    }
    errs
}

/// `ValidateLocalNonReservedPath`: a relative path without backsteps, not starting `..`.
fn local_non_reserved_path(target: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = local_descending_path(target, path);
    if target.starts_with("..") && !target.starts_with("../") {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(target),
            "must not start with '..'",
        ));
    }
    errs
}

/// `validateLocalDescendingPath`: relative, without `..` elements.
pub(super) fn local_descending_path(target: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if target.starts_with('/') {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(target),
            "must be a relative path",
        ));
    }
    errs.extend(no_backsteps(target, path));
    errs
}

/// `validatePathNoBacksteps`: no `..` element (one error however many).
fn no_backsteps(target: &str, path: &FieldPath) -> Vec<FieldError> {
    if target.split('/').any(|part| part == "..") {
        return vec![FieldError::invalid(
            path,
            BadValue::str(target),
            "must not contain '..'",
        )];
    }
    Vec::new()
}

/// An ephemeral volume: a claim template (its contents are not checked here), and a claim
/// name (`<pod>-<volume>`) that is a DNS subdomain.
fn ephemeral(
    volume: &Value,
    source: &Value,
    pod_name: Option<&str>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if member(source, "volumeClaimTemplate").is_none_or(Value::is_null) {
        errs.push(FieldError::required(
            &path.child("ephemeral").child("volumeClaimTemplate"),
            "",
        ));
    }
    let name = str_at(volume, &["name"]);
    if let Some(pod) = pod_name
        && !name.is_empty()
    {
        let claim = format!("{pod}-{name}");
        for msg in super::super::names::name_is_dns_subdomain(&claim, false) {
            errs.push(FieldError::invalid(
                &path.child("name"),
                BadValue::str(name),
                format!("PVC name {}: {msg}", smd_fieldpath::value::go_quote(&claim)),
            ));
        }
    }
    errs
}
