//! The namespace of each object as kubectl gives it before any request
//! (`k8s.io/cli-runtime/pkg/resource`, `SetNamespace` and `RequireNamespace`): a manifest of a
//! namespaced kind that names no namespace gets the command's (`-n`, else `default`: smd reads
//! no kubeconfig, whose context may name another); with an explicit `-n`, a manifest naming
//! another namespace is refused with kubectl's words. Cluster-scoped kinds take none, and pair
//! whatever namespace their manifest names (the API server clears it). The scope of a kind is
//! the embedded schema's or its CRD's; for a kind only `--schema` types, the object's own
//! (namespaced when it names a namespace).
//!
//! Live objects get the same default and no refusal: `kubectl get` prints the namespace of
//! every namespaced object, so one without is hand-written, and is taken as the object kubectl
//! would read where the command works (`-n`, else `default`). Objects of other namespaces in a
//! live dump are simply not paired.

use smd::fieldpath::Value;

use super::Failure;
use super::endpoints::Server;
use super::objects::{Identity, Object};

/// The command's namespace and whether it was given (`-n`), which makes it a requirement.
#[derive(Debug, Clone)]
pub(crate) struct Namespacing {
    namespace: String,
    enforce: bool,
}

impl Namespacing {
    /// From `-n` (absent or empty: `default`, not enforced).
    pub(crate) fn new(flag: Option<&str>) -> Namespacing {
        match flag {
            Some(ns) => Namespacing {
                namespace: ns.to_owned(),
                enforce: true,
            },
            None => Namespacing {
                namespace: "default".to_owned(),
                enforce: false,
            },
        }
    }

    /// `namespace` for the objects that name none, not enforced (a kubeconfig context's, as
    /// kubectl takes it).
    pub(crate) fn defaulting(namespace: &str) -> Namespacing {
        Namespacing {
            namespace: namespace.to_owned(),
            enforce: false,
        }
    }

    /// The namespace of the objects that name none.
    pub(crate) fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Gives each manifest of a namespaced kind its namespace; refuses one naming another
    /// namespace than an explicit `-n`.
    pub(crate) fn manifests(&self, server: &Server, objects: &mut [Object]) -> Result<(), Failure> {
        for object in objects {
            if !namespaced(server, object) {
                continue;
            }
            let ns = object.text(&["metadata", "namespace"]);
            if ns.is_empty() {
                set_namespace(&mut object.value, &self.namespace);
            } else if self.enforce && ns != self.namespace {
                return Err(Failure::new(format!(
                    "{}: the namespace from the provided object {ns:?} does not match the \
                     namespace {:?}. You must pass '--namespace={ns}' to perform this operation.",
                    object.origin, self.namespace
                )));
            }
        }
        Ok(())
    }

    /// Gives each live object of a namespaced kind that names no namespace the command's.
    pub(crate) fn live(&self, server: &Server, objects: &mut [Object]) {
        for object in objects {
            if namespaced(server, object) && object.text(&["metadata", "namespace"]).is_empty() {
                set_namespace(&mut object.value, &self.namespace);
            }
        }
    }
}

/// Whether `object`'s kind is namespaced: as the schema or a CRD says, else as the object says.
pub(crate) fn namespaced(server: &Server, object: &Object) -> bool {
    let says = !object.text(&["metadata", "namespace"]).is_empty();
    server
        .resource(&object.gvk(), says)
        .map_or(says, |r| r.namespaced)
}

/// What pairs `object`: its identity, without a namespace for a cluster-scoped kind.
pub(crate) fn identity(server: &Server, object: &Object) -> Identity {
    Identity::scoped(&object.value, |gvk, says| {
        server.resource(gvk, says).map_or(says, |r| r.namespaced)
    })
}

fn set_namespace(object: &mut Value, namespace: &str) {
    if let Some(metadata) = object
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
    {
        metadata.insert("namespace", Value::from(namespace));
    }
}
