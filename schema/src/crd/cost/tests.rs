//! Replays `tests/data/crd_cost.json` (gogen crdcost): for every schema node of the CRD
//! scenarios, the cardinality the API server gives it and, for nodes with rules, the smallest
//! size and the size estimates its rule compiler answers for paths from `self`.

use super::{Sizes, children_per_value, estimate_cost};
use crate::crd::rules::{compile, rule_envs};
use smd_cel::check::Type;
use smd_value::{Map, Value};
use std::collections::BTreeMap;

fn corpus() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/crd_cost.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every node with its path (as gogen writes it), cardinality and whether it is a resource.
fn nodes<'a>(root: &'a Map) -> Vec<(String, &'a Map, Option<u64>, bool)> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), root, Some(1u64), true)];
    while let Some((path, m, cardinality, resource)) = stack.pop() {
        let below = cardinality.and_then(|c| Some(c.saturating_mul(children_per_value(m)?)));
        let mut child = |key: String, v: &'a Value| {
            if let Some(s) = v.as_map() {
                let embedded = matches!(
                    s.get("x-kubernetes-embedded-resource"),
                    Some(Value::Bool(true))
                );
                stack.push((format!("{path}.{key}"), s, below, embedded));
            }
        };
        if let Some(props) = m.get("properties").and_then(Value::as_map) {
            for (k, p) in props.iter() {
                child(format!("properties[{k}]"), p);
            }
        }
        if let Some(a) = m.get("additionalProperties") {
            child("additionalProperties".to_owned(), a);
        }
        if let Some(i) = m.get("items") {
            child("items".to_owned(), i);
        }
        out.push((path, m, cardinality, resource));
    }
    out
}

#[test]
fn sizes_and_cardinalities_match_the_api_server() {
    let corpus = corpus();
    let cases = corpus["cases"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    assert!(!cases.is_empty(), "empty corpus");
    let (mut failures, mut checked) = (Vec::new(), 0);
    let (mut costs_total, mut costs_agree) = (0, 0);
    for case in cases {
        let name = format!("{} {}", case["case"], case["version"]);
        let schema = Value::from(case["schema"].clone());
        let Some(root) = schema.as_map() else {
            failures.push(format!("{name}: schema is not an object"));
            continue;
        };
        let expected: BTreeMap<&str, &serde_json::Value> = case["nodes"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|n| (n["path"].as_str().unwrap_or(""), n))
            .collect();
        let found = nodes(root);
        if found.len() != expected.len() {
            failures.push(format!(
                "{name}: {} nodes, Go has {}",
                found.len(),
                expected.len()
            ));
        }
        for (path, m, cardinality, resource) in found {
            let Some(want) = expected.get(path.as_str()) else {
                failures.push(format!("{name} {path}: not in Go's nodes"));
                continue;
            };
            checked += 1;
            if want["cardinality"].as_u64() != cardinality {
                failures.push(format!(
                    "{name} {path}: cardinality {cardinality:?}, Go {}",
                    want["cardinality"]
                ));
            }
            let Some(sizes) = want["sizes"].as_object() else {
                continue;
            };
            let Some(ours) = Sizes::of(m, resource) else {
                failures.push(format!("{name} {path}: no sizes, Go has some"));
                continue;
            };
            if Some(ours.min_size) != want["minSize"].as_i64() {
                failures.push(format!(
                    "{name} {path}: smallest size {}, Go {}",
                    ours.min_size, want["minSize"]
                ));
            }
            let rules = m.get("x-kubernetes-validations").and_then(Value::as_list);
            let costs = want["rules"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            let envs = rule_envs(m, resource);
            for (i, (rule, go)) in rules.unwrap_or_default().iter().zip(costs).enumerate() {
                if go["compiled"] != true {
                    continue;
                }
                let Some((env_old, env_optional)) = &envs else {
                    failures.push(format!(
                        "{name} {path}: no environment, Go compiles rule {i}"
                    ));
                    continue;
                };
                let text = |k: &str| rule.as_map().and_then(|r| r.get(k)).and_then(Value::as_str);
                let optional = rule.as_map().and_then(|r| r.get("optionalOldSelf"));
                let env = match optional {
                    Some(Value::Bool(true)) => env_optional,
                    _ => env_old,
                };
                checked += 1;
                if go["maxCardinality"].as_u64() != Some(ours.fitting_in_request()) {
                    failures.push(format!(
                        "{name} {path}: rule {i}: {} fit in a request, Go {}",
                        ours.fitting_in_request(),
                        go["maxCardinality"]
                    ));
                }
                let expressions = [
                    (text("rule"), Type::Bool, "", "maxCost"),
                    (
                        text("messageExpression"),
                        Type::String,
                        "m",
                        "messageExpressionMaxCost",
                    ),
                ];
                for (source, want_type, what, key) in expressions {
                    let Some(source) = source.filter(|s| !s.is_empty()) else {
                        continue;
                    };
                    let Ok((parsed, checked_types)) = compile(source, env, want_type, what) else {
                        // A messageExpression that does not compile costs 0 in Go too.
                        continue;
                    };
                    let cost = estimate_cost(&parsed, &checked_types, &ours).max;
                    costs_total += 1;
                    if go[key].as_u64() == Some(cost) {
                        costs_agree += 1;
                    } else {
                        failures.push(format!(
                            "{name} {path}: rule {i} {key}: {cost}, Go {}",
                            go[key]
                        ));
                    }
                }
            }
            for (steps, size) in sizes {
                checked += 1;
                let steps: Vec<String> = steps.split('.').map(str::to_owned).collect();
                let got = ours.at(&steps).map(|s| s.max);
                if got != size.as_u64() {
                    failures.push(format!(
                        "{name} {path}: {}: {got:?}, Go {size}",
                        steps.join(".")
                    ));
                }
            }
        }
    }
    println!("estimated costs: {costs_agree} of {costs_total} equal cel-go's");
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The limits, with cel-go's own estimates fed in: the cost errors of each CRD must be the
/// server's, whatever smd's estimator answers.
#[test]
fn budget_with_cel_go_estimates_gives_the_server_errors() {
    let corpus = corpus();
    let cases = corpus["cases"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut by_case: BTreeMap<&str, Vec<&serde_json::Value>> = BTreeMap::new();
    for case in cases {
        by_case
            .entry(case["case"].as_str().unwrap_or(""))
            .or_default()
            .push(case);
    }
    let (mut failures, mut with_errors) = (Vec::new(), 0);
    for (name, versions) in &by_case {
        let mut out = Vec::new();
        for version in versions {
            let shared = version["shared"] == true;
            let base = match shared {
                true => "spec.validation.openAPIV3Schema".to_owned(),
                false => format!("spec.versions[{}].schema.openAPIV3Schema", version["index"]),
            };
            let schema = Value::from(version["schema"].clone());
            let Some(root) = schema.as_map() else {
                continue;
            };
            let nodes: BTreeMap<String, (&Map, Option<u64>, bool)> = nodes(root)
                .into_iter()
                .map(|(p, m, c, r)| (p, (m, c, r)))
                .collect();
            let mut budget = super::Budget::default();
            for node in version["nodes"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                let path = node["path"].as_str().unwrap_or("");
                let (Some(rules), Some(&(m, cardinality, resource))) =
                    (node["rules"].as_array(), nodes.get(path))
                else {
                    continue;
                };
                let Some(sizes) = Sizes::of(m, resource) else {
                    continue;
                };
                for (i, rule) in rules.iter().enumerate() {
                    if rule["compiled"] != true {
                        continue;
                    }
                    let at = format!("{base}{path}.x-kubernetes-validations[{i}]");
                    for (key, part) in [
                        ("maxCost", super::Part::Rule),
                        ("messageExpressionMaxCost", super::Part::MessageExpression),
                    ] {
                        let estimate = rule[key].as_u64().unwrap_or(0);
                        budget.observe(estimate, &sizes, cardinality, part, &at, "", &mut out);
                    }
                }
            }
            budget.finish(&base, "", &mut out);
            if shared {
                break;
            }
        }
        let mut ours: Vec<String> = out.into_iter().map(|e| e.go_text).collect();
        ours.sort();
        let go: Vec<&str> = versions[0]["costErrors"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(serde_json::Value::as_str)
            .collect();
        with_errors += usize::from(!go.is_empty());
        if ours != go {
            failures.push(format!("{name}:\n  smd {ours:#?}\n  Go  {go:#?}"));
        }
    }
    assert!(with_errors > 20, "only {with_errors} CRDs with cost errors");
    assert!(
        failures.is_empty(),
        "{} of {} CRDs differ:\n{}",
        failures.len(),
        by_case.len(),
        failures.join("\n")
    );
}
