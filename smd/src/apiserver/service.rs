//! The Service REST around its allocators (`pkg/registry/core/service/storage` and the
//! strategy): what a create and an update ask of them (`beginCreate`, `beginUpdate`), the
//! allocated values an update leaves out and keeps, what a type change sheds
//! (`dropTypeDependentFields`), what every answer shows (`defaultOnRead`), and the reading of
//! a Service's fields they share with `allocate.rs`.

use smd_fieldpath::{Map, Value};

use super::allocate::{Allocation, ServiceNetwork};
use super::{get, nested_str};
use crate::apiserver::http::Response;
use crate::apiserver::store::Store;

/// The fields of a Service whose values only a server chooses (when the client leaves them
/// out): an offline answer cannot know them and reports them as set by the server.
pub const SERVICE_SERVER_CHOSEN_FIELDS: &[&str] = &[
    "spec.clusterIP",
    "spec.clusterIPs",
    "spec.ipFamilies",
    "spec.ipFamilyPolicy",
    "spec.ports[*].nodePort",
    "spec.healthCheckNodePort",
];

pub(super) fn spec(svc: &Value) -> Option<&Map> {
    get(svc, &["spec"]).and_then(Value::as_map)
}

pub(super) fn spec_mut(svc: &mut Value) -> Option<&mut Map> {
    svc.as_map_mut().map(|m| m.map_entry("spec"))
}

pub(super) fn service_type(svc: &Value) -> &str {
    match nested_str(svc, &["spec", "type"]) {
        "" => "ClusterIP",
        t => t,
    }
}

pub(super) fn strings(svc: &Value, key: &str) -> Vec<String> {
    spec(svc)
        .and_then(|s| s.get(key))
        .and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .map(|v| v.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn set_strings(svc: &mut Value, key: &str, values: &[String]) {
    if let Some(s) = spec_mut(svc) {
        if values.is_empty() {
            s.remove(key);
        } else {
            s.insert(
                key,
                Value::List(values.iter().map(|v| Value::from(v.as_str())).collect()),
            );
        }
    }
}

pub(super) fn string(svc: &Value, key: &str) -> String {
    nested_str(svc, &["spec", key]).to_owned()
}

pub(super) fn set_string(svc: &mut Value, key: &str, value: &str) {
    if let Some(s) = spec_mut(svc) {
        if value.is_empty() {
            s.remove(key);
        } else {
            s.insert(key, Value::from(value));
        }
    }
}

pub(super) fn int(svc: &Value, key: &str) -> Option<i64> {
    get(svc, &["spec", key]).and_then(Value::as_int)
}

pub(super) fn ports(svc: &Value) -> &[Value] {
    get(svc, &["spec", "ports"])
        .and_then(Value::as_list)
        .unwrap_or_default()
}

pub(super) fn ports_mut(svc: &mut Value) -> Option<&mut Vec<Value>> {
    spec_mut(svc)?.get_mut("ports")?.as_list_mut()
}

pub(super) fn port_int(port: &Value, key: &str) -> i64 {
    port.as_map()
        .and_then(|m| m.get(key))
        .and_then(Value::as_int)
        .unwrap_or(0)
}

pub(super) fn set_port_int(port: &mut Value, key: &str, value: i64) {
    if let Some(m) = port.as_map_mut() {
        if value == 0 {
            m.remove(key);
        } else {
            m.insert(key, Value::Int(value));
        }
    }
}

pub(super) fn node_ports(svc: &Value) -> Vec<i64> {
    ports(svc)
        .iter()
        .map(|p| port_int(p, "nodePort"))
        .filter(|p| *p != 0)
        .collect()
}

pub(super) fn has_selector(svc: &Value) -> bool {
    spec(svc)
        .and_then(|s| s.get("selector"))
        .and_then(Value::as_map)
        .is_some_and(|m| !m.is_empty())
}

pub(super) fn headless_without_selector(svc: &Value) -> bool {
    string(svc, "clusterIP") == "None" && !has_selector(svc)
}

/// `needsNodePort` of the REST: the types whose ports get node ports (a LoadBalancer's
/// unless it says not to allocate them).
pub(super) fn needs_node_port(svc: &Value) -> bool {
    match service_type(svc) {
        "NodePort" => true,
        "LoadBalancer" => get(svc, &["spec", "allocateLoadBalancerNodePorts"])
            .and_then(Value::as_bool)
            .unwrap_or(true),
        _ => false,
    }
}

/// A LoadBalancer that keeps traffic on the node (`externalTrafficPolicy: Local`) gets a
/// health-check node port.
pub(super) fn needs_health_check(svc: &Value) -> bool {
    service_type(svc) == "LoadBalancer" && string(svc, "externalTrafficPolicy") == "Local"
}

/// `isMatchingPreferDualStackClusterIPFields`: an update of a PreferDualStack Service that
/// leaves its type, IPs and families alone changes nothing allocated.
pub(super) fn matching_prefer_dual_stack(svc: &Value, old: Option<&Value>) -> bool {
    let Some(old) = old else {
        return false;
    };
    let policy = string(svc, "ipFamilyPolicy");
    !policy.is_empty()
        && service_type(old) == service_type(svc)
        && matches!(service_type(svc), "ClusterIP" | "NodePort" | "LoadBalancer")
        && policy == "PreferDualStack"
        && matches!(
            string(old, "ipFamilyPolicy").as_str(),
            "" | "PreferDualStack"
        )
        && same_cluster_ips(old, svc)
        && strings(old, "ipFamilies") == strings(svc, "ipFamilies")
}

fn same_cluster_ips(old: &Value, new: &Value) -> bool {
    strings(old, "clusterIPs") == strings(new, "clusterIPs")
}

/// `beginCreate`: what the Service REST allocates for a new Service (`svc`, decoded and
/// defaulted), or its refusal.
pub(super) fn service_create(
    store: &mut Store,
    network: &ServiceNetwork,
    svc: &mut Value,
    dry_run: bool,
) -> Result<(), Response> {
    // `normalizeClusterIPs`: the singular field names the plural's first.
    let ip = string(svc, "clusterIP");
    if !ip.is_empty() && strings(svc, "clusterIPs").is_empty() {
        set_strings(svc, "clusterIPs", &[ip]);
    }
    let mut alloc = Allocation::new(store, network, svc, dry_run);
    alloc.ip_families(svc, None)?;
    alloc.cluster_ips(svc)?;
    if matches!(service_type(svc), "NodePort" | "LoadBalancer") {
        alloc.node_ports(svc, None)?;
    }
    if needs_health_check(svc) {
        alloc.health_check(svc)?;
    }
    Ok(())
}

/// `beginUpdate`: the allocated values an update keeps (`patchAllocatedValues`), allocates
/// and releases as `old` becomes `svc`, or its refusal.
pub(super) fn service_update(
    store: &mut Store,
    network: &ServiceNetwork,
    svc: &mut Value,
    old: &Value,
    dry_run: bool,
) -> Result<(), Response> {
    patch_allocated_values(svc, old);
    normalize_cluster_ips(svc, old);
    let mut alloc = Allocation::new(store, network, svc, dry_run);
    alloc.ip_families(svc, Some(old))?;
    if !matching_prefer_dual_stack(svc, Some(old)) {
        let (old_type, new_type) = (service_type(old), service_type(svc));
        // Only a Service that had no cluster IP gets one; the others keep theirs
        // (validation refuses changing them), a headless one stays headless.
        if old_type == "ExternalName" && new_type != "ExternalName" {
            alloc.cluster_ips(svc)?;
        }
    }
    if matches!(service_type(svc), "NodePort" | "LoadBalancer") {
        alloc.node_ports(svc, Some(old))?;
    }
    if !needs_health_check(old) && needs_health_check(svc) {
        alloc.health_check(svc)?;
    }
    Ok(())
}

/// `patchAllocatedValues`: what the server chose stays when an update leaves it out (a PUT
/// of the manifest as written).
fn patch_allocated_values(svc: &mut Value, old: &Value) {
    if service_type(old) != "ExternalName" && service_type(svc) != "ExternalName" {
        if string(svc, "clusterIP").is_empty() {
            set_string(svc, "clusterIP", &string(old, "clusterIP"));
        }
        let old_ips = strings(old, "clusterIPs");
        if strings(svc, "clusterIPs").is_empty() && !old_ips.is_empty() {
            set_strings(svc, "clusterIPs", &old_ips);
        }
    }
    if needs_node_port(old) && needs_node_port(svc) {
        let new_ports = node_ports(svc);
        let used: Vec<i64> = node_ports(old)
            .into_iter()
            .filter(|p| new_ports.contains(p))
            .collect();
        // By port name: ports without one all share the last unnamed port's node port.
        let mut by_name: Vec<(String, i64)> = Vec::new();
        for p in ports(old) {
            let name = p
                .as_map()
                .and_then(|m| m.get("name"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            by_name.retain(|(n, _)| *n != name);
            by_name.push((name, port_int(p, "nodePort")));
        }
        if let Some(list) = ports_mut(svc) {
            for p in list.iter_mut() {
                if port_int(p, "nodePort") != 0 {
                    continue;
                }
                let name = p
                    .as_map()
                    .and_then(|m| m.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let old_value = by_name
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(0, |(_, v)| *v);
                if !used.contains(&old_value) {
                    set_port_int(p, "nodePort", old_value);
                }
            }
        }
    }
    if needs_health_check(old)
        && needs_health_check(svc)
        && int(svc, "healthCheckNodePort").unwrap_or(0) == 0
        && let Some(hc) = int(old, "healthCheckNodePort")
        && let Some(s) = spec_mut(svc)
    {
        s.insert("healthCheckNodePort", Value::Int(hc));
    }
}

/// `normalizeClusterIPs` of an update: the plural follows a singular that the client
/// changed or cleared, where it left the plural as stored.
fn normalize_cluster_ips(svc: &mut Value, old: &Value) {
    let (old_ip, new_ip) = (string(old, "clusterIP"), string(svc, "clusterIP"));
    let old_ips = strings(old, "clusterIPs");
    if !old_ips.is_empty() && strings(svc, "clusterIPs").is_empty() && old_ip == new_ip {
        set_strings(svc, "clusterIPs", &old_ips);
    }
    if old_ip != new_ip && same_cluster_ips(old, svc) {
        if !old_ip.is_empty() && new_ip.is_empty() {
            set_strings(svc, "clusterIPs", &[]);
        } else {
            set_strings(svc, "clusterIPs", &[new_ip]);
        }
    }
}

/// `dropTypeDependentFields` of the Service strategy's `PrepareForUpdate`: what a type change
/// makes meaningless goes, unless the update set it anew.
pub(super) fn drop_type_dependent_fields(svc: &mut Value, old: &Value) {
    let (old_type, new_type) = (service_type(old).to_owned(), service_type(svc).to_owned());
    if old_type != "ExternalName" && new_type == "ExternalName" {
        if same_cluster_ips(old, svc) && string(old, "clusterIP") == string(svc, "clusterIP") {
            set_string(svc, "clusterIP", "");
            set_strings(svc, "clusterIPs", &[]);
        }
        if strings(old, "ipFamilies") == strings(svc, "ipFamilies") {
            set_strings(svc, "ipFamilies", &[]);
        }
        if string(old, "ipFamilyPolicy") == string(svc, "ipFamilyPolicy") {
            set_string(svc, "ipFamilyPolicy", "");
        }
    }
    let had_node_ports = matches!(old_type.as_str(), "NodePort" | "LoadBalancer");
    let has_node_ports = matches!(new_type.as_str(), "NodePort" | "LoadBalancer");
    let old_node_ports = node_ports(old);
    if had_node_ports
        && !has_node_ports
        && node_ports(svc).iter().all(|p| old_node_ports.contains(p))
        && let Some(list) = ports_mut(svc)
    {
        for p in list.iter_mut() {
            set_port_int(p, "nodePort", 0);
        }
    }
    if needs_health_check(old)
        && !needs_health_check(svc)
        && int(old, "healthCheckNodePort") == int(svc, "healthCheckNodePort")
        && let Some(s) = spec_mut(svc)
    {
        s.remove("healthCheckNodePort");
    }
    let key = "allocateLoadBalancerNodePorts";
    if old_type == "LoadBalancer"
        && new_type != "LoadBalancer"
        && let (Some(a), Some(b)) = (
            get(old, &["spec", key]).and_then(Value::as_bool),
            get(svc, &["spec", key]).and_then(Value::as_bool),
        )
        && a == b
        && let Some(s) = spec_mut(svc)
    {
        s.remove(key);
    }
    if old_type == "LoadBalancer"
        && new_type != "LoadBalancer"
        && get(old, &["spec", "loadBalancerClass"]) == get(svc, &["spec", "loadBalancerClass"])
        && let Some(s) = spec_mut(svc)
    {
        s.remove("loadBalancerClass");
    }
    if externally_accessible(old)
        && !externally_accessible(svc)
        && string(old, "externalTrafficPolicy") == string(svc, "externalTrafficPolicy")
        && let Some(s) = spec_mut(svc)
    {
        s.remove("externalTrafficPolicy");
    }
    if new_type != "LoadBalancer"
        && let Some(m) = svc.as_map_mut()
    {
        let status = m.map_entry("status");
        status.insert("loadBalancer", Value::Map(Map::new()));
    }
}

/// `defaultOnRead` of the Service REST, on every object it answers: an ExternalName Service
/// shows no internal traffic policy (one kept from another type stays stored).
pub(super) fn default_on_read(svc: &mut Value) {
    if service_type(svc) == "ExternalName"
        && let Some(s) = svc
            .as_map_mut()
            .and_then(|m| m.get_mut("spec"))
            .and_then(Value::as_map_mut)
    {
        s.remove("internalTrafficPolicy");
    }
}

/// `ExternallyAccessible`: reached from outside the cluster (node ports, a load balancer,
/// external IPs of a ClusterIP Service).
fn externally_accessible(svc: &Value) -> bool {
    match service_type(svc) {
        "LoadBalancer" | "NodePort" => true,
        "ClusterIP" => !strings(svc, "externalIPs").is_empty(),
        _ => false,
    }
}
