//! Random cases of kind `fieldmanager`: sequences of requests to a ConfigMap or Deployment
//! endpoint by a handful of managers — applies (forced or not, some to `status`), creates,
//! updates (main and status), HPA-style scales and kubectl's client-side-apply upgrades —
//! drawn from a small vocabulary so that managers meet on the same fields.

use super::rng::Rng;
use serde_json::{Map, Value as Json, json};

const APPLIERS: [&str; 3] = ["kubectl", "helm", "argocd"];
const UPDATERS: [&str; 3] = [
    "kube-controller-manager",
    "operator",
    "kubectl-client-side-apply",
];

fn pick_some<'a>(rng: &mut Rng, items: &[&'a str], percent: usize) -> Vec<&'a str> {
    items
        .iter()
        .copied()
        .filter(|_| rng.percent(percent))
        .collect()
}

fn labels(rng: &mut Rng) -> Json {
    let mut m = Map::new();
    m.insert("app".into(), json!("web"));
    for key in pick_some(rng, &["tier", "team", "env"], 40) {
        m.insert(key.into(), json!(rng.pick(&["a", "b"])));
    }
    Json::Object(m)
}

fn metadata(rng: &mut Rng) -> Json {
    let mut m = json!({ "name": "web", "namespace": "default" });
    if rng.percent(50) {
        m["labels"] = labels(rng);
    }
    if rng.percent(25) {
        m["annotations"] = json!({ rng.pick(&["note", "owner"]): rng.pick(&["x", "y"]) });
    }
    m
}

fn config_map(rng: &mut Rng) -> Json {
    let mut data = Map::new();
    for key in pick_some(rng, &["A", "B", "C", "D", "E"], 50) {
        data.insert(key.into(), json!(rng.pick(&["1", "2", "on"])));
    }
    let mut object = json!({ "apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata(rng) });
    if !data.is_empty() || rng.percent(30) {
        object["data"] = Json::Object(data);
    }
    object
}

fn container(rng: &mut Rng, name: &str) -> Json {
    let mut c = json!({ "name": name, "image": format!("{name}:{}", rng.pick(&["1", "2"])) });
    if rng.percent(50) {
        let ports: Vec<Json> = pick_some(rng, &["80", "443"], 60)
            .into_iter()
            .map(|p| json!({ "containerPort": p.parse::<i64>().unwrap_or(80), "protocol": "TCP" }))
            .collect();
        c["ports"] = Json::Array(ports);
    }
    if rng.percent(40) {
        let env: Vec<Json> = pick_some(rng, &["A", "B"], 60)
            .into_iter()
            .map(|n| json!({ "name": n, "value": rng.pick(&["x", "y"]) }))
            .collect();
        c["env"] = Json::Array(env);
    }
    if rng.percent(20) {
        c["args"] = json!(pick_some(rng, &["--v=2", "--debug", "--v=2"], 60));
    }
    c
}

fn deployment(rng: &mut Rng) -> Json {
    let mut names = pick_some(rng, &["nginx", "sidecar"], 60);
    if names.is_empty() {
        names.push("nginx");
    }
    let containers: Vec<Json> = names.iter().map(|n| container(rng, n)).collect();
    let mut spec = json!({
        "selector": { "matchLabels": { "app": "web" } },
        "template": {
            "metadata": { "labels": { "app": "web" } },
            "spec": { "containers": containers },
        },
    });
    if rng.percent(60) {
        spec["replicas"] = json!(rng.range(0, 5));
    }
    if rng.percent(20) {
        spec["paused"] = json!(rng.percent(50));
    }
    let mut object = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": metadata(rng),
        "spec": spec,
    });
    if rng.percent(30) {
        object["status"] = json!({ "replicas": rng.range(0, 5), "observedGeneration": 1 });
    }
    object
}

fn spec(object: &Json) -> Json {
    json!({ "json": object.to_string() })
}

/// One sequence: a create (by apply or POST), then 1–6 requests.
pub fn sequence_case(rng: &mut Rng) -> Json {
    let is_deployment = rng.percent(60);
    let object = |rng: &mut Rng| {
        if is_deployment {
            deployment(rng)
        } else {
            config_map(rng)
        }
    };
    let mut steps = Vec::new();
    let first = object(rng);
    if rng.percent(70) {
        steps
            .push(json!({ "op": "apply", "manager": rng.pick(&APPLIERS), "object": spec(&first) }));
    } else {
        steps.push(
            json!({ "op": "create", "manager": rng.pick(&UPDATERS), "object": spec(&first) }),
        );
    }
    for _ in 0..rng.range(1, 6) {
        let weights = if is_deployment {
            [45, 25, 10, 12, 3, 5]
        } else {
            [50, 35, 0, 0, 5, 10]
        };
        let step = match rng.weighted(&weights) {
            0 => {
                let mut s = json!({ "op": "apply", "manager": rng.pick(&APPLIERS), "object": spec(&object(rng)) });
                if rng.percent(25) {
                    s["force"] = json!(true);
                }
                s
            }
            1 => {
                let mut s = json!({ "op": "update", "object": spec(&object(rng)) });
                if rng.percent(85) {
                    s["manager"] = json!(rng.pick(&UPDATERS));
                } else {
                    s["userAgent"] = json!("kubectl/v1.37.0 (linux/amd64)");
                }
                if is_deployment && rng.percent(30) {
                    s["subresource"] = json!("status");
                }
                s
            }
            2 => json!({
                "op": "apply",
                "manager": rng.pick(&["kube-controller-manager", "kubectl"]),
                "subresource": "status",
                "force": rng.percent(50),
                "object": spec(&object(rng)),
            }),
            3 => {
                json!({ "op": "scale", "manager": "horizontal-pod-autoscaler", "replicas": rng.range(0, 6) })
            }
            4 => json!({ "op": "csaUpgrade", "manager": "kubectl" }),
            _ => {
                // An update that resets or carries managedFields of its own.
                let mut body = object(rng);
                body["metadata"]["managedFields"] = if rng.percent(50) {
                    json!([])
                } else {
                    json!([{}])
                };
                json!({ "op": "update", "manager": rng.pick(&UPDATERS), "object": spec(&body) })
            }
        };
        steps.push(step);
    }
    let resource = if is_deployment {
        json!({ "apiVersion": "apps/v1", "kind": "Deployment" })
    } else {
        json!({ "apiVersion": "v1", "kind": "ConfigMap" })
    };
    json!({
        "kind": "fieldmanager",
        "op": "sequence",
        "resource": resource,
        "steps": steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::judge::smd_result;

    #[test]
    fn random_sequences_are_well_formed_and_smd_answers_them() {
        for i in 0..200 {
            let case = sequence_case(&mut Rng::for_case(13, i));
            let result = smd_result(&case);
            assert!(
                result.get("smdPanic").is_none() && result.get("smdMalformed").is_none(),
                "{case}\n{result}"
            );
        }
    }
}
