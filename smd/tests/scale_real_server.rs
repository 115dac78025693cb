//! Issue 11, item 8: requests to the scale subresource with odd `spec.replicas` are answered as a
//! real kube-apiserver v1.37.2 answers them. The expected answers are that server's own, recorded
//! by `tests/data/scale-real-server/record` (see its README): nothing here is derived from smd.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use smd::fieldpath::Value;
use smd::managedfields::{Endpoint, Error, Timestamp, TypeResolver};
use smd_schema::gvk::GroupVersionKind;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scale-real-server")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn value(json: &str) -> Value {
    Value::from_json(json).unwrap()
}

/// The recorded cases: name and the JSON text of `spec.replicas` (`None`: no replicas).
fn cases() -> Vec<(String, Option<String>)> {
    read("cases.txt")
        .lines()
        .map(|line| match line.split_once(' ') {
            Some((name, json)) => (name.to_owned(), Some(json.to_owned())),
            None => (line.to_owned(), None),
        })
        .collect()
}

fn endpoint(target: &str) -> Endpoint {
    match target {
        "deployment" => Endpoint::kubernetes(GroupVersionKind::new("apps", "v1", "Deployment")),
        _ => {
            let crd = value(&read("crd.json"));
            let converted = smd_schema::crd::convert(&crd).unwrap();
            let types = TypeResolver::kubernetes().with_crds([converted]).unwrap();
            Endpoint::custom_resource(&crd, "v1", types).unwrap()
        }
    }
}

/// The object as the recording left it before each request: applied by `setup`.
fn stored(endpoint: &Endpoint, target: &str) -> Value {
    let object = value(&read(&format!("{target}.json")));
    endpoint
        .apply(None, &object, "setup", false, "", Timestamp::from_unix(0))
        .unwrap()
}

fn scale_patch(replicas: Option<&str>) -> Value {
    let spec = replicas.map_or_else(|| "{}".to_owned(), |r| format!("{{\"replicas\":{r}}}"));
    value(&format!(
        "{{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\
         \"metadata\":{{\"name\":\"web\",\"namespace\":\"default\"}},\"spec\":{spec}}}"
    ))
}

/// The recorded HTTP status and body.
fn response(name: &str) -> (u16, Json) {
    let text = read(&format!("{name}.response"));
    let (body, code) = text.trim_end().rsplit_once('\n').unwrap();
    (code.parse().unwrap(), serde_json::from_str(body).unwrap())
}

/// `replicas` and `managedFields` (without `time`) of a stored object, as the recording keeps
/// them.
fn summary(object: &Value) -> Json {
    let object: Json = serde_json::to_value(object).unwrap();
    let mut entries = object["metadata"]["managedFields"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for e in &mut entries {
        e.as_object_mut().unwrap().remove("time");
    }
    serde_json::json!({
        "replicas": object["spec"]["replicas"].as_i64().unwrap_or(0),
        "managedFields": entries,
    })
}

/// What differs between smd's answer and the server's, if anything.
fn compare(name: &str, got: Result<Value, Error>) -> Option<String> {
    let (code, body) = response(name);
    match got {
        Ok(object) => {
            let expected: Json =
                serde_json::from_str(&read(&format!("{name}.stored.json"))).unwrap();
            let got = summary(&object);
            if code != 200 {
                return Some(format!(
                    "{name}: the server answered {code} {}, smd accepted and stored {got}",
                    body["message"]
                ));
            }
            (got != expected)
                .then(|| format!("{name}: stored\n  server {expected}\n  smd    {got}"))
        }
        Err(e) => {
            let causes: Vec<Json> = e
                .causes()
                .into_iter()
                .map(|c| serde_json::json!({"reason": c.kind, "message": c.message, "field": c.field}))
                .collect();
            let expected_causes = body["details"]["causes"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let same = code == e.code()
                && body["message"].as_str() == Some(e.to_string().as_str())
                && body["reason"].as_str() == e.reason()
                && causes == expected_causes;
            (!same).then(|| {
                format!(
                    "{name}:\n  server {code} {:?} {} {:?}\n  smd    {} {:?} {:?} {:?}",
                    body["reason"],
                    body["message"],
                    expected_causes,
                    e.code(),
                    e.reason(),
                    e.to_string(),
                    causes
                )
            })
        }
    }
}

#[test]
fn scale_requests_are_answered_as_the_real_server_answers_them() {
    let mut differ = Vec::new();
    let mut compared = 0;
    let mut not_expressible = Vec::new();
    for target in ["deployment", "widget"] {
        let endpoint = endpoint(target);
        let stored = stored(&endpoint, target);
        for (case, replicas) in cases() {
            let name = format!("{target}.apply.{case}");
            let got = endpoint.apply(
                Some(&stored),
                &scale_patch(replicas.as_deref()),
                "scaler",
                true,
                "scale",
                Timestamp::from_unix(60),
            );
            differ.extend(compare(&name, got));
            compared += 1;

            // `Endpoint::scale` takes the replicas as an integer (the server decodes the PUT
            // body into an int32 first; JSON `null` or no replicas is 0). Bodies that are not
            // integers are the JSON decoder's business, not the library's.
            let name = format!("{target}.put.{case}");
            let n = match replicas.as_deref() {
                None | Some("null") => Some(0),
                Some(text) => text.parse::<i64>().ok(),
            };
            match n {
                Some(n) => {
                    let got = endpoint
                        .scale(&stored, n, "scaler", Timestamp::from_unix(60))
                        .map(|w| w.object);
                    differ.extend(compare(&name, got));
                    compared += 1;
                }
                None => not_expressible.push(case.clone()),
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {compared} answers differ from the real server's:\n{}",
        differ.len(),
        differ.join("\n")
    );
    not_expressible.sort();
    not_expressible.dedup();
    assert_eq!(
        not_expressible,
        [
            "exponent",
            "float-2-pow-32-plus-5",
            "float-3e9",
            "float-integral",
            "fraction",
            "huge",
            "string",
            "true"
        ],
        "only PUT bodies whose replicas are not JSON integers are left to the JSON decoder"
    );
}
