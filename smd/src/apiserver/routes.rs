//! Which resources the server serves and how a URL names one: the built-in resources of
//! Kubernetes 1.37 as a real server's discovery lists them ([`RESOURCES`], recorded by
//! `conformance/apiserver/record-resources`), and the custom resources of the CRDs added.

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

use super::resources_table::{OTHER_SUBRESOURCES, RESOURCES};

/// One resource the server serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version served.
    pub version: String,
    /// The plural in URLs (`deployments`).
    pub plural: String,
    /// The kind of its objects.
    pub kind: String,
    /// Whether its objects live in a namespace.
    pub namespaced: bool,
    /// The verbs it takes (`create`, `get`, `update`, `patch`, `delete`, ...).
    pub verbs: Vec<String>,
    /// Whether it serves the `status` subresource.
    pub status: bool,
    /// Whether it serves the `scale` subresource.
    pub scale: bool,
    /// Whether it is a custom resource (no strategic merge patch, no Go types).
    pub custom: bool,
}

impl Resource {
    /// Its group, version and kind.
    pub fn gvk(&self) -> GroupVersionKind {
        GroupVersionKind::new(&self.group, &self.version, &self.kind)
    }

    /// Whether it takes `verb`.
    pub fn takes(&self, verb: &str) -> bool {
        self.verbs.iter().any(|v| v == verb)
    }

    /// The patch content types it accepts, in the order the server lists them in a 415.
    pub fn patch_types(&self) -> Vec<&'static str> {
        let mut types = vec![super::http::JSON_PATCH, super::http::MERGE_PATCH];
        if !self.custom {
            types.push(super::http::STRATEGIC_MERGE_PATCH);
        }
        types.push(super::http::APPLY_PATCH);
        types
    }
}

/// The verbs of a subresource the real server has but smd does not serve (`serviceaccounts`
/// `token`, `pods` `log`, ...: neither status nor scale), as its discovery lists them.
pub(super) fn other_subresource_verbs(
    resource: &Resource,
    subresource: &str,
) -> Option<Vec<&'static str>> {
    if resource.custom {
        return None;
    }
    OTHER_SUBRESOURCES
        .iter()
        .find(|(g, v, p, s, _)| {
            *g == resource.group
                && *v == resource.version
                && *p == resource.plural
                && *s == subresource
        })
        .map(|(.., verbs)| verbs.split(',').collect())
}

/// The built-in resources of Kubernetes 1.37.
pub(super) fn builtin() -> Vec<Resource> {
    RESOURCES
        .iter()
        .map(
            |(group, version, plural, kind, namespaced, verbs, status, scale)| Resource {
                group: (*group).to_owned(),
                version: (*version).to_owned(),
                plural: (*plural).to_owned(),
                kind: (*kind).to_owned(),
                namespaced: *namespaced,
                verbs: verbs.split(',').map(str::to_owned).collect(),
                status: !status.is_empty(),
                scale: !scale.is_empty(),
                custom: false,
            },
        )
        .collect()
}

/// The resources a CRD (`apiextensions.k8s.io/v1`) serves: one per served version.
pub(super) fn custom(crd: &Value) -> Vec<Resource> {
    let text = |v: &Value, path: &[&str]| -> String {
        let mut at = v;
        for key in path {
            match at.as_map().and_then(|m| m.get(key)) {
                Some(next) => at = next,
                None => return String::new(),
            }
        }
        at.as_str().unwrap_or_default().to_owned()
    };
    let group = text(crd, &["spec", "group"]);
    let plural = text(crd, &["spec", "names", "plural"]);
    let kind = text(crd, &["spec", "names", "kind"]);
    let namespaced = text(crd, &["spec", "scope"]) != "Cluster";
    let versions = crd
        .as_map()
        .and_then(|m| m.get("spec"))
        .and_then(Value::as_map)
        .and_then(|s| s.get("versions"))
        .and_then(Value::as_list)
        .unwrap_or_default();
    versions
        .iter()
        .filter(|v| v.as_map().and_then(|m| m.get("served")) == Some(&Value::Bool(true)))
        .map(|v| {
            let sub = |name: &str| {
                v.as_map()
                    .and_then(|m| m.get("subresources"))
                    .and_then(Value::as_map)
                    .and_then(|s| s.get(name))
                    .is_some_and(|s| !s.is_null())
            };
            Resource {
                group: group.clone(),
                version: text(v, &["name"]),
                plural: plural.clone(),
                kind: kind.clone(),
                namespaced,
                verbs: [
                    "create",
                    "delete",
                    "deletecollection",
                    "get",
                    "list",
                    "patch",
                    "update",
                    "watch",
                ]
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
                status: sub("status"),
                scale: sub("scale"),
                custom: true,
            }
        })
        .collect()
}

/// A request's URL taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Target {
    pub group: String,
    pub version: String,
    pub plural: String,
    /// Empty for a cluster-scoped resource.
    pub namespace: String,
    /// Empty for the collection.
    pub name: String,
    /// Empty for the main resource.
    pub subresource: String,
}

/// `path` as the API server's router reads it, given a way to ask whether a plural of a group
/// version is namespaced; `None` when no route matches.
pub(super) fn parse(
    path: &str,
    namespaced: impl Fn(&str, &str, &str) -> Option<bool>,
) -> Option<Target> {
    let decoded: Vec<String> = path
        .trim_start_matches('/')
        .split('/')
        .map(decode_segment)
        .collect::<Option<_>>()?;
    let parts: Vec<&str> = decoded.iter().map(String::as_str).collect();
    let (group, version, rest) = match parts.as_slice() {
        ["api", version, rest @ ..] => ("", *version, rest),
        ["apis", group, version, rest @ ..] => (*group, *version, rest),
        _ => return None,
    };
    if rest.iter().any(|p| p.is_empty()) {
        return None;
    }
    let target = |namespace: &str, plural: &str, name: &str, sub: &str| Target {
        group: group.to_owned(),
        version: version.to_owned(),
        plural: plural.to_owned(),
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        subresource: sub.to_owned(),
    };
    // `namespaces/{ns}/{plural}...` names a namespaced resource; `namespaces/{name}/status`
    // the Namespace itself.
    if let ["namespaces", ns, plural, tail @ ..] = rest
        && namespaced(group, version, plural) == Some(true)
    {
        return match tail {
            [] => Some(target(ns, plural, "", "")),
            [name] => Some(target(ns, plural, name, "")),
            [name, sub] => Some(target(ns, plural, name, sub)),
            _ => None,
        };
    }
    match rest {
        // A namespaced resource's collection across every namespace (list and watch).
        [plural] if namespaced(group, version, plural).is_some() => {
            Some(target("", plural, "", ""))
        }
        [plural, name] if namespaced(group, version, plural) == Some(false) => {
            Some(target("", plural, name, ""))
        }
        [plural, name, sub] if namespaced(group, version, plural) == Some(false) => {
            Some(target("", plural, name, sub))
        }
        _ => None,
    }
}

/// A path segment as a URL carries it: bytes outside RFC 3986's unreserved and sub-delimiter
/// characters percent-encoded (a name or kind holding `/` stays one segment).
pub(super) fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~:@!$&'()*+,;=".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A path segment's `%XX` escapes decoded; `None` when one is malformed or the bytes are not
/// UTF-8.
fn decode_segment(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
