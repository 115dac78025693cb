//! Which live object a manifest applies to: both name the same group, kind, namespace and name
//! (the version may differ: the server serves every version of a kind). A cluster-scoped kind
//! pairs without a namespace (the server clears one a manifest names); a namespaced manifest
//! naming none is in the namespace the command works in, as kubectl gives it.

use std::collections::HashMap;
use std::fmt;

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

use crate::apiserver::ApiServer;

/// What pairs a manifest with its live object.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Identity {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The kind.
    pub kind: String,
    /// The namespace; empty for a cluster-scoped kind (or an object naming none).
    pub namespace: String,
    /// The name.
    pub name: String,
}

impl Identity {
    /// The identity `object` names: its group, kind, namespace and name as written.
    pub fn of(object: &Value) -> Identity {
        let gvk = kind_of(object);
        Identity {
            group: gvk.group,
            kind: gvk.kind,
            namespace: object.str_at(&["metadata", "namespace"]).to_owned(),
            name: object.str_at(&["metadata", "name"]).to_owned(),
        }
    }

    /// The identity a server pairs `object` by: without its namespace when `namespaced` says
    /// the kind is cluster-scoped (given the kind and whether the object names a namespace,
    /// which is all there is to go by for a kind no schema knows).
    pub fn scoped(
        object: &Value,
        namespaced: impl Fn(&GroupVersionKind, bool) -> bool,
    ) -> Identity {
        let mut identity = Identity::of(object);
        if !namespaced(&kind_of(object), !identity.namespace.is_empty()) {
            identity.namespace.clear();
        }
        identity
    }
}

/// `Kind.group namespace/name` (`Deployment.apps default/web`, `Namespace/team`), terminal
/// controls from input escaped.
impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = smd_value::escape_controls;
        let kind = if self.group.is_empty() {
            e(&self.kind).into_owned()
        } else {
            format!("{}.{}", e(&self.kind), e(&self.group))
        };
        if self.namespace.is_empty() {
            write!(f, "{kind}/{}", e(&self.name))
        } else {
            write!(f, "{kind} {}/{}", e(&self.namespace), e(&self.name))
        }
    }
}

fn kind_of(object: &Value) -> GroupVersionKind {
    GroupVersionKind::from_api_version(object.str_at(&["apiVersion"]), object.str_at(&["kind"]))
}

/// A manifest and the live object it applies to (`None`: a create).
#[derive(Debug, Clone)]
pub struct Paired {
    /// What paired them.
    pub identity: Identity,
    /// The live object.
    pub live: Option<Value>,
    /// The manifest, in its namespace.
    pub applied: Value,
}

/// Manifests paired with live objects.
#[derive(Debug, Clone, Default)]
pub struct Pairing {
    /// Each manifest (the first of an identity), with its live object.
    pub pairs: Vec<Paired>,
    /// The live objects no manifest names.
    pub unmatched: Vec<Value>,
    /// The manifests naming an identity an earlier manifest named (one manifest per object),
    /// by their index.
    pub repeated: Vec<usize>,
}

/// Pairs each manifest with the live object of its identity, as `smd diff` does: an object of
/// a namespaced kind (by `server`'s resources; a kind it does not serve, as the object says)
/// that names no namespace is in `namespace`.
///
/// ```
/// use smd::apiserver::ApiServer;
/// use smd::fieldpath::yaml::documents;
///
/// let live = documents("
/// {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: team}}
/// ---
/// {apiVersion: v1, kind: Namespace, metadata: {name: team}}
/// ---
/// {apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: team}}")?;
/// let manifests = documents("
/// {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
/// ---
/// {apiVersion: v1, kind: Namespace, metadata: {name: team, namespace: ignored}}
/// ---
/// {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}")?;
/// let pairing = smd::preview::pair(&ApiServer::new(), live, manifests, "team");
/// let pairs: Vec<_> = pairing.pairs.iter()
///     .map(|p| (p.identity.to_string(), p.live.is_some())).collect();
/// assert_eq!(pairs, [
///     ("ConfigMap team/a".to_owned(), true),
///     ("Namespace/team".to_owned(), true),
///     ("ConfigMap team/c".to_owned(), false),
/// ]);
/// assert_eq!(pairing.unmatched.len(), 1); // ConfigMap team/b
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pair(
    server: &ApiServer,
    live: Vec<Value>,
    manifests: Vec<Value>,
    namespace: &str,
) -> Pairing {
    let namespaced = |gvk: &GroupVersionKind, says: bool| {
        server.resource_of_kind(gvk).map_or(says, |r| r.namespaced)
    };
    let in_namespace = |mut object: Value| {
        let empty = object.str_at(&["metadata", "namespace"]).is_empty();
        if empty && namespaced(&kind_of(&object), false) {
            if let Some(meta) = object
                .as_map_mut()
                .and_then(|m| m.get_mut("metadata"))
                .and_then(Value::as_map_mut)
            {
                meta.insert("namespace", Value::from(namespace));
            }
        }
        object
    };
    let mut index: HashMap<Identity, Value> = HashMap::new();
    let mut order = Vec::new();
    for object in live.into_iter().map(&in_namespace) {
        let identity = Identity::scoped(&object, namespaced);
        if let std::collections::hash_map::Entry::Vacant(slot) = index.entry(identity) {
            order.push(slot.key().clone());
            slot.insert(object);
        }
    }
    let mut pairing = Pairing::default();
    let mut seen = std::collections::HashSet::new();
    for (i, applied) in manifests.into_iter().map(&in_namespace).enumerate() {
        let identity = Identity::scoped(&applied, namespaced);
        if !seen.insert(identity.clone()) {
            pairing.repeated.push(i);
            continue;
        }
        pairing.pairs.push(Paired {
            live: index.remove(&identity),
            identity,
            applied,
        });
    }
    pairing.unmatched = order.into_iter().filter_map(|i| index.remove(&i)).collect();
    pairing
}
