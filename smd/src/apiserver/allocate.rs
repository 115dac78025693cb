//! The Service REST's allocators (`pkg/registry/core/service/storage/alloc.go`, the IP and
//! port allocators): the IP families and their policy a Service gets, its cluster IPs, node
//! ports and health-check node port, checked when the client names them and chosen when it
//! does not. When they are asked is `service.rs`'s.
//!
//! What is taken is read from the stored Services themselves (a deleted Service frees its
//! values, a clone or a put-back object carries its own), so the only allocation state kept
//! apart is where the search for the next free value starts ([`Store`]'s cursors). A dry run
//! is answered with values chosen the same way, which nothing then holds.

use std::net::Ipv4Addr;

use smd_fieldpath::Value;

use super::nested_str;
use super::service::{
    headless_without_selector, int, matching_prefer_dual_stack, needs_node_port, node_ports,
    port_int, ports, ports_mut, service_type, set_port_int, set_string, set_strings, spec_mut,
    string, strings,
};
use crate::apiserver::http::Response;
use crate::apiserver::status::{self, Details};
use crate::apiserver::store::Store;
use crate::managedfields::Cause;
use crate::validation::{BadValue, FieldError, FieldPath};

/// The service network of the cluster the server models: one IPv4 range for cluster IPs
/// (single-stack) and the node-port range. The default is what the conformance server is
/// started with (`--service-cluster-ip-range 10.96.0.0/24`, the default node ports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceNetwork {
    /// The cluster-IP range's network address.
    pub cluster_ip_network: Ipv4Addr,
    /// The cluster-IP range's prefix length (at most 30).
    pub cluster_ip_prefix: u8,
    /// The first and last node port.
    pub node_ports: (u16, u16),
}

impl Default for ServiceNetwork {
    fn default() -> Self {
        ServiceNetwork {
            cluster_ip_network: Ipv4Addr::new(10, 96, 0, 0),
            cluster_ip_prefix: 24,
            node_ports: (30000, 32767),
        }
    }
}

impl ServiceNetwork {
    /// The usable addresses: the network's, less its network and broadcast addresses.
    fn ip_range(&self) -> (u32, u32) {
        let prefix = u32::from(self.cluster_ip_prefix.min(30));
        let size = 1u32 << (32 - prefix);
        let base = u32::from(self.cluster_ip_network) & !(size - 1);
        (base + 1, size - 2)
    }

    fn contains_ip(&self, ip: u32) -> bool {
        let (first, size) = self.ip_range();
        ip >= first && ip - first < size
    }
}

/// Where dynamic allocation starts in a range of `size` values: the allocators leave the
/// lower band to values clients name (`calculateRangeOffset`).
fn dynamic_offset(size: u32, min: u32, max: u32, step: u32) -> u32 {
    if size < min {
        return 0;
    }
    (size / step).clamp(min, max)
}

/// The next value of `size` (offsets from the range's start) not in `taken`, searched from
/// `cursor` over the dynamic band first, the cursor moved past it.
fn next_free(size: u32, offset: u32, cursor: &mut u32, taken: impl Fn(u32) -> bool) -> Option<u32> {
    for k in 0..size {
        let step = (*cursor + k) % size;
        let candidate = (offset + step) % size;
        if !taken(candidate) {
            *cursor = (step + 1) % size;
            return Some(candidate);
        }
    }
    None
}

/// What the stored Services hold: their cluster IPs and node ports.
struct Taken {
    ips: Vec<u32>,
    ports: Vec<i64>,
}

impl Taken {
    fn of(store: &Store, network: &ServiceNetwork) -> Taken {
        // The `kubernetes` Service every server makes in `default` holds the first address.
        let mut ips = vec![network.ip_range().0];
        let mut ports = Vec::new();
        for (key, svc) in store.iter() {
            if !(key.group.is_empty() && key.plural == "services") {
                continue;
            }
            if service_type(svc) != "ExternalName" {
                ips.extend(
                    strings(svc, "clusterIPs")
                        .iter()
                        .filter_map(|ip| ip.parse::<Ipv4Addr>().ok())
                        .map(u32::from),
                );
            }
            ports.extend(node_ports(svc));
            if let Some(p) = int(svc, "healthCheckNodePort").filter(|p| *p != 0) {
                ports.push(p);
            }
        }
        Taken { ips, ports }
    }
}

fn invalid(name: &str, errors: &[FieldError]) -> Response {
    status::invalid(
        "",
        "Service",
        name,
        errors
            .iter()
            .map(|e| Cause {
                kind: e.kind.reason().to_owned(),
                message: e.body(),
                field: e.field.to_string(),
            })
            .collect(),
    )
}

/// `NewInternalError`: a 500 whose one cause is the error's text.
fn internal_error(why: &str) -> Response {
    let mut details = Details::default();
    details.causes.push(Cause {
        kind: String::new(),
        message: why.to_owned(),
        field: String::new(),
    });
    status::failure(
        500,
        "InternalError",
        &format!("Internal error occurred: {why}"),
        Some(&details),
    )
}

fn ip_list_value(ips: &[String]) -> BadValue {
    BadValue::of(&Value::List(
        ips.iter().map(|s| Value::from(s.as_str())).collect(),
    ))
}

/// One allocation: the store's taken values and cursors, the network, the Service's name.
pub(super) struct Allocation<'a> {
    store: &'a mut Store,
    network: &'a ServiceNetwork,
    taken: Taken,
    name: String,
    /// A dry run: the allocators are asked without reserving (their dry-run answers differ:
    /// see [`Allocation::node_port`] and [`Allocation::cluster_ip`]).
    dry_run: bool,
    /// The node ports this operation took so far.
    op_ports: Vec<i64>,
}

impl Allocation<'_> {
    pub(super) fn new<'a>(
        store: &'a mut Store,
        network: &'a ServiceNetwork,
        svc: &Value,
        dry_run: bool,
    ) -> Allocation<'a> {
        let taken = Taken::of(store, network);
        Allocation {
            store,
            network,
            taken,
            name: nested_str(svc, &["metadata", "name"]).to_owned(),
            dry_run,
            op_ports: Vec::new(),
        }
    }

    /// `initIPFamilyFields`: the policy and the families a Service gets on this single-stack
    /// IPv4 cluster, or the refusal of what it cannot have.
    pub(super) fn ip_families(&self, svc: &mut Value, old: Option<&Value>) -> Result<(), Response> {
        if service_type(svc) == "ExternalName" || matching_prefer_dual_stack(svc, old) {
            return Ok(());
        }
        let mut policy = string(svc, "ipFamilyPolicy");
        if policy.is_empty() {
            policy = match old.map(|o| string(o, "ipFamilyPolicy")) {
                Some(p) if !p.is_empty() => p,
                _ if headless_without_selector(svc) => "RequireDualStack".to_owned(),
                _ => "SingleStack".to_owned(),
            };
            set_string(svc, "ipFamilyPolicy", &policy);
        }
        // The loose pre-validation that spares the allocation its corner cases.
        let refused = crate::validation::service_cluster_ips(svc, old);
        if !refused.is_empty() {
            return Err(invalid(&self.name, &refused));
        }
        let policy_path = FieldPath::new("spec").child("ipFamilyPolicy");
        let policy_value = BadValue::str(policy.as_str());
        let mut errors = Vec::new();
        let mut ips = strings(svc, "clusterIPs");
        let mut families = strings(svc, "ipFamilies");
        if let Some(old) = old {
            let (old_ips, old_families) = (strings(old, "clusterIPs"), strings(old, "ipFamilies"));
            if policy == "SingleStack" {
                if old_ips == ips && ips.len() > 1 {
                    ips.truncate(1);
                    set_strings(svc, "clusterIPs", &ips);
                }
                if old_families == families && families.len() > 1 {
                    families.truncate(1);
                    set_strings(svc, "ipFamilies", &families);
                }
            } else {
                if !ips.is_empty() && ips.len() < old_ips.len() {
                    errors.push(FieldError::invalid(
                        &policy_path,
                        policy_value.clone(),
                        "must be 'SingleStack' to release the secondary cluster IP",
                    ));
                }
                if !families.is_empty() && families.len() < old_families.len() {
                    errors.push(FieldError::invalid(
                        &policy_path,
                        policy_value.clone(),
                        "must be 'SingleStack' to release the secondary IP family",
                    ));
                }
            }
        }
        if policy == "SingleStack" {
            if ips.len() == 2 {
                errors.push(FieldError::invalid(
                    &policy_path,
                    policy_value.clone(),
                    "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
                ));
            }
            if families.len() == 2 {
                errors.push(FieldError::invalid(
                    &policy_path,
                    policy_value.clone(),
                    "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
                ));
            }
        }
        // Families follow from the IPs the client names.
        for (i, ip) in ips.iter().enumerate() {
            if ip == "None" {
                break;
            }
            if i >= families.len() {
                let family = family_of(ip);
                if family == "IPv4" {
                    families.push(family.to_owned());
                } else {
                    errors.push(FieldError::invalid(
                        &FieldPath::new("spec").child("clusterIPs").index(i),
                        ip_list_value(&ips),
                        format!("{family} is not configured on this cluster"),
                    ));
                }
            }
        }
        if !errors.is_empty() {
            return Err(invalid(&self.name, &errors));
        }
        if headless_without_selector(svc) {
            // A headless Service without a selector has no IPs to allocate: every family
            // its policy asks for is recorded.
            if families.is_empty() {
                families.push("IPv4".to_owned());
            }
            if families.len() < 2 && policy != "SingleStack" {
                let other = if families[0] == "IPv4" {
                    "IPv6"
                } else {
                    "IPv4"
                };
                families.push(other.to_owned());
            }
            set_strings(svc, "ipFamilies", &families);
            return Ok(());
        }
        if policy == "RequireDualStack" {
            errors.push(FieldError::invalid(
                &policy_path,
                policy_value,
                "this cluster is not configured for dual-stack services",
            ));
        }
        for (i, family) in families.iter().enumerate() {
            if family != "IPv4" {
                errors.push(FieldError::invalid(
                    &FieldPath::new("spec").child("ipFamilies").index(i),
                    BadValue::str(family.as_str()),
                    "not configured on this cluster",
                ));
            }
        }
        if !errors.is_empty() {
            return Err(invalid(&self.name, &errors));
        }
        if families.is_empty() {
            families.push("IPv4".to_owned());
        }
        set_strings(svc, "ipFamilies", &families);
        Ok(())
    }

    /// `allocClusterIPs`: the cluster IP of each family, the client's checked, the others
    /// chosen.
    pub(super) fn cluster_ips(&mut self, svc: &mut Value) -> Result<(), Response> {
        if service_type(svc) == "ExternalName" {
            return Ok(());
        }
        let mut ips = strings(svc, "clusterIPs");
        if ips.first().is_some_and(|ip| ip == "None") {
            return Ok(());
        }
        let families = strings(svc, "ipFamilies");
        while ips.len() < families.len() {
            ips.push(String::new());
        }
        let Some(first) = ips.first().cloned() else {
            return Ok(());
        };
        let ip = self.cluster_ip(&first, &ips)?;
        ips[0] = ip.clone();
        set_strings(svc, "clusterIPs", &ips);
        set_string(svc, "clusterIP", &ip);
        Ok(())
    }

    /// One IPv4 cluster IP: `requested` checked (out of the range, taken), or the next free.
    fn cluster_ip(&mut self, requested: &str, ips: &[String]) -> Result<String, Response> {
        let (first, size) = self.network.ip_range();
        let mask = mask_of(self.network.cluster_ip_prefix);
        let network = u32::from(self.network.cluster_ip_network) & mask;
        if requested.is_empty() {
            // A dry run does not look for a free address: it answers the network's own.
            if self.dry_run {
                let ip = Ipv4Addr::from(network).to_string();
                self.store.choose(&ip);
                return Ok(ip);
            }
            let taken = &self.taken.ips;
            let offset = dynamic_offset(size + 2, 16, 256, 16).min(size.saturating_sub(1));
            let found = next_free(size, offset, &mut self.store.ip_cursor, |o| {
                taken.contains(&(first + o))
            });
            return match found {
                Some(o) => {
                    let ip = first + o;
                    self.taken.ips.push(ip);
                    let text = Ipv4Addr::from(ip).to_string();
                    self.store.choose(&text);
                    Ok(text)
                }
                None => Err(internal_error(&format!(
                    "failed to allocate a serviceIP for Service {}: range is full",
                    status::quote(&self.name)
                ))),
            };
        }
        let refuse = |why: &str| {
            invalid(
                &self.name,
                &[FieldError::invalid(
                    &FieldPath::new("spec").child("clusterIPs"),
                    ip_list_value(ips),
                    format!("failed to allocate IP {requested}: {why}"),
                )],
            )
        };
        let usable = requested
            .parse::<Ipv4Addr>()
            .map(u32::from)
            .ok()
            .filter(|ip| self.network.contains_ip(*ip));
        // A dry run asks the range's allocator alone, which checks the range and nothing
        // else; a write asks for the range holding the address (none holds the network's or
        // the broadcast address), then whether it is taken.
        let Some(ip) = usable else {
            if self.dry_run {
                return Err(refuse(&format!(
                    "the provided IP ({requested}) is not in the valid range. The range of valid IPs is {}/{}",
                    Ipv4Addr::from(network),
                    self.network.cluster_ip_prefix.min(30)
                )));
            }
            return Err(refuse(
                "the provided network does not match the current range",
            ));
        };
        if self.dry_run {
            return Ok(requested.to_owned());
        }
        if self.taken.ips.contains(&ip) {
            return Err(refuse("provided IP is already allocated"));
        }
        self.taken.ips.push(ip);
        Ok(requested.to_owned())
    }

    /// One node port: `requested` checked, or (0) the next free. A dry run's allocator only
    /// checks that a requested port is not held, and answers the one after the highest this
    /// operation took (after 32768 for the first), free or not.
    fn node_port(&mut self, requested: i64) -> Result<i64, String> {
        let port = self.node_port_of(requested)?;
        self.op_ports.push(port);
        Ok(port)
    }

    fn node_port_of(&mut self, requested: i64) -> Result<i64, String> {
        let (low, high) = self.network.node_ports;
        let (low, high) = (i64::from(low), i64::from(high));
        if self.dry_run {
            if requested == 0 {
                return Ok(self.op_ports.iter().copied().max().unwrap_or(32768) + 1);
            }
            if self.taken.ports.contains(&requested) || self.op_ports.contains(&requested) {
                return Err("provided port is already allocated".to_owned());
            }
            return Ok(requested);
        }
        if requested == 0 {
            let size = u32::try_from(high - low + 1).unwrap_or(0);
            let taken = &self.taken.ports;
            let offset = dynamic_offset(size, 16, 128, 32);
            let found = next_free(size, offset, &mut self.store.port_cursor, |o| {
                taken.contains(&(low + i64::from(o)))
            });
            let port = found.map(|o| low + i64::from(o)).ok_or("range is full")?;
            self.taken.ports.push(port);
            return Ok(port);
        }
        if requested < low || requested > high {
            return Err(format!(
                "provided port is not in the valid range. The range of valid ports is {low}-{high}"
            ));
        }
        if self.taken.ports.contains(&requested) {
            return Err("provided port is already allocated".to_owned());
        }
        self.taken.ports.push(requested);
        Ok(requested)
    }

    /// `initNodePorts` (`old` none) and `updateNodePorts`: every port of a type that needs
    /// one gets a node port. On a create, ports of the same number share one (the first
    /// named for that number, else a new one); on an update, a port keeps a node port it
    /// already held.
    pub(super) fn node_ports(
        &mut self,
        svc: &mut Value,
        old: Option<&Value>,
    ) -> Result<(), Response> {
        let allocate_all = needs_node_port(svc);
        let old_ports = old.map(node_ports);
        let mut list = ports(svc).to_vec();
        let mut by_number: Vec<(i64, i64)> = Vec::new();
        let mut claimed: Vec<i64> = Vec::new();
        for i in 0..list.len() {
            let current = port_int(&list[i], "nodePort");
            if current == 0 && !allocate_all {
                continue;
            }
            let number = port_int(&list[i], "port");
            // The port asked for (0: any) and whether it is to be allocated.
            let (asked, allocate) = match &old_ports {
                Some(old_ports) => {
                    let held = current != 0
                        && (old_ports.contains(&current) || claimed.contains(&current));
                    (current, !held)
                }
                None => match by_number.iter().find(|(p, _)| *p == number) {
                    None => {
                        let named = list
                            .iter()
                            .map(|p| (port_int(p, "port"), port_int(p, "nodePort")))
                            .find(|(p, n)| *p == number && *n != 0)
                            .map_or(0, |(_, n)| n);
                        (named, true)
                    }
                    Some((_, shared)) if current == 0 || current == *shared => (*shared, false),
                    Some(_) => (current, true),
                },
            };
            let port = if allocate {
                match self.node_port(asked) {
                    Ok(port) if asked == 0 => {
                        self.store.choose_number("nodePort", port);
                        port
                    }
                    Ok(port) => port,
                    Err(why) if asked == 0 => {
                        return Err(internal_error(&format!(
                            "failed to allocate a nodePort: {why}"
                        )));
                    }
                    Err(why) => {
                        return Err(invalid(
                            &self.name,
                            &[FieldError::invalid(
                                &FieldPath::new("spec")
                                    .child("ports")
                                    .index(i)
                                    .child("nodePort"),
                                BadValue::Int(asked),
                                why,
                            )],
                        ));
                    }
                }
            } else {
                asked
            };
            claimed.push(port);
            if !by_number.iter().any(|(p, _)| *p == number) {
                by_number.push((number, port));
            }
            set_port_int(&mut list[i], "nodePort", port);
        }
        if let Some(p) = ports_mut(svc) {
            *p = list;
        }
        Ok(())
    }

    /// The health-check node port of a LoadBalancer that keeps traffic local.
    pub(super) fn health_check(&mut self, svc: &mut Value) -> Result<(), Response> {
        let requested = int(svc, "healthCheckNodePort").unwrap_or(0);
        match self.node_port(requested) {
            Ok(port) => {
                if requested == 0 {
                    self.store.choose_number("healthCheckNodePort", port);
                }
                if let Some(s) = spec_mut(svc) {
                    s.insert("healthCheckNodePort", Value::Int(port));
                }
                Ok(())
            }
            Err(why) => {
                let what = if requested != 0 {
                    format!("failed to allocate requested HealthCheck NodePort {requested}: {why}")
                } else {
                    format!("failed to allocate a HealthCheck NodePort {requested}: {why}")
                };
                Err(internal_error(&what))
            }
        }
    }
}

fn mask_of(prefix: u8) -> u32 {
    let prefix = u32::from(prefix.min(30));
    !((1u32 << (32 - prefix)) - 1)
}

fn family_of(ip: &str) -> &'static str {
    if ip.parse::<Ipv4Addr>().is_ok() {
        "IPv4"
    } else if ip.parse::<std::net::Ipv6Addr>().is_ok() {
        "IPv6"
    } else {
        "unknown"
    }
}
