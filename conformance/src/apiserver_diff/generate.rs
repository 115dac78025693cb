//! Random request sequences for the differential run against the real kube-apiserver: every
//! request kind of issue 12 item 3 over the built-in kinds users apply and two custom resources.
//!
//! A sequence works on one object (its kind and name fixed), so that `{resourceVersion}` in a
//! body means that object's latest version on both sides. Its fields are drawn from a few knobs
//! (replicas, image, a label, an optional part, a port) that steps change one at a time, and
//! several managers apply, update and patch different parts of it, so that conflicts, shared
//! ownership and removals happen. Two knobs serve the server's write path beyond the field
//! manager (issue 13): `invalid` breaks one of the kind's validation rules (out of range, not
//! supported, required, a selector that does not match, an immutable field changed), so that a
//! fifth of the steps are refused with 422; `explicit_defaults` spells out values the server
//! would default, which most creates leave to it. Case `i` of seed `s` depends on nothing else.
//!
//! Reads of the collection are inserted into some sequences ([`insert_reads`]), drawn from a
//! generator of their own so that the writes of a sequence are the same with or without them:
//! a list (label and field selectors, a limit) and a watch from the resourceVersion an earlier
//! step answered (or from 0, or from now). A watch's stream ends only when the server's
//! `timeoutSeconds` runs out, a whole second at least, so watches are in a fraction of the
//! sequences only (see [`WATCH_PERCENT`]).

use serde_json::{Map, Value as Json, json};

use crate::differential::rng::Rng;

/// A resource the sequences write.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// `kind`.
    pub kind: &'static str,
    /// `apiVersion`.
    pub api_version: &'static str,
    /// The URL's plural.
    pub plural: &'static str,
    /// Namespaced (everything but Namespace).
    pub namespaced: bool,
    /// Serves the scale subresource.
    pub scale: bool,
    /// Takes strategic merge patches (built-ins only).
    pub built_in: bool,
}

const fn kind(
    kind: &'static str,
    api_version: &'static str,
    plural: &'static str,
    scale: bool,
) -> Kind {
    Kind {
        kind,
        api_version,
        plural,
        namespaced: true,
        scale,
        built_in: true,
    }
}

/// Every kind a sequence may write.
pub const KINDS: &[Kind] = &[
    kind("Deployment", "apps/v1", "deployments", true),
    kind("StatefulSet", "apps/v1", "statefulsets", true),
    kind("DaemonSet", "apps/v1", "daemonsets", false),
    kind("Job", "batch/v1", "jobs", false),
    kind("CronJob", "batch/v1", "cronjobs", false),
    kind("Service", "v1", "services", false),
    kind("ConfigMap", "v1", "configmaps", false),
    kind("Secret", "v1", "secrets", false),
    kind("Ingress", "networking.k8s.io/v1", "ingresses", false),
    kind(
        "HorizontalPodAutoscaler",
        "autoscaling/v2",
        "horizontalpodautoscalers",
        false,
    ),
    kind(
        "PodDisruptionBudget",
        "policy/v1",
        "poddisruptionbudgets",
        false,
    ),
    kind(
        "NetworkPolicy",
        "networking.k8s.io/v1",
        "networkpolicies",
        false,
    ),
    kind("Role", "rbac.authorization.k8s.io/v1", "roles", false),
    kind(
        "RoleBinding",
        "rbac.authorization.k8s.io/v1",
        "rolebindings",
        false,
    ),
    Kind {
        kind: "Namespace",
        api_version: "v1",
        plural: "namespaces",
        namespaced: false,
        scale: false,
        built_in: true,
    },
    kind("ServiceAccount", "v1", "serviceaccounts", false),
    kind(
        "PersistentVolumeClaim",
        "v1",
        "persistentvolumeclaims",
        false,
    ),
    kind("Pod", "v1", "pods", false),
    Kind {
        kind: "Widget",
        api_version: "example.com/v1",
        plural: "widgets",
        namespaced: true,
        scale: true,
        built_in: false,
    },
    // A custom resource whose schema validates its values (`crd-validation.yaml`); its
    // v1alpha1 takes any value, so that v1 updates meet stored values v1 refuses (ratcheting).
    Kind {
        kind: "Knob",
        api_version: "checks.example.com/v1",
        plural: "knobs",
        namespaced: true,
        scale: true,
        built_in: false,
    },
];

/// The CRDs of the custom resources the sequences write (those of the real-server scenarios).
pub fn crds() -> Result<Vec<Json>, String> {
    let mut out = Vec::new();
    for (name, text) in [
        (
            "widget.yaml",
            include_str!("../../apiserver/scenarios/widget.yaml"),
        ),
        (
            "crd-validation.yaml",
            include_str!("../../apiserver/scenarios/crd-validation.yaml"),
        ),
    ] {
        let file = smd_fieldpath::yaml::from_str(text).map_err(|e| format!("{name}: {e}"))?;
        let file = serde_json::to_value(file).map_err(|e| e.to_string())?;
        let crds = file["crds"]
            .as_array()
            .ok_or_else(|| format!("{name} declares no CRD"))?;
        out.extend(crds.iter().cloned());
    }
    Ok(out)
}

/// The values a sequence's object is drawn from; a step changes one of them at a time.
#[derive(Debug, Clone)]
struct Knobs {
    replicas: i64,
    image: &'static str,
    tier: &'static str,
    extra: bool,
    port: i64,
    /// The object breaks one of its kind's validation rules (which one: `tier`).
    invalid: bool,
    /// The object spells out values the server would default.
    explicit_defaults: bool,
}

impl Knobs {
    fn random(rng: &mut Rng) -> Knobs {
        Knobs {
            replicas: rng.range(1, 3) as i64,
            image: rng.pick(&["nginx:1.27", "nginx:1.28"]),
            tier: rng.pick(&["web", "api"]),
            extra: rng.percent(50),
            port: rng.pick(&[80, 8080]),
            invalid: rng.percent(50),
            explicit_defaults: rng.percent(20),
        }
    }

    fn mutate(&mut self, rng: &mut Rng) {
        match rng.below(9) {
            0 => self.replicas = rng.range(1, 4) as i64,
            1 => self.image = rng.pick(&["nginx:1.27", "nginx:1.28", "busybox:1.36"]),
            2 => self.tier = rng.pick(&["web", "api", "db"]),
            3 => self.extra = !self.extra,
            4 => self.port = rng.pick(&[80, 8080, 9090]),
            5..=7 => self.invalid = rng.percent(60),
            _ => self.explicit_defaults = !self.explicit_defaults,
        }
    }

    /// Which of a kind's broken variants an invalid object takes.
    fn variant(&self) -> usize {
        match self.tier {
            "web" => 0,
            "api" => 1,
            _ => 2,
        }
    }
}

const MANAGERS: &[&str] = &["kubectl", "helm", "ops"];
const NAME: &str = "app";

fn object_name(k: &Kind) -> &'static str {
    if k.namespaced { NAME } else { "{namespace}-ns" }
}

fn collection_path(k: &Kind) -> String {
    let prefix = match k.api_version.split_once('/') {
        Some((group, version)) => format!("/apis/{group}/{version}"),
        None => format!("/api/{}", k.api_version),
    };
    if k.namespaced {
        format!("{prefix}/namespaces/{{namespace}}/{}", k.plural)
    } else {
        format!("{prefix}/{}", k.plural)
    }
}

fn object_path(k: &Kind) -> String {
    format!("{}/{}", collection_path(k), object_name(k))
}

fn pod_spec(n: &Knobs, restart: Option<&str>) -> Json {
    let mut container = json!({"name": "main", "image": n.image});
    if n.extra {
        container["ports"] = json!([{"containerPort": n.port}]);
        container["env"] = json!([{"name": "MODE", "value": n.tier}]);
    }
    let mut spec = json!({"containers": [container]});
    if let Some(r) = restart {
        spec["restartPolicy"] = json!(r);
    }
    spec
}

fn template(n: &Knobs, restart: Option<&str>) -> Json {
    json!({"metadata": {"labels": {"app": NAME, "tier": n.tier}}, "spec": pod_spec(n, restart)})
}

/// The object's spec (or data) as the knobs say, by kind: the top-level fields besides
/// apiVersion, kind and metadata.
fn content(k: &Kind, n: &Knobs) -> Map<String, Json> {
    let selector = json!({"matchLabels": {"app": NAME}});
    let v = match k.kind {
        "Deployment" => {
            json!({"spec": {"replicas": n.replicas, "selector": selector, "template": template(n, None)}})
        }
        "StatefulSet" => json!({"spec": {"replicas": n.replicas, "serviceName": NAME,
            "selector": selector, "template": template(n, None)}}),
        "DaemonSet" => json!({"spec": {"selector": selector, "template": template(n, None)}}),
        "Job" => {
            json!({"spec": {"backoffLimit": n.replicas, "template": template(n, Some("Never"))}})
        }
        "CronJob" => json!({"spec": {"schedule": if n.extra { "*/5 * * * *" } else { "0 * * * *" },
            "jobTemplate": {"spec": {"template": template(n, Some("OnFailure"))}}}}),
        "Service" => {
            let mut port = json!({"name": "http", "port": n.port, "targetPort": n.port});
            if n.extra {
                port["protocol"] = json!("TCP");
            }
            json!({"spec": {"selector": {"app": NAME}, "ports": [port]}})
        }
        "ConfigMap" => {
            let mut data = json!({"tier": n.tier, "replicas": n.replicas.to_string()});
            if n.extra {
                data["image"] = json!(n.image);
            }
            json!({"data": data})
        }
        "Secret" => {
            let mut s = json!({"type": "Opaque", "data": {"tier": if n.tier == "web" { "d2Vi" } else { "YXBp" }}});
            if n.extra {
                s["stringData"] = json!({"image": n.image});
            }
            s
        }
        "Ingress" => json!({"spec": {"rules": [{"host": format!("{}.example.com", n.tier),
            "http": {"paths": [{"path": "/", "pathType": "Prefix",
                "backend": {"service": {"name": NAME, "port": {"number": n.port}}}}]}}]}}),
        "HorizontalPodAutoscaler" if k.api_version == "autoscaling/v1" => json!({"spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": NAME},
            "minReplicas": n.replicas, "maxReplicas": 5,
            "targetCPUUtilizationPercentage": if n.extra { 60 } else { 80 }}}),
        "HorizontalPodAutoscaler" => json!({"spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": NAME},
            "minReplicas": n.replicas, "maxReplicas": 5,
            "metrics": [{"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": if n.extra { 60 } else { 80 }}}}]}}),
        "PodDisruptionBudget" => {
            json!({"spec": {"minAvailable": n.replicas, "selector": selector}})
        }
        "NetworkPolicy" => {
            let mut spec = json!({"podSelector": selector, "policyTypes": ["Ingress"]});
            if n.extra {
                spec["ingress"] = json!([{"ports": [{"protocol": "TCP", "port": n.port}]}]);
            }
            json!({"spec": spec})
        }
        "Role" => {
            let mut verbs = vec!["get", "list"];
            if n.extra {
                verbs.push("watch");
            }
            json!({"rules": [{"apiGroups": [""], "resources": ["pods", "configmaps"], "verbs": verbs}]})
        }
        "RoleBinding" => {
            json!({"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": NAME},
            "subjects": [{"kind": "ServiceAccount", "name": if n.extra { "default" } else { NAME },
                "namespace": "{namespace}"}]})
        }
        "Namespace" => json!({}),
        "ServiceAccount" => json!({"automountServiceAccountToken": n.extra}),
        "PersistentVolumeClaim" => json!({"spec": {"accessModes": ["ReadWriteOnce"],
            "resources": {"requests": {"storage": format!("{}Gi", n.replicas)}}}}),
        "Pod" => json!({"spec": pod_spec(n, None)}),
        "Knob" => {
            let mode = if n.tier == "api" { "safe" } else { "fast" };
            let mut spec = json!({"size": n.replicas, "mode": mode, "labels": {"tier": n.tier},
                "ports": [{"port": n.port, "name": "http"}]});
            if n.extra {
                spec["tags"] = json!([n.tier, "extra"]);
            }
            json!({"spec": spec})
        }
        _ => {
            let mut spec = json!({"replicas": n.replicas, "color": n.tier});
            if n.extra {
                spec["sizes"] = json!(["s", "m"]);
            }
            json!({"spec": spec})
        }
    };
    let mut v = v;
    if n.explicit_defaults {
        spell_out_defaults(k, &mut v);
    }
    if n.invalid {
        break_rule(k, n.variant(), &mut v);
    }
    match v {
        Json::Object(m) => m,
        _ => Map::new(),
    }
}

/// The pod spec inside an object's content, if the kind has one.
fn pod_spec_mut<'a>(k: &Kind, v: &'a mut Json) -> Option<&'a mut Json> {
    let spec = match k.kind {
        "Pod" => v.get_mut("spec"),
        "CronJob" => v.pointer_mut("/spec/jobTemplate/spec/template/spec"),
        _ => v.pointer_mut("/spec/template/spec"),
    }?;
    spec.is_object().then_some(spec)
}

/// Values the server would default, written out as the server would write them (so that a
/// create sends them and the server fills nothing there).
fn spell_out_defaults(k: &Kind, v: &mut Json) {
    if let Some(spec) = pod_spec_mut(k, v) {
        if spec.get("restartPolicy").is_none() {
            spec["restartPolicy"] = json!("Always");
        }
        spec["dnsPolicy"] = json!("ClusterFirst");
        spec["terminationGracePeriodSeconds"] = json!(30);
        if let Some(Json::Object(c)) = spec.pointer_mut("/containers/0") {
            c.insert("imagePullPolicy".into(), json!("IfNotPresent"));
            c.insert("terminationMessagePolicy".into(), json!("File"));
        }
    }
    let spec = &mut v["spec"];
    match k.kind {
        "Deployment" => {
            spec["revisionHistoryLimit"] = json!(10);
            spec["progressDeadlineSeconds"] = json!(600);
        }
        "StatefulSet" => spec["podManagementPolicy"] = json!("OrderedReady"),
        "DaemonSet" => spec["revisionHistoryLimit"] = json!(10),
        "Job" => spec["completions"] = json!(1),
        "CronJob" => spec["concurrencyPolicy"] = json!("Allow"),
        "Service" => {
            spec["type"] = json!("ClusterIP");
            spec["sessionAffinity"] = json!("None");
        }
        "PersistentVolumeClaim" => spec["volumeMode"] = json!("Filesystem"),
        _ => {}
    }
}

/// Breaks one validation rule of the kind (`variant` picks which): a value out of range or
/// not supported, a required field left empty, a selector that does not match, or a change
/// to a field that is immutable once created (refused only by an update).
fn break_rule(k: &Kind, variant: usize, v: &mut Json) {
    let spec = &mut v["spec"];
    match (k.kind, variant) {
        ("DaemonSet", 0) => spec["updateStrategy"] = json!({"type": "Bogus"}),
        ("Deployment" | "StatefulSet", 0) => spec["replicas"] = json!(-1),
        ("Deployment" | "StatefulSet" | "DaemonSet", 1) => {
            spec["template"]["metadata"]["labels"] = json!({"app": "other"});
        }
        ("Deployment" | "DaemonSet", _) => {
            spec["selector"]["matchLabels"]["tier"] = json!("web");
            spec["template"]["metadata"]["labels"]["tier"] = json!("web");
        }
        ("StatefulSet", _) => spec["serviceName"] = json!("other"),
        ("Job", 0) => spec["template"]["spec"]["restartPolicy"] = json!("Always"),
        ("Job", 1) => spec["parallelism"] = json!(-1),
        ("Job", _) => spec["completions"] = json!(-1),
        ("CronJob", 0) => spec["schedule"] = json!("every night"),
        ("CronJob", 1) => spec["concurrencyPolicy"] = json!("Sometimes"),
        ("CronJob", _) => spec["startingDeadlineSeconds"] = json!(-5),
        ("Service", 0) => spec["ports"][0]["port"] = json!(70000),
        ("Service", 1) => spec["ports"] = json!([]),
        ("Service", _) => spec["type"] = json!("Bogus"),
        ("ConfigMap", 0) => v["data"]["bad key"] = json!("x"),
        ("ConfigMap", 1) => v["binaryData"] = json!({"tier": "eA=="}),
        ("Secret", 0) => v["type"] = json!("kubernetes.io/tls"),
        ("Secret", 1) => v["data"]["bad key"] = json!("eA=="),
        ("Secret", _) => v["type"] = json!("example.com/custom"),
        ("Ingress", 0) => {
            if let Some(Json::Object(p)) = spec.pointer_mut("/rules/0/http/paths/0") {
                p.remove("pathType");
            }
        }
        ("Ingress", 1) => spec["rules"][0]["http"]["paths"][0]["path"] = json!("relative"),
        ("Ingress", _) => spec["rules"][0]["host"] = json!("Bad_Host"),
        ("HorizontalPodAutoscaler", 0) => spec["minReplicas"] = json!(0),
        ("HorizontalPodAutoscaler", 1) => spec["maxReplicas"] = json!(0),
        ("HorizontalPodAutoscaler", _) if k.api_version == "autoscaling/v1" => {
            spec["targetCPUUtilizationPercentage"] = json!(0);
        }
        ("HorizontalPodAutoscaler", _) => spec["metrics"][0]["type"] = json!("Bogus"),
        ("PodDisruptionBudget", 0) => spec["maxUnavailable"] = json!(1),
        ("PodDisruptionBudget", 1) => spec["minAvailable"] = json!("150%"),
        ("PodDisruptionBudget", _) => spec["selector"]["matchLabels"]["app"] = json!("bad value!"),
        ("NetworkPolicy", 0) => {
            spec["ingress"] = json!([{"from": [{"ipBlock": {"cidr": "10.0.0.300/8"}}]}]);
        }
        ("NetworkPolicy", 1) => spec["ingress"] = json!([{"ports": [{"protocol": "ICMP"}]}]),
        ("NetworkPolicy", _) => spec["policyTypes"] = json!(["Bogus"]),
        ("Role", 0) => v["rules"][0]["verbs"] = json!([]),
        ("Role", 1) => {
            if let Some(Json::Object(rule)) = v.pointer_mut("/rules/0") {
                rule.remove("apiGroups");
            }
        }
        ("RoleBinding", 0) => v["roleRef"]["kind"] = json!("Bogus"),
        ("RoleBinding", 1) => v["roleRef"]["name"] = json!("other"),
        ("RoleBinding", _) => v["subjects"][0]["kind"] = json!("Bogus"),
        ("PersistentVolumeClaim", 0) => spec["accessModes"] = json!([]),
        ("PersistentVolumeClaim", 1) => spec["resources"]["requests"]["storage"] = json!("0"),
        ("PersistentVolumeClaim", _) => spec["accessModes"] = json!(["Sometimes"]),
        ("Pod", 0) => spec["restartPolicy"] = json!("Sometimes"),
        ("Pod", 1) => spec["containers"][0]["name"] = json!("Bad_Name"),
        ("Pod", _) => spec["containers"][0]["image"] = json!(""),
        ("Knob", 0) => spec["size"] = json!(50),
        ("Knob", 1) => spec["mode"] = json!("reckless"),
        ("Knob", _) => spec["ports"][0]["name"] = json!("toolongname"),
        // The others break a rule of their metadata (see `metadata`).
        _ => {}
    }
}

/// Whether an invalid object of the kind breaks a rule of its metadata rather than of its
/// content.
fn breaks_metadata(k: &Kind, variant: usize) -> bool {
    match k.kind {
        "Namespace" | "ServiceAccount" | "Widget" => true,
        "ConfigMap" | "Role" => variant == 2,
        _ => false,
    }
}

fn status(k: &Kind, n: &Knobs) -> Json {
    match k.kind {
        "Deployment" | "StatefulSet" => json!({"replicas": n.replicas, "observedGeneration": 1}),
        "DaemonSet" => {
            json!({"currentNumberScheduled": n.replicas, "desiredNumberScheduled": n.replicas,
            "numberMisscheduled": 0, "numberReady": 0})
        }
        "Job" => json!({"active": n.replicas}),
        "CronJob" => json!({"lastScheduleTime": "2026-01-01T00:00:00Z"}),
        "Service" | "Ingress" => json!({"loadBalancer": {}}),
        "HorizontalPodAutoscaler" => {
            json!({"currentReplicas": n.replicas, "desiredReplicas": n.replicas})
        }
        "PodDisruptionBudget" => json!({"currentHealthy": n.replicas, "desiredHealthy": 1,
            "disruptionsAllowed": 0, "expectedPods": n.replicas}),
        "Namespace" | "PersistentVolumeClaim" => {
            json!({"phase": if n.extra { "Active" } else { "Pending" }})
        }
        "Pod" => json!({"phase": "Pending", "message": n.tier}),
        "Widget" => json!({"replicas": n.replicas, "phase": n.tier}),
        "Knob" => {
            json!({"replicas": n.replicas, "phase": if n.extra { "Ready" } else { "Failed" }})
        }
        _ => json!({"observedGeneration": 1}),
    }
}

fn metadata(k: &Kind, n: &Knobs) -> Json {
    let mut labels = json!({"app": NAME, "tier": n.tier});
    if n.extra {
        labels["extra"] = json!("yes");
    }
    let mut meta = json!({"name": object_name(k), "labels": labels});
    if n.invalid && breaks_metadata(k, n.variant()) {
        match n.variant() {
            0 => meta["labels"]["tier"] = json!("bad value!"),
            1 => meta["annotations"] = json!({"bad/key/x": "1"}),
            _ => meta["finalizers"] = json!(["Bad_Finalizer"]),
        }
    }
    meta
}

fn full_object(k: &Kind, n: &Knobs) -> Json {
    let mut m = Map::new();
    m.insert("apiVersion".into(), json!(k.api_version));
    m.insert("kind".into(), json!(k.kind));
    m.insert("metadata".into(), metadata(k, n));
    m.extend(content(k, n));
    Json::Object(m)
}

/// Part of the object: each label and each top-level field of spec (or data) kept or not.
fn partial_object(k: &Kind, n: &Knobs, rng: &mut Rng) -> Json {
    let mut o = full_object(k, n);
    if let Some(labels) = o["metadata"]["labels"].as_object_mut() {
        labels.retain(|_, _| rng.percent(60));
    }
    for key in ["spec", "data", "rules"] {
        match o.get_mut(key) {
            Some(Json::Object(m)) => m.retain(|_, _| rng.percent(60)),
            Some(_) if rng.percent(40) => {
                if let Some(m) = o.as_object_mut() {
                    m.remove(key);
                }
            }
            _ => {}
        }
    }
    o
}

/// The versions besides its own that a kind is served at by a default 1.37 server (its
/// discovery, `conformance/apiserver/scheme/goldens/served.json`): only the
/// HorizontalPodAutoscaler's `autoscaling/v1`.
fn other_versions(k: &Kind) -> &'static [&'static str] {
    match k.kind {
        "HorizontalPodAutoscaler" => &["autoscaling/v1"],
        "Knob" => &["checks.example.com/v1alpha1"],
        _ => &[],
    }
}

/// The share of sequences with a list step inserted.
pub const LIST_PERCENT: usize = 30;
/// The share of sequences with a watch step inserted. A watch costs the second its
/// `timeoutSeconds` holds the stream open (it needs no second of its own besides: a read writes
/// no time), while every write step waits for a fresh second anyway, and 96 sequences run at
/// once. Measured on 2 cores, seed 1, 1,000 sequences: 57.6 s without reads, 60 to 65 s with
/// these shares of lists and watches.
pub const WATCH_PERCENT: usize = 25;

/// The label selectors a read draws from: every operator, over the labels the knobs set.
const LABEL_SELECTORS: &[&str] = &[
    "app=app",
    "tier=web",
    "tier==api",
    "tier!=web",
    "tier in (web,api)",
    "tier notin (db)",
    "extra",
    "!extra",
    "app=app,tier=api",
];

/// A read's selectors: a label selector (in `labels` percent of reads) or not, and a field
/// selector (always, for the cluster-wide Namespaces, the case's own object: other cases' are
/// there too).
fn read_query(k: &Kind, labels: usize, rng: &mut Rng) -> Map<String, Json> {
    let mut query = Map::new();
    if rng.percent(labels) {
        query.insert("labelSelector".into(), json!(rng.pick(LABEL_SELECTORS)));
    }
    if !k.namespaced {
        query.insert(
            "fieldSelector".into(),
            json!(format!("metadata.name={}", object_name(k))),
        );
    } else if rng.percent(20) {
        let field = rng.pick(&[
            "metadata.name=app",
            "metadata.name!=app",
            "metadata.namespace={namespace}",
        ]);
        query.insert("fieldSelector".into(), json!(field));
    }
    query
}

/// A list of the sequence's collection.
fn list_step(k: &Kind, rng: &mut Rng) -> Json {
    let mut query = read_query(k, 50, rng);
    if rng.percent(25) {
        query.insert("limit".into(), json!(1));
    }
    if rng.percent(15) {
        query.insert("resourceVersion".into(), json!("0"));
    }
    let mut s = json!({"method": "GET", "path": collection_path(k)});
    if !query.is_empty() {
        s["query"] = Json::Object(query);
    }
    s
}

/// A watch of the sequence's collection with `before` steps before it: mostly from the
/// resourceVersion an earlier one answered (not the last, when there is a choice: its writes
/// after are the events), else from 0 or from now (both start with the objects there are).
fn watch_step(k: &Kind, before: usize, rng: &mut Rng) -> Json {
    let mut query = read_query(k, 30, rng);
    query.insert("watch".into(), json!("true"));
    query.insert("timeoutSeconds".into(), json!(1));
    match rng.below(10) {
        0 => {
            query.insert("resourceVersion".into(), json!("0"));
        }
        1 => {}
        _ => {
            let from = rng.range(1, before.saturating_sub(1).max(1));
            query.insert(
                "resourceVersion".into(),
                json!(format!("{{resourceVersion@{from}}}")),
            );
        }
    }
    json!({"method": "GET", "path": collection_path(k), "query": query})
}

/// Inserts a list and a watch into some sequences, never before the first step (which makes
/// the object), with `rng` their own generator. A watch is mostly last, where it sees the
/// whole sequence.
fn insert_reads(k: &Kind, steps: &mut Vec<Json>, rng: &mut Rng) {
    if rng.percent(LIST_PERCENT) {
        let at = rng.range(1, steps.len());
        steps.insert(at, list_step(k, rng));
    }
    if rng.percent(WATCH_PERCENT) {
        let at = if rng.percent(60) {
            steps.len()
        } else {
            rng.range(1, steps.len())
        };
        steps.insert(at, watch_step(k, at, rng));
    }
}

/// A case: `{name, serviceAccount, steps}`, as a scenario case.
pub fn sequence(seed: u64, index: u64, name: &str) -> Json {
    let mut rng = Rng::for_case(seed, index);
    let k = rng.pick(KINDS);
    let mut knobs = Knobs::random(&mut rng);
    let steps_count = rng.range(2, 7);
    let mut steps = Vec::with_capacity(steps_count);
    for i in 0..steps_count {
        if rng.percent(60) {
            knobs.mutate(&mut rng);
        }
        // A kind served at several versions is written at each (the server converts).
        let at = match other_versions(&k) {
            [] => k,
            others if rng.percent(40) => Kind {
                api_version: rng.pick(others),
                ..k
            },
            _ => k,
        };
        steps.push(step(&at, &knobs, i == 0, &mut rng));
    }
    // The reads' own generator: the writes above are those of the same case without reads.
    let mut reads = Rng::for_case(seed ^ 0x5EAD_5EAD_5EAD_5EAD, index);
    insert_reads(&k, &mut steps, &mut reads);
    json!({"name": name, "serviceAccount": k.kind == "Pod", "steps": steps})
}

/// One request. The first step of a sequence mostly makes the object.
fn step(k: &Kind, n: &Knobs, first: bool, rng: &mut Rng) -> Json {
    let manager = rng.pick(MANAGERS);
    let weights: &[usize] = if first {
        &[6, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    } else {
        &[6, 2, 3, 2, 2, 2, 2, 2, 1, 1, 1]
    };
    let mut query = Map::new();
    let mut s = Map::new();
    let mut body;
    match rng.weighted(weights) {
        0 => {
            // Apply: the whole object or part of it, sometimes forced.
            body = if first || rng.percent(50) {
                full_object(k, n)
            } else {
                partial_object(k, n, rng)
            };
            s.insert("method".into(), json!("PATCH"));
            s.insert("path".into(), json!(object_path(k)));
            s.insert("contentType".into(), json!("application/apply-patch+yaml"));
            if !rng.one_in(30) {
                query.insert("fieldManager".into(), json!(manager));
            }
            if rng.percent(25) {
                query.insert("force".into(), json!(true));
            }
        }
        1 => {
            body = full_object(k, n);
            s.insert("method".into(), json!("POST"));
            s.insert("path".into(), json!(collection_path(k)));
            if !rng.one_in(5) {
                query.insert("fieldManager".into(), json!(manager));
            }
        }
        2 => {
            // Update: the whole object, with its resourceVersion (a custom resource needs one),
            // a stale one (a precondition failure) or none.
            body = full_object(k, n);
            match rng.below(10) {
                0 => body["metadata"]["resourceVersion"] = json!("1"),
                1 | 2 => {}
                _ => body["metadata"]["resourceVersion"] = json!("{resourceVersion}"),
            }
            s.insert("method".into(), json!("PUT"));
            s.insert("path".into(), json!(object_path(k)));
            if !rng.one_in(5) {
                query.insert("fieldManager".into(), json!(manager));
            }
        }
        choice @ (3..=5) => {
            // Merge, JSON and strategic merge patches.
            let (content_type, patch) = match choice {
                3 => ("application/merge-patch+json", merge_patch(k, n, rng)),
                4 => ("application/json-patch+json", json_patch(k, n, rng)),
                _ => (
                    "application/strategic-merge-patch+json",
                    merge_patch(k, n, rng),
                ),
            };
            body = patch;
            s.insert("method".into(), json!("PATCH"));
            s.insert("path".into(), json!(object_path(k)));
            s.insert("contentType".into(), json!(content_type));
            query.insert("fieldManager".into(), json!(manager));
        }
        6 => {
            // The status subresource: an apply, a merge patch or an update.
            let st = status(k, n);
            s.insert("path".into(), json!(format!("{}/status", object_path(k))));
            query.insert("fieldManager".into(), json!(format!("{manager}-status")));
            match rng.below(3) {
                0 => {
                    body = json!({"apiVersion": k.api_version, "kind": k.kind,
                        "metadata": {"name": object_name(k)}, "status": st});
                    s.insert("method".into(), json!("PATCH"));
                    s.insert("contentType".into(), json!("application/apply-patch+yaml"));
                }
                1 => {
                    body = json!({"status": st});
                    s.insert("method".into(), json!("PATCH"));
                    s.insert("contentType".into(), json!("application/merge-patch+json"));
                }
                _ => {
                    body = full_object(k, n);
                    body["status"] = st;
                    body["metadata"]["resourceVersion"] = json!("{resourceVersion}");
                    s.insert("method".into(), json!("PUT"));
                }
            }
        }
        7 => {
            // The scale subresource (also of kinds that do not serve it: 404).
            s.insert("path".into(), json!(format!("{}/scale", object_path(k))));
            query.insert("fieldManager".into(), json!("autoscaler"));
            let replicas = rng.range(0, 4);
            if rng.percent(60) {
                body = json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
                    "metadata": {"name": object_name(k), "namespace": "{namespace}"},
                    "spec": {"replicas": replicas}});
                s.insert("method".into(), json!("PUT"));
            } else {
                body = json!({"spec": {"replicas": replicas}});
                s.insert("method".into(), json!("PATCH"));
                s.insert("contentType".into(), json!("application/merge-patch+json"));
            }
        }
        8 => {
            body = Json::Null;
            s.insert("method".into(), json!("GET"));
            s.insert("path".into(), json!(object_path(k)));
        }
        9 => {
            // Delete, sometimes with a precondition that fails.
            body = match rng.below(4) {
                0 => json!({"apiVersion": "v1", "kind": "DeleteOptions",
                    "preconditions": {"uid": "00000000-0000-0000-0000-000000000000"}}),
                1 => json!({"apiVersion": "v1", "kind": "DeleteOptions",
                    "preconditions": {"resourceVersion": "1"}}),
                _ => Json::Null,
            };
            s.insert("method".into(), json!("DELETE"));
            s.insert("path".into(), json!(object_path(k)));
        }
        _ => {
            // A malformed patch.
            body = Json::Null;
            s.insert("method".into(), json!("PATCH"));
            s.insert("path".into(), json!(object_path(k)));
            s.insert(
                "contentType".into(),
                json!(rng.pick(&[
                    "application/merge-patch+json",
                    "application/json-patch+json",
                    "application/apply-patch+yaml"
                ])),
            );
            s.insert("bodyText".into(), json!("{\"metadata\": "));
            query.insert("fieldManager".into(), json!(manager));
        }
    }
    let method = s["method"].as_str().unwrap_or_default().to_owned();
    let writes = method != "GET";
    if writes && method != "DELETE" && body.is_object() && body.get("kind").is_some() {
        mangle(k, &mut body, &mut query, rng);
    }
    if writes && rng.percent(10) {
        query.insert("dryRun".into(), json!("All"));
    }
    if !body.is_null() {
        s.insert("body".into(), body);
    }
    if !query.is_empty() {
        s.insert("query".into(), Json::Object(query));
    }
    if writes {
        s.insert("stored".into(), json!(true));
    }
    Json::Object(s)
}

/// What makes a request wrong or unusual: field validation with an unknown field, a name or
/// kind not matching the URL, managedFields in the body.
fn mangle(k: &Kind, body: &mut Json, query: &mut Map<String, Json>, rng: &mut Rng) {
    if rng.percent(12) {
        query.insert(
            "fieldValidation".into(),
            json!(rng.pick(&["Strict", "Warn", "Ignore"])),
        );
        if rng.percent(70) {
            if let Some(spec) = body.get_mut("spec").and_then(Json::as_object_mut) {
                spec.insert("bogus".into(), json!(1));
            } else {
                body["metadata"]["bogus"] = json!("x");
            }
        }
    }
    match rng.below(40) {
        0 => body["metadata"]["name"] = json!("other"),
        1 => {
            body["kind"] = json!(if k.kind == "ConfigMap" {
                "Secret"
            } else {
                "ConfigMap"
            })
        }
        2 => body["apiVersion"] = json!("example.com/v2"),
        3 => body["metadata"]["managedFields"] = json!([]),
        4 => {
            body["metadata"]["managedFields"] = json!([{"manager": "imported", "operation": "Update",
                "apiVersion": k.api_version, "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}}}}}])
        }
        5 => {
            body["metadata"]["managedFields"] =
                json!([{"manager": "imported", "operation": "Update", "fieldsV1": {}}])
        }
        _ => {}
    }
}

fn merge_patch(k: &Kind, n: &Knobs, rng: &mut Rng) -> Json {
    match rng.below(4) {
        0 => json!({"metadata": {"labels": {"tier": n.tier}}}),
        1 => json!({"metadata": {"labels": {"extra": null}}}),
        _ => {
            let mut o = partial_object(k, n, rng);
            if let Some(m) = o.as_object_mut() {
                m.remove("apiVersion");
                m.remove("kind");
                m.remove("metadata");
            }
            o
        }
    }
}

fn json_patch(k: &Kind, n: &Knobs, rng: &mut Rng) -> Json {
    match rng.below(5) {
        0 => json!([{"op": "add", "path": "/metadata/labels/tier", "value": n.tier}]),
        1 => json!([{"op": "remove", "path": "/metadata/labels/extra"}]),
        2 => json!([{"op": "test", "path": "/metadata/labels/tier", "value": "db"},
            {"op": "replace", "path": "/metadata/labels/tier", "value": n.tier}]),
        _ => {
            // Replace one top-level field of the content with the knobs' value.
            let content = content(k, n);
            match content.iter().nth(rng.below(content.len().max(1))) {
                Some((key, value)) => {
                    json!([{"op": "replace", "path": format!("/{key}"), "value": value}])
                }
                None => {
                    json!([{"op": "add", "path": "/metadata/annotations", "value": {"note": n.tier}}])
                }
            }
        }
    }
}
