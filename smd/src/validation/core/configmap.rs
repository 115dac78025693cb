//! ConfigMaps and Secrets (`ValidateConfigMap`, `ValidateConfigMapUpdate`, `ValidateSecret`,
//! `ValidateSecretUpdate`): their keys, their total size, `immutable`, a Secret's type and
//! the keys each type requires.

use smd_fieldpath::Value;

use super::{invalid_each, object_meta, object_meta_update, same};
use crate::validation::{BadValue, FieldError, FieldPath, Rules, member, names, str_at};

/// `core.MaxSecretSize`: the bytes a ConfigMap's or Secret's values may hold together.
const MAX_SIZE: i64 = 1024 * 1024;

/// The ConfigMap strategy's rules.
pub(super) const CONFIG_MAP: Rules = Rules {
    create: config_map,
    update: config_map_update,
};

/// The Secret strategy's rules.
pub(super) const SECRET: Rules = Rules {
    create: secret,
    update: secret_update,
};

/// `IsConfigMapKey`: a key of `data`, `binaryData` (or a Secret's `data`).
fn key_problems(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if key.len() > names::DNS1123_SUBDOMAIN_MAX {
        errs.push(names::max_len_error(names::DNS1123_SUBDOMAIN_MAX));
    }
    let charset = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'));
    if !charset {
        errs.push(names::regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    match key {
        "." => errs.push("must not be '.'".into()),
        ".." => errs.push("must not be '..'".into()),
        k if k.starts_with("..") => errs.push("must not start with '..'".into()),
        _ => {}
    }
    errs
}

/// The entries of a map member, in key order.
fn entries<'a>(object: &'a Value, name: &str) -> Vec<(&'a str, &'a Value)> {
    let mut all: Vec<(&str, &Value)> = member(object, name)
        .and_then(Value::as_map)
        .map(|m| m.iter().collect())
        .unwrap_or_default();
    all.sort_by(|a, b| a.0.cmp(b.0));
    all
}

/// The bytes a `[]byte` value holds (its base64 text decoded; the decoder already refused a
/// text that is not base64).
fn byte_len(value: &Value) -> usize {
    let text = value.as_str().unwrap_or("");
    crate::builtin::base64_decode(text).map_or(text.len() / 4 * 3, |b| b.len())
}

fn config_map(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, true, names::name_is_dns_subdomain);
    let data = FieldPath::new("data");
    let binary = entries(object, "binaryData");
    let mut total = 0usize;
    for (key, value) in entries(object, "data") {
        errs.extend(invalid_each(&data.key(key), key, key_problems(key)));
        if binary.iter().any(|(k, _)| *k == key) {
            errs.push(FieldError::invalid(
                &data.key(key),
                BadValue::str(key),
                "duplicate of key present in binaryData",
            ));
        }
        total += value.as_str().map_or(0, str::len);
    }
    let binary_path = FieldPath::new("binaryData");
    for (key, value) in binary {
        errs.extend(invalid_each(&binary_path.key(key), key, key_problems(key)));
        total += byte_len(value);
    }
    if i64::try_from(total).unwrap_or(i64::MAX) > MAX_SIZE {
        // Go names the whole object with an empty path.
        errs.push(FieldError::too_long(&FieldPath::new(""), MAX_SIZE));
    }
    errs
}

/// Whether `immutable: true` is set.
fn is_immutable(object: &Value) -> bool {
    member(object, "immutable").and_then(Value::as_bool) == Some(true)
}

/// The `immutable` rules both kinds share: once true it stays true and the named maps stay.
fn immutable_rules(new: &Value, old: &Value, maps: &[&str]) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if !is_immutable(old) {
        return errs;
    }
    const MSG: &str = "field is immutable when `immutable` is set";
    if !is_immutable(new) {
        errs.push(FieldError::forbidden(&FieldPath::new("immutable"), MSG));
    }
    for name in maps {
        if !same(member(new, name), member(old, name)) {
            errs.push(FieldError::forbidden(&FieldPath::new(name), MSG));
        }
    }
    errs
}

fn config_map_update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let mut errs = object_meta_update(new, old);
    errs.extend(immutable_rules(new, old, &["data", "binaryData"]));
    errs.extend(config_map(new));
    errs
}

/// The bytes of `data[key]`, if the key is there.
fn data_bytes(object: &Value, key: &str) -> Option<Vec<u8>> {
    let value = member(object, "data").and_then(|d| member(d, key))?;
    let text = value.as_str().unwrap_or("");
    Some(crate::builtin::base64_decode(text).unwrap_or_default())
}

/// Why `json.Unmarshal(bytes, &map[string]interface{}{})` fails, if it does.
fn json_object_error(bytes: &[u8]) -> Option<String> {
    if let Some(e) = crate::apiserver::json_syntax_error(bytes) {
        return Some(e);
    }
    let text = std::str::from_utf8(bytes).unwrap_or("").trim_start();
    let kind = match text.bytes().next() {
        Some(b'{') | Some(b'n') | None => return None,
        Some(b'[') => "array",
        Some(b'"') => "string",
        Some(b't' | b'f') => "bool",
        Some(_) => "number",
    };
    Some(format!(
        "json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
    ))
}

fn secret(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, true, names::name_is_dns_subdomain);
    let data = FieldPath::new("data");
    let mut total = 0usize;
    for (key, value) in entries(object, "data") {
        errs.extend(invalid_each(&data.key(key), key, key_problems(key)));
        total += byte_len(value);
    }
    if i64::try_from(total).unwrap_or(i64::MAX) > MAX_SIZE {
        errs.push(FieldError::too_long(&data, MAX_SIZE));
    }
    let has = |key: &str| data_bytes(object, key).is_some();
    let required = |key: &str| FieldError::required(&data.key(key), "");
    match str_at(object, &["type"]) {
        "kubernetes.io/service-account-token" => {
            let name = str_at(
                object,
                &[
                    "metadata",
                    "annotations",
                    "kubernetes.io/service-account.name",
                ],
            );
            if name.is_empty() {
                errs.push(FieldError::required(
                    &FieldPath::new("metadata")
                        .child("annotations")
                        .key("kubernetes.io/service-account.name"),
                    "",
                ));
            }
        }
        kind @ ("kubernetes.io/dockercfg" | "kubernetes.io/dockerconfigjson") => {
            let key = if kind == "kubernetes.io/dockercfg" {
                ".dockercfg"
            } else {
                ".dockerconfigjson"
            };
            match data_bytes(object, key) {
                None => errs.push(required(key)),
                Some(bytes) => {
                    if let Some(e) = json_object_error(&bytes) {
                        errs.push(FieldError::invalid(
                            &data.key(key),
                            BadValue::str("<secret contents redacted>"),
                            e,
                        ));
                    }
                }
            }
        }
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            errs.push(required("username"));
            errs.push(required("password"));
        }
        "kubernetes.io/ssh-auth"
            if data_bytes(object, "ssh-privatekey").is_none_or(|b| b.is_empty()) =>
        {
            errs.push(required("ssh-privatekey"));
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !has(key) {
                    errs.push(required(key));
                }
            }
        }
        _ => {}
    }
    errs
}

fn secret_update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let mut errs = object_meta_update(new, old);
    let (new_type, old_type) = (str_at(new, &["type"]), str_at(old, &["type"]));
    if new_type != old_type {
        errs.push(FieldError::invalid(
            &FieldPath::new("type"),
            BadValue::str(new_type),
            "field is immutable",
        ));
    }
    errs.extend(immutable_rules(new, old, &["data"]));
    errs.extend(secret(new));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_keys() {
        assert!(key_problems("a.b_C-1").is_empty());
        assert_eq!(key_problems("..a"), vec!["must not start with '..'"]);
        assert_eq!(key_problems("a b").len(), 1);
    }

    #[test]
    fn docker_json() {
        assert_eq!(json_object_error(b"{}"), None);
        assert_eq!(json_object_error(b"null"), None);
        assert_eq!(
            json_object_error(b"[1]").as_deref(),
            Some("json: cannot unmarshal array into Go value of type map[string]interface {}")
        );
    }
}
