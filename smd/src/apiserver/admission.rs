//! The mutating admission plugins a default kube-apiserver 1.37 runs on a Pod
//! (`plugin/pkg/admission`): `ServiceAccount` (the `default` account, its projected token
//! volume mounted in every container), `Priority` (the priority its class gives, 0 without
//! one) and `DefaultTolerationSeconds` (five minutes on a not-ready or unreachable node).
//! They run after the field manager, so no manager owns what they add, and before the
//! registry's strategy and validation.
//!
//! Which ServiceAccounts exist: a cluster's controller makes `default` in every namespace,
//! which an offline server cannot see, so by default every account a Pod names is taken to
//! exist, with the settings of a stored one where the server holds it
//! ([`ServiceAccounts::Assumed`]). A server that holds every account of its cluster (the
//! conformance replay, whose real server runs no controller and gets `default` only where a
//! case asks for it) answers from its store alone ([`ServiceAccounts::Stored`]), refusing as
//! the real server does a Pod whose account it does not hold.

use smd_fieldpath::{Map, Value};

use super::{ApiServer, Call, core_plural, get, nested_str, service};
use crate::apiserver::http::Response;
use crate::apiserver::status::{self, Details};
use crate::apiserver::store::{ObjectKey, Store};

/// How the ServiceAccount admission plugin finds a Pod's account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServiceAccounts {
    /// Every account is taken to exist (a stored one with its settings): a cluster's
    /// controller makes `default` in each namespace, and an offline answer cannot see
    /// the others.
    #[default]
    Assumed,
    /// Only the stored accounts exist; a Pod naming another is refused (403).
    Stored,
}

/// The fields of a Pod whose values only a server chooses: the suffix of the token volume's
/// name (`kube-api-access-XXXXX`, random on a real server), wherever it is named.
pub const POD_SERVER_CHOSEN_FIELDS: &[&str] = &[
    "spec.volumes[name=kube-api-access-*].name",
    "spec.containers[*].volumeMounts[name=kube-api-access-*].name",
    "spec.initContainers[*].volumeMounts[name=kube-api-access-*].name",
];

const DEFAULT_ACCOUNT: &str = "default";
/// The annotation that marks a mirror pod.
const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";
const TOKEN_VOLUME_PREFIX: &str = "kube-api-access-";
const TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// The token's lifetime the plugin asks for (`WarnOnlyBoundTokenExpirationSeconds`).
const TOKEN_EXPIRATION_SECONDS: i64 = 3607;
/// The PriorityClasses every server makes at start, with their values.
const SYSTEM_PRIORITY_CLASSES: &[(&str, i64)] = &[
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];
const NOT_READY_TAINT: &str = "node.kubernetes.io/not-ready";
const UNREACHABLE_TAINT: &str = "node.kubernetes.io/unreachable";
const DEFAULT_TOLERATION_SECONDS: i64 = 300;

impl ApiServer {
    /// What runs on a create between the field manager and the registry's strategy: a Pod's
    /// plugins, a Service's allocations (`beginCreate`). A create through the status
    /// subresource (an update that creates) meets neither: the status store has no
    /// allocation hook and the plugins ignore subresources.
    pub(super) fn before_create(
        &mut self,
        call: &Call<'_>,
        object: &mut Value,
    ) -> Result<(), Response> {
        if !call.target.subresource.is_empty() {
            return Ok(());
        }
        match core_plural(&call.resource) {
            "pods" => admit_pod_create(
                &mut self.store,
                self.accounts,
                &call.target.namespace,
                object,
            ),
            "services" => {
                service::service_create(&mut self.store, &self.network, object, call.dry_run)
            }
            "nodes" => {
                admit_node_create(object);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The same on an update of the main resource (`stored` into `object`): a Pod's plugins;
    /// a Service's allocations (`beginUpdate`), then what its strategy sheds on a type change.
    pub(super) fn before_update(
        &mut self,
        call: &Call<'_>,
        stored: &Value,
        object: &mut Value,
    ) -> Result<(), Response> {
        if !call.target.subresource.is_empty() {
            return Ok(());
        }
        match core_plural(&call.resource) {
            "pods" => admit_pod_update(object, stored),
            "services" => {
                service::service_update(
                    &mut self.store,
                    &self.network,
                    object,
                    stored,
                    call.dry_run,
                )?;
                service::drop_type_dependent_fields(object, stored);
            }
            _ => {}
        }
        Ok(())
    }
}

/// The NodeTaint plugin: a new Node is tainted not-ready (`NoSchedule`) unless it already
/// carries that taint, so that nothing is scheduled on it before its controller says it is
/// ready.
fn admit_node_create(node: &mut Value) {
    let Some(spec) = node.as_map_mut().map(|m| m.map_entry("spec")) else {
        return;
    };
    let tainted = spec
        .get("taints")
        .and_then(Value::as_list)
        .is_some_and(|taints| {
            taints.iter().any(|t| {
                let field = |k: &str| t.as_map().and_then(|m| m.get(k)).and_then(Value::as_str);
                field("key") == Some(NOT_READY_TAINT) && field("effect") == Some("NoSchedule")
            })
        });
    if tainted {
        return;
    }
    let mut taint = Map::new();
    taint.insert("key", Value::from(NOT_READY_TAINT));
    taint.insert("effect", Value::from("NoSchedule"));
    match spec.get_mut("taints").and_then(Value::as_list_mut) {
        Some(list) => list.push(Value::Map(taint)),
        None => {
            spec.insert("taints", Value::List(vec![Value::Map(taint)]));
        }
    }
}

fn forbidden(name: &str, why: &str) -> Response {
    let subject = if name.is_empty() {
        "pods".to_owned()
    } else {
        format!("pods {}", status::quote(name))
    };
    status::failure(
        403,
        "Forbidden",
        &format!("{subject} is forbidden: {why}"),
        Some(&Details::of("", "pods", name)),
    )
}

fn spec_mut(pod: &mut Value) -> Option<&mut Map> {
    pod.as_map_mut().map(|m| m.map_entry("spec"))
}

/// The plugins on a Pod created in `namespace`, in the server's order; a refusal is the
/// first plugin's.
fn admit_pod_create(
    store: &mut Store,
    accounts: ServiceAccounts,
    namespace: &str,
    pod: &mut Value,
) -> Result<(), Response> {
    let name = nested_str(pod, &["metadata", "name"]).to_owned();
    service_account(store, accounts, namespace, &name, pod)?;
    priority(store, &name, pod)?;
    default_tolerations(pod);
    Ok(())
}

/// The plugins on an update of a Pod (not of a subresource): the priority it had stays
/// where the update leaves it out, the default tolerations come back.
fn admit_pod_update(pod: &mut Value, old: &Value) {
    for key in ["priority", "preemptionPolicy"] {
        if get(pod, &["spec", key]).is_none_or(Value::is_null)
            && let Some(v) = get(old, &["spec", key]).filter(|v| !v.is_null()).cloned()
            && let Some(spec) = spec_mut(pod)
        {
            spec.insert(key, v);
        }
    }
    default_tolerations(pod);
}

/// `ServiceAccount`: the account (`default` when none is named), the token volume and its
/// mounts unless the Pod or its account turns automounting off, the account's image pull
/// secrets when the Pod names none.
fn service_account(
    store: &mut Store,
    accounts: ServiceAccounts,
    namespace: &str,
    name: &str,
    pod: &mut Value,
) -> Result<(), Response> {
    let mirror = get(pod, &["metadata", "annotations"])
        .and_then(Value::as_map)
        .is_some_and(|a| a.contains_key(MIRROR_ANNOTATION));
    if mirror {
        return mirror_pod(name, pod);
    }
    let mut account = nested_str(pod, &["spec", "serviceAccountName"]).to_owned();
    if account.is_empty() {
        account = DEFAULT_ACCOUNT.to_owned();
        if let Some(spec) = spec_mut(pod) {
            spec.insert("serviceAccountName", Value::from(DEFAULT_ACCOUNT));
            spec.insert("serviceAccount", Value::from(DEFAULT_ACCOUNT));
        }
    }
    let key = ObjectKey::new("", "serviceaccounts", namespace, &account);
    let stored = store.get(&key).cloned();
    if stored.is_none() && accounts == ServiceAccounts::Stored {
        return Err(forbidden(
            name,
            &format!(
                "error looking up service account {namespace}/{account}: serviceaccount {} not found",
                status::quote(&account)
            ),
        ));
    }
    let automount = get(pod, &["spec", "automountServiceAccountToken"])
        .and_then(Value::as_bool)
        .or_else(|| {
            stored
                .as_ref()
                .and_then(|sa| get(sa, &["automountServiceAccountToken"]))
                .and_then(Value::as_bool)
        })
        .unwrap_or(true);
    if automount {
        mount_token(store, pod);
    }
    let pull_secrets: Vec<Value> = stored
        .as_ref()
        .and_then(|sa| get(sa, &["imagePullSecrets"]))
        .and_then(Value::as_list)
        .unwrap_or_default()
        .iter()
        .map(|s| {
            let mut m = Map::new();
            m.insert(
                "name",
                Value::from(
                    s.as_map()
                        .and_then(|m| m.get("name"))
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                ),
            );
            Value::Map(m)
        })
        .collect();
    let has_own = get(pod, &["spec", "imagePullSecrets"])
        .and_then(Value::as_list)
        .is_some_and(|l| !l.is_empty());
    if !has_own
        && !pull_secrets.is_empty()
        && let Some(spec) = spec_mut(pod)
    {
        spec.insert("imagePullSecrets", Value::List(pull_secrets));
    }
    Ok(())
}

/// A mirror pod (a static pod's copy, which the kubelet posts) gets no account; it may name
/// none, reference no secret, project no token.
fn mirror_pod(name: &str, pod: &Value) -> Result<(), Response> {
    if !nested_str(pod, &["spec", "serviceAccountName"]).is_empty() {
        return Err(forbidden(
            name,
            "a mirror pod may not reference service accounts",
        ));
    }
    if references_secrets(pod) {
        return Err(forbidden(name, "a mirror pod may not reference secrets"));
    }
    let projects_token = list(pod, &["spec", "volumes"]).iter().any(|v| {
        list(v, &["projected", "sources"])
            .iter()
            .any(|s| get(s, &["serviceAccountToken"]).is_some())
    });
    if projects_token {
        return Err(forbidden(
            name,
            "a mirror pod may not use ServiceAccountToken volume projections",
        ));
    }
    Ok(())
}

fn list<'a>(value: &'a Value, path: &[&str]) -> &'a [Value] {
    get(value, path)
        .and_then(Value::as_list)
        .unwrap_or_default()
}

/// `VisitPodSecretNames` finds one: image pull secrets, the secrets volumes name (secret and
/// projected ones, and the `secretRef` of the plugins that take credentials), and those
/// every container's environment reads.
fn references_secrets(pod: &Value) -> bool {
    if !list(pod, &["spec", "imagePullSecrets"]).is_empty() {
        return true;
    }
    let volumes = list(pod, &["spec", "volumes"]).iter().any(|v| {
        get(v, &["secret"]).is_some()
            || list(v, &["projected", "sources"])
                .iter()
                .any(|s| get(s, &["secret"]).is_some())
            || SECRET_REF_VOLUMES
                .iter()
                .any(|(kind, field)| get(v, &[kind, field]).is_some())
            || !nested_str(v, &["azureFile", "secretName"]).is_empty()
    });
    let containers = ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|key| list(pod, &["spec", key]))
        .any(|c| {
            list(c, &["env"])
                .iter()
                .any(|e| get(e, &["valueFrom", "secretKeyRef"]).is_some())
                || list(c, &["envFrom"])
                    .iter()
                    .any(|e| get(e, &["secretRef"]).is_some())
        });
    volumes || containers
}

/// The volume sources that refer to a secret holding their credentials, and the field
/// (an azureFile volume names one by `secretName`, counted when not empty).
const SECRET_REF_VOLUMES: &[(&str, &str)] = &[
    ("cephfs", "secretRef"),
    ("cinder", "secretRef"),
    ("flexVolume", "secretRef"),
    ("rbd", "secretRef"),
    ("scaleIO", "secretRef"),
    ("iscsi", "secretRef"),
    ("storageos", "secretRef"),
    ("csi", "nodePublishSecretRef"),
];

/// The token volume (an existing `kube-api-access-*` volume, or a new one with a generated
/// suffix) mounted read-only in every init container and container that mounts nothing at
/// the token's path.
fn mount_token(store: &mut Store, pod: &mut Value) {
    let existing = get(pod, &["spec", "volumes"])
        .and_then(Value::as_list)
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v.as_map()?.get("name")?.as_str())
        .find(|n| n.starts_with(TOKEN_VOLUME_PREFIX))
        .map(str::to_owned);
    let Some(spec) = spec_mut(pod) else {
        return;
    };
    let lacks_mount = |c: &Value| {
        !c.as_map()
            .and_then(|m| m.get("volumeMounts"))
            .and_then(Value::as_list)
            .unwrap_or_default()
            .iter()
            .any(|m| {
                m.as_map()
                    .and_then(|m| m.get("mountPath"))
                    .and_then(Value::as_str)
                    == Some(TOKEN_MOUNT_PATH)
            })
    };
    let needs_volume = ["initContainers", "containers"].iter().any(|list| {
        spec.get(list)
            .and_then(Value::as_list)
            .is_some_and(|l| l.iter().any(lacks_mount))
    });
    if !needs_volume {
        return;
    }
    let volume_name = match &existing {
        Some(name) => name.clone(),
        None => {
            let name = format!("{TOKEN_VOLUME_PREFIX}{}", store.next_name_suffix());
            store.choose(&name);
            name
        }
    };
    let mut mount = Map::new();
    mount.insert("name", Value::from(volume_name.as_str()));
    mount.insert("readOnly", Value::Bool(true));
    mount.insert("mountPath", Value::from(TOKEN_MOUNT_PATH));
    for list in ["initContainers", "containers"] {
        let Some(containers) = spec.get_mut(list).and_then(Value::as_list_mut) else {
            continue;
        };
        for c in containers.iter_mut() {
            if !lacks_mount(c) {
                continue;
            }
            if let Some(m) = c.as_map_mut() {
                let mounts = m
                    .get_mut("volumeMounts")
                    .and_then(Value::as_list_mut)
                    .map(std::mem::take)
                    .unwrap_or_default();
                let mut mounts = mounts;
                mounts.push(Value::Map(mount.clone()));
                m.insert("volumeMounts", Value::List(mounts));
            }
        }
    }
    if existing.is_none() {
        let mut volumes = spec
            .get_mut("volumes")
            .and_then(Value::as_list_mut)
            .map(std::mem::take)
            .unwrap_or_default();
        volumes.push(token_volume(&volume_name));
        spec.insert("volumes", Value::List(volumes));
    }
}

/// The projected volume of the token, the cluster's CA and the namespace.
fn token_volume(name: &str) -> Value {
    let json = serde_json::json!({
        "name": name,
        "projected": {
            "sources": [
                {"serviceAccountToken": {"expirationSeconds": TOKEN_EXPIRATION_SECONDS, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
            ],
            "defaultMode": 420
        }
    });
    Value::from_json(&json.to_string()).unwrap_or(Value::Null)
}

/// `Priority` on a create: the class named (or the global default class, or none: 0 and
/// `PreemptLowerPriority`) decides the priority and the preemption policy; values the Pod
/// sets otherwise are refused.
fn priority(store: &Store, name: &str, pod: &mut Value) -> Result<(), Response> {
    let class = nested_str(pod, &["spec", "priorityClassName"]).to_owned();
    let (class, value, policy) = if class.is_empty() {
        default_priority_class(store)
            .unwrap_or_else(|| (String::new(), 0, "PreemptLowerPriority".to_owned()))
    } else {
        match priority_class(store, &class) {
            Some((value, policy)) => (class, value, policy),
            None => {
                return Err(forbidden(
                    name,
                    &format!("no PriorityClass with name {class} was found"),
                ));
            }
        }
    };
    if let Some(given) = get(pod, &["spec", "priority"]).and_then(Value::as_int)
        && given != value
    {
        return Err(forbidden(
            name,
            &format!(
                "the integer value of priority ({given}) must not be provided in pod spec; priority admission controller computed {value} from the given PriorityClass name"
            ),
        ));
    }
    let given_policy = nested_str(pod, &["spec", "preemptionPolicy"]);
    if !given_policy.is_empty() && given_policy != policy {
        return Err(forbidden(
            name,
            &format!(
                "the string value of PreemptionPolicy ({given_policy}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"
            ),
        ));
    }
    if let Some(spec) = spec_mut(pod) {
        if class.is_empty() {
            spec.remove("priorityClassName");
        } else {
            spec.insert("priorityClassName", Value::from(class.as_str()));
        }
        spec.insert("priority", Value::Int(value));
        spec.insert("preemptionPolicy", Value::from(policy.as_str()));
    }
    Ok(())
}

/// A PriorityClass's value and preemption policy: a stored one, or one every server has.
fn priority_class(store: &Store, name: &str) -> Option<(i64, String)> {
    let key = ObjectKey::new("scheduling.k8s.io", "priorityclasses", "", name);
    if let Some(pc) = store.get(&key) {
        return Some(class_terms(pc));
    }
    SYSTEM_PRIORITY_CLASSES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| (*v, "PreemptLowerPriority".to_owned()))
}

fn class_terms(pc: &Value) -> (i64, String) {
    let value = get(pc, &["value"]).and_then(Value::as_int).unwrap_or(0);
    let policy = match nested_str(pc, &["preemptionPolicy"]) {
        "" => "PreemptLowerPriority",
        p => p,
    };
    (value, policy.to_owned())
}

/// The stored class marked `globalDefault` (the lowest value of several).
fn default_priority_class(store: &Store) -> Option<(String, i64, String)> {
    store
        .iter()
        .filter(|(k, pc)| {
            k.group == "scheduling.k8s.io"
                && k.plural == "priorityclasses"
                && get(pc, &["globalDefault"]).and_then(Value::as_bool) == Some(true)
        })
        .map(|(k, pc)| {
            let (value, policy) = class_terms(pc);
            (k.name.clone(), value, policy)
        })
        .min_by_key(|(_, value, _)| *value)
}

/// `DefaultTolerationSeconds`: a Pod that does not tolerate a not-ready or an unreachable
/// node (`NoExecute`) tolerates each for five minutes.
fn default_tolerations(pod: &mut Value) {
    let Some(spec) = spec_mut(pod) else {
        return;
    };
    let mut tolerations = spec
        .get("tolerations")
        .and_then(Value::as_list)
        .map(<[Value]>::to_vec)
        .unwrap_or_default();
    let tolerates = |taint: &str| {
        tolerations.iter().any(|t| {
            let field = |k: &str| {
                t.as_map()
                    .and_then(|m| m.get(k))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
            };
            (field("key") == taint || field("key").is_empty())
                && (field("effect") == "NoExecute" || field("effect").is_empty())
        })
    };
    let missing: Vec<&str> = [NOT_READY_TAINT, UNREACHABLE_TAINT]
        .into_iter()
        .filter(|t| !tolerates(t))
        .collect();
    if missing.is_empty() {
        return;
    }
    for taint in missing {
        let mut t = Map::new();
        t.insert("key", Value::from(taint));
        t.insert("operator", Value::from("Exists"));
        t.insert("effect", Value::from("NoExecute"));
        t.insert("tolerationSeconds", Value::Int(DEFAULT_TOLERATION_SECONDS));
        tolerations.push(Value::Map(t));
    }
    spec.insert("tolerations", Value::List(tolerations));
}
