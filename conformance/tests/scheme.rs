//! Replays the scheme oracle's goldens (`conformance/apiserver/scheme/goldens`, written by
//! `conformance/apiserver/scheme/regen` with `smd-scheme`, built from the k8s.io/kubernetes
//! v1.37.2 tree the server is built from): for every body, smd's defaulting applied to what Go
//! decoded must give what Go's defaulting made of it (`decoded` → `defaulted`, both in the
//! external version, before the conversion the server's codec does next). And coverage: every kind and version
//! the server serves (`goldens/served.json`, from its discovery) is in a group's table of
//! `smd::builtin::defaults`, has an empty-object case, and the table's claim holds against the
//! oracle (a kind said to have no defaulting has none in any case; one said to have some shows
//! it in some case). Needs neither Go nor a server.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use smd::builtin::defaults::{Defaulting, coverage, kinds};
use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("apiserver/scheme/goldens")
}

fn read(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Value::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_map().and_then(|m| m.get(key))
}

fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    get(v, key).and_then(Value::as_str).unwrap_or("")
}

/// Every place where `a` and `b` differ, as a path (list indices as `[*]`) and a description.
fn differences(a: &Value, b: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            let keys: BTreeSet<&str> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let here = format!("{path}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => differences(p, q, &here, out),
                    (p, q) => out.push((here, format!("{p:?} / {q:?}"))),
                }
            }
        }
        (Value::List(x), Value::List(y)) if x.len() == y.len() => {
            for (p, q) in x.iter().zip(y) {
                differences(p, q, &format!("{path}[*]"), out);
            }
        }
        _ if a == b => {}
        _ => out.push((path.to_owned(), format!("{a:?} / {b:?}"))),
    }
}

/// What the real server's registry and admission add on create (dryRun=All) beyond the codec
/// (decode, defaulting, conversion) `smd-scheme` runs: `PrepareForCreate` of each kind's strategy,
/// the allocators, the admission plugins. Issue 13's business, not the scheme's; listed by kind,
/// path prefix and what adds it. A difference between the oracle's codec and the server outside
/// this list fails the test.
const REGISTRY_ADDITIONS: &[(&str, &str, &str)] = &[
    (
        "DaemonSet",
        ".metadata.annotations",
        "strategy: deprecated.daemonset.template.generation = generation",
    ),
    (
        "Job",
        ".metadata.labels",
        "strategy: job-name and controller-uid labels",
    ),
    (
        "Job",
        ".spec.selector",
        "strategy: the generated selector (controller-uid)",
    ),
    (
        "Job",
        ".spec.template.metadata.labels",
        "strategy: job-name and controller-uid labels",
    ),
    (
        "Namespace",
        ".spec.finalizers",
        "strategy: the kubernetes finalizer",
    ),
    (
        "Node",
        ".spec.taints",
        "admission (TaintNodesByCondition): the not-ready taint",
    ),
    (
        "PersistentVolume",
        ".metadata.finalizers",
        "admission (StorageObjectInUseProtection): pv-protection",
    ),
    (
        "PersistentVolume",
        ".status.lastPhaseTransitionTime",
        "strategy: the phase's transition time",
    ),
    (
        "PersistentVolumeClaim",
        ".metadata.finalizers",
        "admission (StorageObjectInUseProtection): pvc-protection",
    ),
    (
        "Pod",
        ".spec.containers[*].volumeMounts",
        "admission (ServiceAccount): the token volume's mount",
    ),
    (
        "Pod",
        ".spec.initContainers[*].volumeMounts",
        "admission (ServiceAccount): the token volume's mount",
    ),
    (
        "Pod",
        ".spec.volumes",
        "admission (ServiceAccount): the kube-api-access token volume",
    ),
    (
        "Pod",
        ".spec.serviceAccount",
        "admission (ServiceAccount): default",
    ),
    (
        "Pod",
        ".spec.serviceAccountName",
        "admission (ServiceAccount): default",
    ),
    (
        "Pod",
        ".spec.preemptionPolicy",
        "admission (Priority): from the default priority class",
    ),
    ("Pod", ".spec.priority", "admission (Priority): 0"),
    (
        "Pod",
        ".spec.tolerations",
        "admission (DefaultTolerationSeconds): not-ready and unreachable, 300 s",
    ),
    ("Pod", ".status.phase", "strategy: Pending"),
    ("Pod", ".status.qosClass", "strategy: the QoS class"),
    (
        "Service",
        ".spec.clusterIP",
        "registry: the allocated cluster IP",
    ),
    (
        "Service",
        ".spec.clusterIPs",
        "registry: the allocated cluster IPs",
    ),
    ("Service", ".spec.ipFamilies", "registry: the IP families"),
    ("Service", ".spec.ipFamilyPolicy", "registry: SingleStack"),
    (
        "Service",
        ".spec.ports[*].nodePort",
        "registry: the allocated node port",
    ),
    ("Service", ".status", "strategy: status reset on create"),
];

/// What the server's codec changes after the defaulting, by converting to the internal version
/// and back (`defaulted` → `server`), is smd's `round_trip_internal`: a DaemonSet's
/// template-generation annotation, a Deployment's rollback annotation, a StatefulSet's claim
/// templates' apiVersion and kind, the autoscaling round-trip annotations and v1's default CPU
/// target, a Secret's stringData in data, a Node's podCIDR and podCIDRs.
#[test]
fn the_conversion_agrees_with_the_codec() {
    let cases = cases();
    assert!(cases.is_ok(), "{:?}", cases.err());
    let mut failures = Vec::new();
    let mut converted = 0;
    for case in cases.unwrap_or_default() {
        let (Some(defaulted), Some(server)) = (&case.defaulted, &case.server) else {
            continue;
        };
        let mut ours = defaulted.clone();
        if let Err(e) = smd::builtin::round_trip_internal(&case.gvk, &mut ours) {
            failures.push(format!("{}: {}: smd refuses: {e}", case.file, case.name));
            continue;
        }
        if &ours != defaulted {
            converted += 1;
        }
        let mut found = Vec::new();
        differences(&ours, server, "", &mut found);
        for (path, what) in found {
            failures.push(format!(
                "{}: {}: {path}: smd / server: {what}",
                case.file, case.name
            ));
        }
    }
    println!("bodies the conversion changes: {converted}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_oracle_agrees_with_the_real_server() {
    let cases = cases();
    assert!(cases.is_ok(), "{:?}", cases.err());
    let mut failures = Vec::new();
    let mut agree = 0;
    let mut registry: BTreeMap<&str, usize> = BTreeMap::new();
    let mut asked = 0;
    for case in cases.unwrap_or_default() {
        let (Some(server), Some(dry_run)) = (&case.server, &case.dry_run) else {
            continue;
        };
        asked += 1;
        let mut found = Vec::new();
        differences(server, dry_run, "", &mut found);
        if found.is_empty() {
            agree += 1;
        }
        for (path, what) in found {
            let listed = REGISTRY_ADDITIONS
                .iter()
                .find(|(k, prefix, _)| *k == case.gvk.kind && path.starts_with(prefix));
            match listed {
                Some((_, _, why)) => *registry.entry(why).or_default() += 1,
                None => failures.push(format!(
                    "{}: {}: {path}: codec / server: {what}",
                    case.file, case.name
                )),
            }
        }
    }
    println!(
        "dry runs: {asked} bodies, {agree} identical to the oracle's codec; registry additions:"
    );
    for (why, n) in &registry {
        println!("  {n:3}  {why}");
    }
    assert!(
        asked >= 30,
        "only {asked} cases were sent to the real server"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The first place where `a` and `b` differ, as a path and both values.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            let keys: BTreeSet<&str> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) => first_difference(p, q, &format!("{path}.{k}")),
                (p, q) => Some(format!("{path}.{k}: smd {p:?}, Go {q:?}")),
            })
        }
        (Value::List(x), Value::List(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{path}: smd {a:?}, Go {b:?}")),
    }
}

struct Case {
    file: String,
    name: String,
    gvk: GroupVersionKind,
    decoded: Option<Value>,
    defaulted: Option<Value>,
    server: Option<Value>,
    dry_run: Option<Value>,
    /// The body the scenario gives.
    object: Option<Value>,
    /// The codec's refusal, when it refused the body.
    error: String,
}

fn cases() -> Result<Vec<Case>, String> {
    let mut files: Vec<_> = std::fs::read_dir(root())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("served.json"));
    files.sort();
    assert!(!files.is_empty(), "no goldens under {}", root().display());
    let scenarios = root().join("../scenarios");
    let mut out = Vec::new();
    for path in files {
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_owned();
        let scenario = scenarios.join(Path::new(&file).with_extension("yaml"));
        let scenario_text = std::fs::read_to_string(&scenario)
            .map_err(|e| format!("{}: {e}", scenario.display()))?;
        let scenario_value = smd_fieldpath::yaml::from_str(&scenario_text)
            .map_err(|e| format!("{}: {e}", scenario.display()))?;
        let objects: BTreeMap<String, Value> = get(&scenario_value, "cases")
            .and_then(Value::as_list)
            .into_iter()
            .flatten()
            .filter_map(|c| Some((str_at(c, "name").to_owned(), get(c, "object")?.clone())))
            .collect();
        let golden = read(&path)?;
        if str_at(&golden, "format") != "smd-scheme-goldens/v1" {
            return Err(format!("{file}: not smd-scheme-goldens/v1"));
        }
        let results = get(&golden, "results")
            .and_then(Value::as_map)
            .ok_or_else(|| format!("{file}: no results"))?;
        for (name, result) in results.iter() {
            if !scenario_text.contains(&format!("- name: {name}\n")) {
                return Err(format!(
                    "{file}: {name} has a golden but no scenario: run conformance/apiserver/scheme/regen"
                ));
            }
            let decoded = get(result, "decoded").cloned();
            let defaulted = get(result, "defaulted").cloned();
            let object = decoded.as_ref().or(defaulted.as_ref());
            // A body the legacy scheme refused names its kind only in the scenario.
            let given = objects.get(name);
            let gvk = match object.or(given) {
                Some(o) => {
                    GroupVersionKind::from_api_version(str_at(o, "apiVersion"), str_at(o, "kind"))
                }
                None => {
                    let error = str_at(result, "error");
                    let kind = error.split('"').nth(1).unwrap_or("");
                    let api_version = error.split('"').nth(3).unwrap_or("");
                    GroupVersionKind::from_api_version(api_version, kind)
                }
            };
            out.push(Case {
                file: file.clone(),
                name: name.to_owned(),
                gvk,
                decoded,
                defaulted,
                server: get(result, "server").cloned(),
                dry_run: get(result, "dryRun").cloned(),
                object: given.cloned(),
                error: str_at(result, "error").to_owned(),
            });
        }
    }
    Ok(out)
}

/// Bodies where smd's defaulting cannot agree, because what it is given lost something Go's
/// defaulting sees: Go decodes an empty list or map as non-nil, and a `!= nil` test in a
/// `SetDefaults_*` function tells it from an absent one, but the encoder drops it (`omitempty`),
/// so `decoded` (and the round trip smd defaults after) no longer has it. Each must still
/// differ. (file, case, why)
const KNOWN_DISAGREEMENTS: &[(&str, &str, &str)] = &[
    (
        "autoscaling.json",
        "hpa-v2-behavior-empty-policies",
        "policies: [] is non-nil for copyHPAScalingRules (autoscaling/v2/defaults.go:122)",
    ),
    (
        "core.json",
        "node-allocatable-empty",
        "allocatable: {} is non-nil for SetDefaults_NodeStatus (core/v1/defaults.go:388)",
    ),
];

#[test]
fn defaulting_agrees_with_the_scheme() {
    let mut failures = Vec::new();
    let mut agree = 0;
    let mut refused = 0;
    let mut missing = 0;
    let mut known_seen = vec![false; KNOWN_DISAGREEMENTS.len()];
    let cases = cases();
    assert!(cases.is_ok(), "{:?}", cases.err());
    for case in cases.unwrap_or_default() {
        let place = format!("{}: {}", case.file, case.name);
        let (Some(decoded), Some(defaulted)) = (&case.decoded, &case.defaulted) else {
            // Only the kinds outside the legacy scheme may be refused, and they say so; or
            // the conversion to the internal version refused the body, as smd's does.
            let smd_refusal = case
                .object
                .as_ref()
                .and_then(|o| smd::builtin::decode(&case.gvk, o).err())
                .map(|e| e.message);
            match coverage(&case.gvk) {
                Some(Defaulting::Missing(_)) => refused += 1,
                _ if smd_refusal.as_deref() == Some(case.error.as_str()) => refused += 1,
                other => failures.push(format!(
                    "{place}: Go refused it ({}) but the table says {other:?} and smd says {smd_refusal:?}",
                    case.error
                )),
            }
            continue;
        };
        let mut ours = decoded.clone();
        // The oracle writes the time the defaulting took from the clock as `<now>`.
        smd::builtin::defaults::default_at(&case.gvk, &mut ours, "<now>");
        match (first_difference(&ours, defaulted, ""), coverage(&case.gvk)) {
            (None, _) => agree += 1,
            // A kind whose table says what is not implemented may differ, and only there.
            (Some(d), Some(Defaulting::Missing(why))) => {
                missing += 1;
                println!("{place}: differs as listed ({why}): {d}");
            }
            (Some(d), _) => {
                match KNOWN_DISAGREEMENTS
                    .iter()
                    .position(|(f, c, _)| *f == case.file && *c == case.name)
                {
                    Some(i) => {
                        known_seen[i] = true;
                        println!(
                            "{place}: differs as listed ({}): {d}",
                            KNOWN_DISAGREEMENTS[i].2
                        );
                    }
                    None => failures.push(format!("{place}: {d}")),
                }
            }
        }
    }
    for (i, seen) in known_seen.iter().enumerate() {
        if !seen {
            let (f, c, _) = KNOWN_DISAGREEMENTS[i];
            failures.push(format!(
                "{f}: {c}: listed in KNOWN_DISAGREEMENTS but agrees (or is gone)"
            ));
        }
    }
    println!(
        "scheme goldens: {agree} bodies agree, {} listed disagreements, {missing} differ where the tables say defaulting is missing, {refused} outside the legacy scheme",
        KNOWN_DISAGREEMENTS.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_served_kind_is_covered() {
    let served = read(&root().join("served.json"));
    assert!(served.is_ok(), "{:?}", served.err());
    let served = served.unwrap_or_default();
    let served: BTreeSet<(String, String, String)> = get(&served, "kinds")
        .and_then(Value::as_list)
        .unwrap_or_default()
        .iter()
        .map(|k| {
            (
                str_at(k, "group").to_owned(),
                str_at(k, "version").to_owned(),
                str_at(k, "kind").to_owned(),
            )
        })
        .collect();
    assert!(
        served.len() > 50,
        "served.json lists {} kinds",
        served.len()
    );
    let tables: BTreeSet<(String, String, String)> = kinds()
        .map(|k| (k.group.to_owned(), k.version.to_owned(), k.kind.to_owned()))
        .collect();
    let mut problems = Vec::new();
    for k in served.difference(&tables) {
        problems.push(format!("{k:?} is served but in no group's table"));
    }
    for k in tables.difference(&served) {
        problems.push(format!("{k:?} is in a table but not served"));
    }

    // The tables' claims, checked against the oracle's cases.
    let mut changed: BTreeMap<(String, String, String), (usize, usize)> = BTreeMap::new();
    let cases = cases();
    assert!(cases.is_ok(), "{:?}", cases.err());
    for case in cases.unwrap_or_default() {
        let key = (
            case.gvk.group.clone(),
            case.gvk.version.clone(),
            case.gvk.kind.clone(),
        );
        let entry = changed.entry(key).or_default();
        entry.0 += 1;
        if let (Some(r), Some(d)) = (&case.decoded, &case.defaulted) {
            if r != d {
                entry.1 += 1;
            }
        }
    }
    let mut missing = Vec::new();
    let mut clocked = Vec::new();
    for k in kinds() {
        let key = (k.group.to_owned(), k.version.to_owned(), k.kind.to_owned());
        let (count, defaulted) = changed.get(&key).copied().unwrap_or((0, 0));
        if count == 0 {
            problems.push(format!("{key:?} has no case"));
        }
        match k.defaulting {
            Defaulting::None if defaulted > 0 => problems.push(format!(
                "{key:?} is said to have no defaulting, but Go defaulted {defaulted} of its {count} cases"
            )),
            Defaulting::Defaults if defaulted == 0 => problems.push(format!(
                "{key:?} is said to have defaulting, but none of its {count} cases shows it"
            )),
            Defaulting::Missing(why) => missing.push(format!("{key:?}: {why}")),
            Defaulting::Clocked(why) => {
                clocked.push(format!("{key:?}: {why}"));
                if defaulted == 0 {
                    problems.push(format!(
                        "{key:?} is said to have defaulting, but none of its {count} cases shows it"
                    ));
                }
            }
            _ => {}
        }
    }
    println!(
        "coverage: {} served kinds and versions, {} without implemented defaulting:\n{}\n{} with a default from the clock (default_at):\n{}",
        served.len(),
        missing.len(),
        missing.join("\n"),
        clocked.len(),
        clocked.join("\n")
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
