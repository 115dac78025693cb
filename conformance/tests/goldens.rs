//! Replays every scenario under `conformance/scenarios` and compares smd's results with the
//! goldens Go wrote. Every difference is reported, with the file, the case and the place in the
//! result.

use smd_conformance::openapi_ops::type_counts;
use smd_conformance::updater_ops::invariant_violations;
use smd_conformance::{
    KNOWN_DEVIATIONS, compare, load_golden, load_scenarios, run_case, skip_reason,
};
use std::path::{Path, PathBuf};

fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            scenario_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

/// What one scenario file's cases gave.
#[derive(Default)]
struct FileReport {
    failures: Vec<String>,
    passed: usize,
    deviations: usize,
    invariant_checks: usize,
    skipped: Vec<String>,
    types: std::collections::BTreeMap<&'static str, (usize, usize)>,
}

fn check_file(root: &Path, scenarios: &Path, file: &Path) -> FileReport {
    let mut report = FileReport::default();
    let relative = file.strip_prefix(scenarios).unwrap_or(file);
    let golden_path = root.join("goldens").join(relative).with_extension("json");
    let loaded = load_scenarios(file).and_then(|s| Ok((s, load_golden(&golden_path)?)));
    let (scenario, golden) = match loaded {
        Ok(pair) => pair,
        Err(e) => {
            report.failures.push(e);
            return report;
        }
    };
    for case in &scenario.cases {
        let name = case.get("name").and_then(|n| n.as_str()).unwrap_or("?");
        let Some(expected) = golden.get(name) else {
            report.failures.push(format!(
                "{}: {name}: no golden (run conformance/regen)",
                relative.display()
            ));
            continue;
        };
        if let Some(reason) = skip_reason(case) {
            report
                .skipped
                .push(format!("{}: {name}: {reason}", relative.display()));
            continue;
        }
        let relative_name = relative.to_string_lossy().replace('\\', "/");
        let diffs = match run_case(case) {
            Ok(actual) => {
                let counted = relative_name.starts_with("openapi/");
                if let Some((same, total)) = type_counts(expected, &actual).filter(|_| counted) {
                    let group = if relative_name.starts_with("openapi/kubernetes/v2") {
                        "Kubernetes v2 spec"
                    } else if relative_name.starts_with("openapi/kubernetes/v3/") {
                        "Kubernetes v3 documents"
                    } else if relative_name == "openapi/kube-openapi-crds.yaml" {
                        "kube-openapi's CRD documents"
                    } else {
                        "other OpenAPI scenarios"
                    };
                    let counts = report.types.entry(group).or_insert((0, 0));
                    counts.0 += same;
                    counts.1 += total;
                }
                if relative_name.starts_with("crd/") {
                    let crds = |j: &serde_json::Value| {
                        j.get("crds")
                            .and_then(|c| c.as_array())
                            .cloned()
                            .unwrap_or_default()
                    };
                    for (go, ours) in crds(expected).iter().zip(crds(&actual).iter()) {
                        if let Some((same, total)) = type_counts(go, ours) {
                            let counts = report.types.entry("CRD scenarios").or_insert((0, 0));
                            counts.0 += same;
                            counts.1 += total;
                        }
                    }
                }
                let mut diffs = compare(case, expected, &actual);
                if case.get("kind").and_then(|k| k.as_str()) == Some("updater") {
                    // The updater fuzz target's invariants hold in Go's answers too.
                    report.invariant_checks += 1;
                    for broken in invariant_violations(case, expected) {
                        diffs.push(format!(
                            "Go breaks an invariant of the fuzz target: {broken}"
                        ));
                    }
                }
                diffs
            }
            Err(malformed) => vec![format!("malformed case: {malformed}")],
        };
        let known = KNOWN_DEVIATIONS
            .iter()
            .any(|(f, c, _)| *f == relative_name && *c == name);
        if known {
            if diffs.is_empty() {
                report.failures.push(format!(
                    "{relative_name}: {name}: listed as a known deviation but now agrees with Go: remove it from KNOWN_DEVIATIONS"
                ));
            } else {
                report.deviations += 1;
            }
        } else if diffs.is_empty() {
            report.passed += 1;
        } else {
            report.failures.push(format!(
                "{}: {name}:\n    {}",
                relative.display(),
                diffs.join("\n    ")
            ));
        }
    }
    report
}

#[test]
fn every_scenario_matches_its_golden() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenarios = root.join("scenarios");
    let mut files = Vec::new();
    scenario_files(&scenarios, &mut files);
    assert!(
        !files.is_empty(),
        "no scenario files under {}",
        scenarios.display()
    );

    // The files are independent: as many at once as there are cores, reported in file order.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let reports: std::sync::Mutex<Vec<(usize, FileReport)>> = Default::default();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(file) = files.get(i) else { break };
                    let report = check_file(root, &scenarios, file);
                    reports
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, report));
                }
            });
        }
    });
    let mut reports = reports.into_inner().unwrap_or_else(|e| e.into_inner());
    reports.sort_by_key(|(i, _)| *i);
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut deviations = 0;
    let mut invariant_checks = 0;
    let mut skipped = Vec::new();
    let mut types: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for (_, r) in reports {
        failures.extend(r.failures);
        passed += r.passed;
        deviations += r.deviations;
        invariant_checks += r.invariant_checks;
        skipped.extend(r.skipped);
        for (group, (same, total)) in r.types {
            let counts = types.entry(group).or_insert((0, 0));
            counts.0 += same;
            counts.1 += total;
        }
    }
    for skip in &skipped {
        println!("SKIPPED {skip}");
    }
    for (group, (same, total)) in &types {
        println!("conformance: {group}: {same} of {total} types converted identically");
    }
    println!(
        "conformance: the updater fuzz target's invariants hold in Go's {invariant_checks} updater goldens"
    );
    println!(
        "conformance: {passed} cases agree with Go, {deviations} known deviations, {} skipped, {} differ",
        skipped.len(),
        failures.len()
    );
    // CI downloads the Go modules first: there, a case that cannot run is a failure.
    assert!(
        skipped.is_empty() || std::env::var_os("CI").is_none(),
        "{} cases skipped in CI",
        skipped.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Go:\n{}",
        failures.len(),
        failures.len() + passed + deviations,
        failures.join("\n")
    );
}
