//! Item 8: `smd apply` / `smd diff --subresource scale` refuse replicas a real kube-apiserver
//! v1.37.2 refuses, with its words (recorded in smd/tests/data/scale-real-server), instead of
//! storing a wrapped or negative value.

use crate::Scratch;

/// A Deployment as a server would hold it (a selector and a template its validation takes).
const LIVE: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  uid: 00000000-0000-4000-8000-000000000001
  managedFields:
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1: {\"f:spec\": {\"f:replicas\": {}}}
    manager: setup
    operation: Apply
    time: \"2026-01-01T00:00:00Z\"
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
";

/// The message the real server answered to this case (the recording's response body).
fn server_message(case: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../smd/tests/data/scale-real-server")
        .join(format!("deployment.apply.{case}.response"));
    let text = std::fs::read_to_string(&path).unwrap();
    let (body, _code) = text.trim_end().rsplit_once('\n').unwrap();
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    body["message"].as_str().unwrap().to_owned()
}

fn scale(replicas: &str) -> String {
    format!(
        "apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {{name: web, namespace: default}}\n\
         spec: {{replicas: {replicas}}}\n"
    )
}

#[test]
fn out_of_range_replicas_are_refused_with_the_servers_words() {
    for (case, replicas) in [
        ("minus-1", "-1"),
        ("2-pow-31", "2147483648"),
        ("fraction", "1.5"),
    ] {
        let s = Scratch::new();
        s.file("live.yaml", LIVE);
        s.file("scale.yaml", scale(replicas));
        let message = server_message(case);
        for command in ["apply", "diff"] {
            let run = s.smd(&[
                command,
                "live.yaml",
                "scale.yaml",
                "--manager",
                "hpa",
                "--subresource",
                "scale",
                "--force-conflicts",
                "--now",
                "2026-01-01T00:00:01Z",
            ]);
            assert_eq!(
                (run.code, run.stdout.as_str()),
                (2, ""),
                "{command} {replicas}: {run:?}"
            );
            assert!(
                run.stderr.contains(&message),
                "{command} {replicas}: want the server's {message:?} in {:?}",
                run.stderr
            );
        }
    }
}

#[test]
fn replicas_that_wrap_into_range_are_accepted_as_the_server_accepts_them() {
    let s = Scratch::new();
    s.file("live.yaml", LIVE);
    // 2^32 + 5 becomes 5 in the Scale's int32, as the real server stored it.
    s.file("scale.yaml", scale("4294967301"));
    let run = s.smd(&[
        "apply",
        "live.yaml",
        "scale.yaml",
        "--manager",
        "hpa",
        "--subresource",
        "scale",
        "--force-conflicts",
        "--now",
        "2026-01-01T00:00:01Z",
    ]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
    assert!(run.stdout.contains("\n  replicas: 5\n"), "{}", run.stdout);
}
