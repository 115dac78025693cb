//! The storage's versions: an object is held at one version of its kind (a built-in kind's
//! storage version, a custom resource's CRD's `storage: true` version) and a request at
//! another version reads and writes it converted, as the server's storage codec converts it
//! ([`crate::builtin::conversion`]: autoscaling HorizontalPodAutoscaler through the internal
//! version; a custom resource whose CRD converts with the `None` strategy by its
//! `apiVersion` alone). A CRD converting through a webhook cannot be converted offline: the
//! request is refused, saying how to export the object at the version wanted.

use smd_fieldpath::Value;

use super::http::Response;
use super::routes::Resource;
use super::server::ApiServer;
use super::status;
use super::store::ObjectKey;

/// The `apiVersion` of objects served by `resource`.
pub(super) fn api_version_of(resource: &Resource) -> String {
    if resource.group.is_empty() {
        resource.version.clone()
    } else {
        format!("{}/{}", resource.group, resource.version)
    }
}

fn api_version_in(object: &Value) -> &str {
    object
        .as_map()
        .and_then(|m| m.get("apiVersion"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

impl ApiServer {
    /// The CRD serving `resource`, when it is a custom resource.
    pub(super) fn crd_of(&self, resource: &Resource) -> Option<&Value> {
        if !resource.custom {
            return None;
        }
        self.crds.iter().rev().find(|crd| {
            str_at(crd, &["spec", "group"]) == resource.group
                && str_at(crd, &["spec", "names", "plural"]) == resource.plural
        })
    }

    /// The `apiVersion` `resource`'s objects are stored at; `None` when objects are held as
    /// written (one version served).
    pub(super) fn storage_api_version(&self, resource: &Resource) -> Option<String> {
        if let Some(crd) = self.crd_of(resource) {
            let versions = crd
                .as_map()
                .and_then(|m| m.get("spec"))
                .and_then(Value::as_map)
                .and_then(|s| s.get("versions"))
                .and_then(Value::as_list)?;
            let storage = versions.iter().find(|v| {
                v.as_map()
                    .and_then(|m| m.get("storage"))
                    .and_then(Value::as_bool)
                    == Some(true)
            })?;
            let name = str_at(storage, &["name"]);
            return Some(format!("{}/{}", resource.group, name));
        }
        if resource.custom {
            return None;
        }
        crate::builtin::conversion::storage_version(&resource.group, &resource.kind)
            .map(str::to_owned)
    }

    /// `object` (as held, or as written at another version) converted to `api_version`, as
    /// `resource`'s codec converts it; a built-in object is defaulted at its new version, as
    /// the decode of a read defaults it. The refusal when only a webhook could convert it.
    pub(super) fn convert_for(
        &self,
        resource: &Resource,
        object: &Value,
        api_version: &str,
        at: (&str, &str),
    ) -> Result<Value, Response> {
        let have = api_version_in(object);
        if have == api_version || have.is_empty() {
            return Ok(object.clone());
        }
        if let Some(crd) = self.crd_of(resource) {
            let strategy = str_at(crd, &["spec", "conversion", "strategy"]);
            if strategy == "Webhook" {
                return Err(webhook_refusal(resource, api_version, at));
            }
            return Ok(crate::builtin::conversion::convert(object, api_version));
        }
        let mut converted = crate::builtin::conversion::convert(object, api_version);
        let kind = resource.gvk();
        if crate::builtin::is_builtin(&kind) {
            let target =
                smd_schema::gvk::GroupVersionKind::from_api_version(api_version, &resource.kind);
            crate::builtin::default(&target, &mut converted);
        }
        Ok(converted)
    }

    /// The object at `key` as a request through `resource` reads it: converted to the
    /// request's version.
    pub(super) fn held_for(
        &self,
        resource: &Resource,
        key: &ObjectKey,
    ) -> Option<Result<Value, Response>> {
        let held = self.object(key)?;
        let at = (key.namespace.as_str(), key.name.as_str());
        Some(self.convert_for(resource, held, &api_version_of(resource), at))
    }

    /// An object written through `resource` as the storage holds it: at the storage version.
    pub(super) fn to_storage(&self, resource: &Resource, object: Value) -> Value {
        let Some(storage) = self.storage_api_version(resource) else {
            return object;
        };
        let have = api_version_in(&object);
        if have == storage || have.is_empty() {
            return object;
        }
        // Only a webhook converts a webhook CRD's objects: what it cannot convert stays as
        // written, and a read of it says why.
        if self
            .crd_of(resource)
            .is_some_and(|crd| str_at(crd, &["spec", "conversion", "strategy"]) == "Webhook")
        {
            return object;
        }
        // The storage holds what the encoder wrote: converted, not defaulted.
        crate::builtin::conversion::convert(&object, &storage)
    }
}

/// An object written through a resource, in the three forms the storage deals in.
pub(super) struct Stored {
    /// What a read at the storage version gives (decoded again, defaulted).
    pub(super) held: Value,
    /// What the storage wrote (at the storage version).
    pub(super) written: Value,
    /// What the writer gets back: the held object read at the request's version.
    pub(super) answer: Value,
}

impl ApiServer {
    /// `object` (the result of a write through `resource`) as the storage writes it, holds
    /// it and answers it: at another version than the storage's, written converted, read
    /// back at the storage version (its defaults applied there) and converted back.
    pub(super) fn stored_forms(&self, resource: &Resource, object: Value) -> Stored {
        let request = api_version_of(resource);
        let storage = self
            .storage_api_version(resource)
            .filter(|s| *s != request && api_version_in(&object) == request);
        let Some(storage) = storage else {
            let held = self.read_back(resource, &object);
            return Stored {
                answer: held.clone(),
                held,
                written: object,
            };
        };
        let written = self.to_storage(resource, object);
        let mut at_storage = resource.clone();
        at_storage.version = storage.rsplit('/').next().unwrap_or(&storage).to_owned();
        let held = self.read_back(&at_storage, &written);
        let at = (
            str_at(&written, &["metadata", "namespace"]),
            str_at(&written, &["metadata", "name"]),
        );
        let answer = self
            .convert_for(resource, &held, &request, at)
            .unwrap_or_else(|_| held.clone());
        Stored {
            held,
            written,
            answer,
        }
    }
}

/// The refusal of a request that needs a conversion webhook: offline there is none to call.
pub(super) fn webhook_refusal(
    resource: &Resource,
    api_version: &str,
    at: (&str, &str),
) -> Response {
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    status::failure(500, "", &webhook_message(resource, version, at), None)
}

/// How [`webhook_message`] starts its second part, which [`needs_conversion_webhook`] looks for.
const OFFLINE: &str = "cannot be called offline";

/// Whether `response` is the refusal of a request that only a conversion webhook could
/// answer (the message names the `kubectl get` that exports the object at the version
/// wanted).
pub fn needs_conversion_webhook(response: &Response) -> bool {
    response.code == 500
        && response
            .message()
            .is_some_and(|m| m.starts_with("conversion webhook for ") && m.contains(OFFLINE))
}

/// What cannot be done offline, and the command that exports the object at `version` (`at`:
/// its namespace, empty for a cluster-scoped one, and name).
fn webhook_message(resource: &Resource, version: &str, at: (&str, &str)) -> String {
    let (namespace, name) = at;
    let namespace = if namespace.is_empty() {
        String::new()
    } else {
        format!(" -n {namespace}")
    };
    format!(
        "conversion webhook for {group}/{kind} {OFFLINE}: the object is stored at \
         another version of {plural}.{group}; export it at {version} with `kubectl get \
         {plural}.{version}.{group} {name}{namespace} -o yaml --show-managed-fields`",
        group = resource.group,
        kind = resource.kind,
        plural = resource.plural,
    )
}

fn str_at<'a>(value: &'a Value, path: &[&str]) -> &'a str {
    value.str_at(path)
}

#[cfg(test)]
mod tests {
    use super::super::http::{APPLY_PATCH, Request};
    use super::super::server::SetupError;
    use super::*;

    fn crd(strategy: &str) -> Value {
        let conversion = if strategy == "Webhook" {
            r#"{"strategy":"Webhook","webhook":{"clientConfig":{"url":"https://conv.example.com/convert"},"conversionReviewVersions":["v1"]}}"#
        } else {
            r#"{"strategy":"None"}"#
        };
        let schema = r#"{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}"#;
        Value::from_json(&format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
            "metadata":{{"name":"things.w.example.com"}},
            "spec":{{"group":"w.example.com","scope":"Namespaced",
              "names":{{"plural":"things","singular":"thing","kind":"Thing","listKind":"ThingList"}},
              "conversion":{conversion},
              "versions":[{{"name":"v1alpha1","served":true,"storage":false,"schema":{schema}}},
                          {{"name":"v1","served":true,"storage":true,"schema":{schema}}}]}}}}"#
        ))
        .unwrap_or(Value::Null)
    }

    fn apply(server: &mut ApiServer, version: &str, size: i64) -> Response {
        server.handle(
            &Request::new(
                "PATCH",
                format!("/apis/w.example.com/{version}/namespaces/d/things/t"),
            )
            .with_query("fieldManager", "kubectl")
            .with_body(
                APPLY_PATCH,
                format!(
                    "{{apiVersion: w.example.com/{version}, kind: Thing, metadata: {{name: t}}, spec: {{size: {size}}}}}"
                ),
            ),
        )
    }

    #[test]
    fn webhook_conversion_is_refused_with_the_export_command() -> Result<(), SetupError> {
        let mut server = ApiServer::new();
        server.add_crd(&crd("Webhook"))?;
        assert_eq!(apply(&mut server, "v1", 1).code, 201);
        // The same version needs no conversion.
        assert_eq!(apply(&mut server, "v1", 2).code, 200);
        let refused = apply(&mut server, "v1alpha1", 3);
        assert!(needs_conversion_webhook(&refused));
        assert_eq!(refused.code, 500);
        assert_eq!(
            refused.message(),
            Some(
                "conversion webhook for w.example.com/Thing cannot be called offline: the object is \
                 stored at another version of things.w.example.com; export it at v1alpha1 with \
                 `kubectl get things.v1alpha1.w.example.com t -n d -o yaml --show-managed-fields`"
            )
        );
        let read = server.handle(&Request::new(
            "GET",
            "/apis/w.example.com/v1alpha1/namespaces/d/things/t",
        ));
        assert!(needs_conversion_webhook(&read));
        Ok(())
    }

    #[test]
    fn none_strategy_rewrites_the_api_version_and_stores_at_the_storage_version()
    -> Result<(), SetupError> {
        let mut server = ApiServer::new();
        server.add_crd(&crd("None"))?;
        assert_eq!(apply(&mut server, "v1alpha1", 1).code, 201);
        let key = ObjectKey::new("w.example.com", "things", "d", "t");
        let held = server
            .object(&key)
            .map(|o| str_at(o, &["apiVersion"]).to_owned());
        assert_eq!(held.as_deref(), Some("w.example.com/v1"));
        let read = server.handle(&Request::new(
            "GET",
            "/apis/w.example.com/v1alpha1/namespaces/d/things/t",
        ));
        assert_eq!(
            str_at(&read.body, &["apiVersion"]),
            "w.example.com/v1alpha1"
        );
        Ok(())
    }
}
