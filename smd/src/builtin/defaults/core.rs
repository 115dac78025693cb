//! The core group (`""`), version v1: `pkg/apis/core/v1/defaults.go` of k8s.io/kubernetes
//! v1.37.2 (lines cited per function) at the default feature gates of 1.37: `ImageVolume` (GA,
//! on), `H2CContainerProbe` (alpha, off), `PodLevelResources` and `PodLevelResourcesFixDefaulting`
//! (beta, both on, so the pod-level hugepage and request defaulting of `SetDefaults_Pod` is off).

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::quantity::round_list;
use super::{
    Defaulting, Function, Kind, default_nil, default_zero, is_empty, is_nil, is_zero, list_maps,
    map_at, map_mut, str_of, string,
};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of core/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("Binding", Defaulting::None),
    kind("ComponentStatus", Defaulting::None),
    // `SetDefaults_ConfigMap` makes `data` an empty map, which the encoder omits.
    kind("ConfigMap", Defaulting::None),
    kind("Endpoints", Defaulting::Defaults),
    kind("Event", Defaulting::None),
    kind("LimitRange", Defaulting::Defaults),
    kind("Namespace", Defaulting::Defaults),
    kind("Node", Defaulting::Defaults),
    kind("PersistentVolume", Defaulting::Defaults),
    kind("PersistentVolumeClaim", Defaulting::Defaults),
    kind("Pod", Defaulting::Defaults),
    kind("PodTemplate", Defaulting::Defaults),
    kind("ReplicationController", Defaulting::Defaults),
    kind("ResourceQuota", Defaulting::Defaults),
    kind("Secret", Defaulting::Defaults),
    kind("Service", Defaulting::Defaults),
    kind("ServiceAccount", Defaulting::None),
];

const fn f(type_name: &'static str, apply: fn(&mut Map), source: &'static str) -> Function {
    Function {
        type_name,
        apply,
        source,
    }
}

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    f(
        "io.k8s.api.core.v1.ReplicationController",
        replication_controller,
        "pkg/apis/core/v1/defaults.go:50",
    ),
    f(
        "io.k8s.api.core.v1.Volume",
        volume,
        "pkg/apis/core/v1/defaults.go:66",
    ),
    f(
        "io.k8s.api.core.v1.Container",
        container,
        "pkg/apis/core/v1/defaults.go:82",
    ),
    f(
        "io.k8s.api.core.v1.EphemeralContainer",
        container,
        "pkg/apis/core/v1/defaults.go:102",
    ),
    f(
        "io.k8s.api.core.v1.Service",
        service,
        "pkg/apis/core/v1/defaults.go:106",
    ),
    f(
        "io.k8s.api.core.v1.Pod",
        pod,
        "pkg/apis/core/v1/defaults.go:164",
    ),
    f(
        "io.k8s.api.core.v1.PodStatus",
        pod_status,
        "pkg/apis/core/v1/defaults.go:225",
    ),
    f(
        "io.k8s.api.core.v1.PodSpec",
        pod_spec,
        "pkg/apis/core/v1/defaults.go:243",
    ),
    f(
        "io.k8s.api.core.v1.PodSpec",
        |m| round_list(m, "overhead"),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.Probe",
        probe,
        "pkg/apis/core/v1/defaults.go:275",
    ),
    f(
        "io.k8s.api.core.v1.SecretVolumeSource",
        default_mode,
        "pkg/apis/core/v1/defaults.go:289",
    ),
    f(
        "io.k8s.api.core.v1.ConfigMapVolumeSource",
        default_mode,
        "pkg/apis/core/v1/defaults.go:295",
    ),
    f(
        "io.k8s.api.core.v1.DownwardAPIVolumeSource",
        default_mode,
        "pkg/apis/core/v1/defaults.go:301",
    ),
    f(
        "io.k8s.api.core.v1.Secret",
        secret,
        "pkg/apis/core/v1/defaults.go:307",
    ),
    f(
        "io.k8s.api.core.v1.ProjectedVolumeSource",
        default_mode,
        "pkg/apis/core/v1/defaults.go:312",
    ),
    f(
        "io.k8s.api.core.v1.ServiceAccountTokenProjection",
        token_projection,
        "pkg/apis/core/v1/defaults.go:318",
    ),
    f(
        "io.k8s.api.core.v1.PersistentVolume",
        persistent_volume,
        "pkg/apis/core/v1/defaults.go:324",
    ),
    f(
        "io.k8s.api.core.v1.PersistentVolumeSpec",
        |m| round_list(m, "capacity"),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.PersistentVolumeClaim",
        persistent_volume_claim,
        "pkg/apis/core/v1/defaults.go:336",
    ),
    f(
        "io.k8s.api.core.v1.PersistentVolumeClaimSpec",
        persistent_volume_claim_spec,
        "pkg/apis/core/v1/defaults.go:341",
    ),
    f(
        "io.k8s.api.core.v1.PersistentVolumeClaimStatus",
        |m| round_lists(m, &["allocatedResources", "capacity"]),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.Endpoints",
        endpoints,
        "pkg/apis/core/v1/defaults.go:347",
    ),
    f(
        "io.k8s.api.core.v1.HTTPGetAction",
        http_get_action,
        "pkg/apis/core/v1/defaults.go:358",
    ),
    f(
        "io.k8s.api.core.v1.Namespace",
        namespace,
        "pkg/apis/core/v1/defaults.go:368",
    ),
    f(
        "io.k8s.api.core.v1.NamespaceStatus",
        namespace_status,
        "pkg/apis/core/v1/defaults.go:383",
    ),
    f(
        "io.k8s.api.core.v1.NodeStatus",
        node_status,
        "pkg/apis/core/v1/defaults.go:388",
    ),
    f(
        "io.k8s.api.core.v1.NodeStatus",
        |m| round_lists(m, &["allocatable", "capacity"]),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.ObjectFieldSelector",
        object_field_selector,
        "pkg/apis/core/v1/defaults.go:397",
    ),
    f(
        "io.k8s.api.core.v1.LimitRangeItem",
        limit_range_item,
        "pkg/apis/core/v1/defaults.go:402",
    ),
    f(
        "io.k8s.api.core.v1.LimitRangeItem",
        |m| {
            round_lists(
                m,
                &[
                    "max",
                    "min",
                    "default",
                    "defaultRequest",
                    "maxLimitRequestRatio",
                ],
            )
        },
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.HostPathVolumeSource",
        host_path,
        "pkg/apis/core/v1/defaults.go:501",
    ),
    f(
        "io.k8s.api.core.v1.ResourceRequirements",
        |m| round_lists(m, &["limits", "requests"]),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.VolumeResourceRequirements",
        |m| round_lists(m, &["limits", "requests"]),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.ContainerStatus",
        |m| round_list(m, "allocatedResources"),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.ResourceQuotaSpec",
        |m| round_list(m, "hard"),
        "pkg/apis/core/v1/defaults.go:39",
    ),
    f(
        "io.k8s.api.core.v1.ResourceQuotaStatus",
        |m| round_lists(m, &["hard", "used"]),
        "pkg/apis/core/v1/defaults.go:39",
    ),
];

fn round_lists(map: &mut Map, keys: &[&str]) {
    for key in keys {
        round_list(map, key);
    }
}

fn replication_controller(rc: &mut Map) {
    let labels = map_mut(rc, "spec")
        .and_then(|spec| map_mut(spec, "template"))
        .and_then(|template| map_mut(template, "metadata"))
        .and_then(|meta| meta.get("labels"))
        // An empty map copied stays empty, which the encoder omits.
        .filter(|l| l.as_map().is_some_and(|m| !m.is_empty()))
        .cloned();
    let Some(labels) = labels else {
        return;
    };
    if let Some(spec) = map_at(rc, "spec") {
        if is_empty(spec, "selector") {
            spec.insert("selector", labels.clone());
        }
    }
    if let Some(meta) = map_at(rc, "metadata") {
        if is_empty(meta, "labels") {
            meta.insert("labels", labels);
        }
    }
}

/// The fields of `Volume` that are not its `VolumeSource`: with none of those set, the source
/// is an empty directory.
fn volume(v: &mut Map) {
    if v.iter().all(|(k, val)| k == "name" || val.is_null()) {
        v.insert("emptyDir", Value::Map(Map::new()));
    }
    if let Some(image) = map_mut(v, "image") {
        if is_zero(image, "pullPolicy") {
            let policy = pull_policy(str_of(image, "reference"));
            image.insert("pullPolicy", string(policy));
        }
    }
}

fn container(c: &mut Map) {
    if is_zero(c, "imagePullPolicy") {
        let policy = pull_policy(str_of(c, "image"));
        c.insert("imagePullPolicy", string(policy));
    }
    default_zero(c, "terminationMessagePath", string("/dev/termination-log"));
    default_zero(c, "terminationMessagePolicy", string("File"));
}

/// `Always` for an image whose tag is `latest` (also when it has neither tag nor digest),
/// else `IfNotPresent` (also when the reference does not parse).
fn pull_policy(image: &str) -> &'static str {
    if image_tag_is_latest(image) {
        "Always"
    } else {
        "IfNotPresent"
    }
}

/// Whether `parsers.ParseImageName` (pkg/util/parsers/parsers.go) gives the tag `latest`: a
/// valid reference with the tag `latest`, or with no tag and no digest. An invalid reference
/// gives no tag.
fn image_tag_is_latest(image: &str) -> bool {
    let (name_tag, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    if let Some(d) = digest {
        if !valid_digest(d) {
            return false;
        }
    }
    let (name, tag) = match name_tag.rfind(':') {
        Some(i) if !name_tag[i..].contains('/') => (&name_tag[..i], Some(&name_tag[i + 1..])),
        _ => (name_tag, None),
    };
    if !valid_name(name) {
        return false;
    }
    match tag {
        Some(t) => valid_tag(t) && t == "latest",
        None => digest.is_none(),
    }
}

fn valid_tag(t: &str) -> bool {
    let mut chars = t.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphanumeric() || c == '_')
        && t.len() <= 128
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
}

fn valid_digest(d: &str) -> bool {
    let Some((algorithm, hex)) = d.split_once(':') else {
        return false;
    };
    let algorithm_ok = !algorithm.is_empty()
        && algorithm.split(['+', '.', '_', '-']).all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
    let hex_ok = hex.len() >= 32 && hex.chars().all(|c| c.is_ascii_hexdigit());
    let sha256_ok =
        algorithm != "sha256" || (hex.len() == 64 && !hex.chars().any(|c| c.is_ascii_uppercase()));
    algorithm_ok && hex_ok && sha256_ok
}

/// A repository name as docker's reference grammar takes it: an optional domain (a first
/// component with `.` or `:`, or `localhost`, or with an upper-case letter), then lower-case
/// path components.
fn valid_name(name: &str) -> bool {
    if name.is_empty() || name.len() > 255 {
        return false;
    }
    let mut components: Vec<&str> = name.split('/').collect();
    if components.len() > 1 {
        let first = components.first().copied().unwrap_or("");
        if first.contains(['.', ':'])
            || first == "localhost"
            || first.chars().any(|c| c.is_ascii_uppercase())
        {
            if !valid_domain(first) {
                return false;
            }
            components.remove(0);
        }
    }
    components.iter().all(|c| valid_path_component(c))
}

fn valid_domain(domain: &str) -> bool {
    let (host, port) = match domain.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (domain, None),
    };
    let host_ok = !host.is_empty()
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    host_ok && port.is_none_or(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
fn valid_path_component(c: &str) -> bool {
    let bytes = c.as_bytes();
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let mut i = 0;
    let mut need_alnum = true;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(0);
        if alnum(b) {
            need_alnum = false;
            i += 1;
            continue;
        }
        if need_alnum {
            return false;
        }
        // A separator: `.`, `_`, `__` or a run of `-`.
        let run_start = i;
        if b == b'-' {
            while bytes.get(i) == Some(&b'-') {
                i += 1;
            }
        } else if b == b'_' {
            i += if bytes.get(i + 1) == Some(&b'_') {
                2
            } else {
                1
            };
        } else if b == b'.' {
            i += 1;
        } else {
            return false;
        }
        debug_assert!(i > run_start);
        need_alnum = true;
    }
    !need_alnum
}

fn service(svc: &mut Map) {
    let Some(spec) = map_at(svc, "spec") else {
        return;
    };
    default_zero(spec, "sessionAffinity", string("None"));
    match str_of(spec, "sessionAffinity") {
        "None" => {
            spec.remove("sessionAffinityConfig");
        }
        "ClientIP" => {
            let has_timeout = map_mut(spec, "sessionAffinityConfig")
                .and_then(|c| map_mut(c, "clientIP"))
                .is_some_and(|ip| !is_nil(ip, "timeoutSeconds"));
            if !has_timeout {
                let mut client_ip = Map::new();
                client_ip.insert("timeoutSeconds", Value::Int(10800));
                let mut config = Map::new();
                config.insert("clientIP", Value::Map(client_ip));
                spec.insert("sessionAffinityConfig", Value::Map(config));
            }
        }
        _ => {}
    }
    default_zero(spec, "type", string("ClusterIP"));
    for port in list_maps(spec, "ports") {
        default_zero(port, "protocol", string("TCP"));
        let target_unset = match port.get("targetPort") {
            None | Some(Value::Null) => true,
            Some(Value::Int(0)) => true,
            Some(Value::String(s)) => s.is_empty(),
            Some(_) => false,
        };
        if target_unset {
            let port_number = port.get("port").and_then(Value::as_int).unwrap_or(0);
            port.insert("targetPort", Value::Int(port_number));
        }
    }
    let service_type = str_of(spec, "type").to_owned();
    let externally_accessible = service_type == "LoadBalancer"
        || service_type == "NodePort"
        || (service_type == "ClusterIP" && !is_empty(spec, "externalIPs"));
    if externally_accessible {
        default_zero(spec, "externalTrafficPolicy", string("Cluster"));
    }
    if matches!(
        service_type.as_str(),
        "NodePort" | "LoadBalancer" | "ClusterIP"
    ) {
        default_nil(spec, "internalTrafficPolicy", string("Cluster"));
    }
    if service_type == "LoadBalancer" {
        default_nil(spec, "allocateLoadBalancerNodePorts", Value::Bool(true));
        let ingress = map_at(svc, "status")
            .and_then(|s| map_at(s, "loadBalancer"))
            .map(|lb| list_maps(lb, "ingress"));
        for ing in ingress.into_iter().flatten() {
            if !is_zero(ing, "ip") && is_nil(ing, "ipMode") {
                ing.insert("ipMode", string("VIP"));
            }
        }
    }
}

fn pod(pod: &mut Map) {
    let Some(spec) = map_at(pod, "spec") else {
        return;
    };
    if spec
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_int)
        .is_some_and(|s| s < 0)
    {
        spec.insert("terminationGracePeriodSeconds", Value::Int(1));
    }
    for key in ["containers", "initContainers"] {
        for c in list_maps(spec, key) {
            requests_from_limits(c);
        }
    }
    default_nil(spec, "enableServiceLinks", Value::Bool(true));
    if spec.get("hostNetwork").and_then(Value::as_bool) == Some(true) {
        for key in ["containers", "initContainers"] {
            for c in list_maps(spec, key) {
                for port in list_maps(c, "ports") {
                    // A zero containerPort makes a zero hostPort, which the encoder omits.
                    if is_zero(port, "hostPort") && !is_zero(port, "containerPort") {
                        if let Some(p) = port.get("containerPort").cloned() {
                            port.insert("hostPort", p);
                        }
                    }
                }
            }
        }
    }
    // `H2CContainerProbe` (alpha in 1.37, off) would give HTTP probes a `protocol`.
}

/// A container's requests take every limit they do not name (pkg/apis/core/v1/defaults.go:171).
fn requests_from_limits(c: &mut Map) {
    let Some(resources) = map_mut(c, "resources") else {
        return;
    };
    let Some(limits) = resources.get("limits").and_then(Value::as_map).cloned() else {
        return;
    };
    let Some(requests) = map_at(resources, "requests") else {
        return;
    };
    for (name, quantity) in limits.iter() {
        if !requests.contains_key(name) {
            requests.insert(name, quantity.clone());
        }
    }
    if requests.is_empty() {
        resources.remove("requests");
    }
}

fn pod_status(status: &mut Map) {
    let pod_ip = str_of(status, "podIP").to_owned();
    let first_ip = status
        .get("podIPs")
        .and_then(Value::as_list)
        .and_then(|l| l.first())
        .and_then(Value::as_map)
        .map(|m| str_of(m, "ip").to_owned());
    let one = |ip: &str| {
        let mut m = Map::new();
        if !ip.is_empty() {
            m.insert("ip", string(ip));
        }
        Value::List(vec![Value::Map(m)])
    };
    match (pod_ip.is_empty(), first_ip) {
        (false, None) => {
            status.insert("podIPs", one(&pod_ip));
        }
        (true, Some(ip)) => {
            if ip.is_empty() {
                status.remove("podIP");
            } else {
                status.insert("podIP", string(&ip));
            }
        }
        (false, Some(ip)) if ip != pod_ip => {
            status.insert("podIPs", one(&pod_ip));
        }
        _ => {}
    }
}

fn pod_spec(spec: &mut Map) {
    if is_zero(spec, "serviceAccountName") {
        match spec.get("serviceAccount").cloned() {
            Some(v) if !v.is_null() => {
                spec.insert("serviceAccountName", v);
            }
            _ => {
                spec.remove("serviceAccountName");
            }
        }
    }
    match spec.get("serviceAccountName").cloned() {
        Some(v) if !is_zero(spec, "serviceAccountName") => {
            spec.insert("serviceAccount", v);
        }
        _ => {
            spec.remove("serviceAccount");
        }
    }
    default_zero(spec, "dnsPolicy", string("ClusterFirst"));
    default_zero(spec, "restartPolicy", string("Always"));
    default_nil(spec, "securityContext", Value::Map(Map::new()));
    default_nil(spec, "terminationGracePeriodSeconds", Value::Int(30));
    default_zero(spec, "schedulerName", string("default-scheduler"));
}

fn probe(p: &mut Map) {
    default_zero(p, "timeoutSeconds", Value::Int(1));
    default_zero(p, "periodSeconds", Value::Int(10));
    default_zero(p, "successThreshold", Value::Int(1));
    default_zero(p, "failureThreshold", Value::Int(3));
}

/// `0644`, the mode of Secret, ConfigMap, downward API and projected volumes.
fn default_mode(source: &mut Map) {
    default_nil(source, "defaultMode", Value::Int(0o644));
}

fn secret(s: &mut Map) {
    default_zero(s, "type", string("Opaque"));
}

fn token_projection(p: &mut Map) {
    default_nil(p, "expirationSeconds", Value::Int(3600));
}

fn persistent_volume(pv: &mut Map) {
    if let Some(status) = map_at(pv, "status") {
        default_zero(status, "phase", string("Pending"));
    }
    if let Some(spec) = map_at(pv, "spec") {
        default_zero(spec, "persistentVolumeReclaimPolicy", string("Retain"));
        default_nil(spec, "volumeMode", string("Filesystem"));
    }
}

fn persistent_volume_claim(pvc: &mut Map) {
    if let Some(status) = map_at(pvc, "status") {
        default_zero(status, "phase", string("Pending"));
    }
}

fn persistent_volume_claim_spec(spec: &mut Map) {
    default_nil(spec, "volumeMode", string("Filesystem"));
}

fn endpoints(e: &mut Map) {
    for subset in list_maps(e, "subsets") {
        for port in list_maps(subset, "ports") {
            default_zero(port, "protocol", string("TCP"));
        }
    }
}

fn http_get_action(a: &mut Map) {
    default_zero(a, "path", string("/"));
    default_zero(a, "scheme", string("HTTP"));
}

fn namespace(ns: &mut Map) {
    let Some(meta) = map_at(ns, "metadata") else {
        return;
    };
    let name = str_of(meta, "name").to_owned();
    if name.is_empty() {
        return;
    }
    if let Some(labels) = map_at(meta, "labels") {
        labels.insert("kubernetes.io/metadata.name", string(&name));
    }
}

fn namespace_status(status: &mut Map) {
    default_zero(status, "phase", string("Active"));
}

fn node_status(status: &mut Map) {
    if is_nil(status, "allocatable") {
        if let Some(capacity) = status.get("capacity").filter(|c| !c.is_null()).cloned() {
            status.insert("allocatable", capacity);
        }
    }
}

fn object_field_selector(s: &mut Map) {
    default_zero(s, "apiVersion", string("v1"));
}

fn limit_range_item(item: &mut Map) {
    if str_of(item, "type") != "Container" {
        return;
    }
    let copy_missing = |item: &mut Map, from: &str, to: &str| {
        let Some(source) = item.get(from).and_then(Value::as_map).cloned() else {
            return;
        };
        if let Some(target) = map_at(item, to) {
            for (name, quantity) in source.iter() {
                if !target.contains_key(name) {
                    target.insert(name, quantity.clone());
                }
            }
        }
    };
    copy_missing(item, "max", "default");
    copy_missing(item, "default", "defaultRequest");
    copy_missing(item, "min", "defaultRequest");
    // Go makes both maps; the encoder omits them when they stayed empty.
    for key in ["default", "defaultRequest"] {
        if item
            .get(key)
            .and_then(Value::as_map)
            .is_some_and(Map::is_empty)
        {
            item.remove(key);
        }
    }
}

fn host_path(h: &mut Map) {
    default_nil(h, "type", string(""));
}

#[cfg(test)]
mod tests {
    use super::image_tag_is_latest;

    #[test]
    fn image_tags_as_parse_image_name_reads_them() {
        assert!(image_tag_is_latest("nginx"));
        assert!(image_tag_is_latest("nginx:latest"));
        assert!(image_tag_is_latest("registry.example:5000/team/app"));
        assert!(!image_tag_is_latest("nginx:1.27"));
        assert!(!image_tag_is_latest("registry.example:5000/team/app:v1"));
        assert!(!image_tag_is_latest("Nginx"));
        assert!(!image_tag_is_latest(""));
        assert!(!image_tag_is_latest(
            "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        ));
    }
}
