//! Client-side apply on the server: `kubectl`'s conflicts forgiven where its
//! `last-applied-configuration` still matches the live object (`IN/lastappliedmanager.go`),
//! and the annotation kept current (`IN/lastappliedupdater.go`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smd::fieldpath::{Value, yaml};
use smd::managedfields::{FieldManager, LAST_APPLIED_ANNOTATION, Timestamp, TypeResolver, entries};
use smd_schema::gvk::GroupVersionKind;

fn at(k: i64) -> Timestamp {
    Timestamp::from_unix(946_684_800 + k)
}

fn deployments() -> FieldManager {
    FieldManager::new(
        TypeResolver::kubernetes(),
        GroupVersionKind::new("apps", "v1", "Deployment"),
    )
}

fn obj(text: &str) -> Value {
    yaml::from_str(text).unwrap()
}

/// `text` with the annotation set to `annotation`.
fn annotated(text: &str, annotation: &str) -> Value {
    let mut object = obj(text);
    let meta = object
        .as_map_mut()
        .unwrap()
        .get_mut("metadata")
        .unwrap()
        .as_map_mut()
        .unwrap();
    let mut annotations = smd::fieldpath::Map::new();
    annotations.insert(LAST_APPLIED_ANNOTATION, Value::from(annotation));
    meta.insert("annotations", Value::Map(annotations));
    object
}

fn annotation(object: &Value) -> String {
    let get = |v: &Value, k: &str| v.as_map().unwrap().get(k).unwrap().clone();
    let annotations = get(&get(object, "metadata"), "annotations");
    get(&annotations, LAST_APPLIED_ANNOTATION)
        .as_str()
        .unwrap()
        .to_owned()
}

const V1: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-deployment
  labels: {app: my-app}
spec:
  replicas: 100
  selector: {matchLabels: {app: my-app}}
  template:
    metadata: {labels: {app: my-app}}
    spec: {containers: [{name: my-c, image: my-image-v1}]}
"#;

const V2: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-deployment
  labels: {app: my-app-v2}
spec:
  replicas: 8
  selector: {matchLabels: {app: my-app-v2}}
  template:
    metadata: {labels: {app: my-app-v2}}
    spec: {containers: [{name: my-c, image: my-image-v2}]}
"#;

const V1_JSON: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"app":"my-app"},"name":"my-deployment"},"spec":{"replicas":100,"selector":{"matchLabels":{"app":"my-app"}},"template":{"metadata":{"labels":{"app":"my-app"}},"spec":{"containers":[{"image":"my-image-v1","name":"my-c"}]}}}}"#;

#[test]
fn kubectl_takes_over_what_client_side_apply_set() {
    // MF/fieldmanager_test.go:569 (TestInteropForClientSideApplyAndServerSideApply).
    let fm = deployments();
    let live = fm
        .update(
            &fm.new_object(),
            annotated(V1, V1_JSON),
            "kubectl-client-side-apply-test",
            at(1),
        )
        .unwrap();
    // Another manager gets the conflicts (IN/lastappliedmanager.go:62-64).
    let err = fm
        .apply(&live, &obj(V2), "someone", false, at(2))
        .unwrap_err();
    assert_eq!(err.code(), 409);
    // kubectl's are forgiven: every one is on a field the annotation sets to its live value,
    // so it applies again with force (IN/lastappliedmanager.go:83-88).
    let out = fm.apply(&live, &obj(V2), "kubectl", false, at(2)).unwrap();
    // The annotation is rebuilt from the applied configuration (IN/lastappliedupdater.go:56-66).
    assert_eq!(
        annotation(&out),
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"labels\":{\"app\":\"my-app-v2\"},\
         \"name\":\"my-deployment\"},\"spec\":{\"replicas\":8,\"selector\":{\"matchLabels\":{\"app\":\"my-app-v2\"}},\
         \"template\":{\"metadata\":{\"labels\":{\"app\":\"my-app-v2\"}},\"spec\":{\"containers\":[{\"image\":\
         \"my-image-v2\",\"name\":\"my-c\"}]}}}}\n"
    );
    let managers: Vec<String> = entries(&out)
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|e| e.manager)
        .collect();
    assert_eq!(managers, ["kubectl", "kubectl-client-side-apply-test"]);
}

#[test]
fn only_fields_whose_value_still_matches_are_forgiven() {
    // IN/lastappliedmanager.go:145-151: fields the live object changed since (here the image)
    // are not in the allowed set; only those conflicts are returned (:83-86).
    let fm = deployments();
    let live = fm
        .update(
            &fm.new_object(),
            annotated(V1, V1_JSON),
            "kubectl-client-side-apply-test",
            at(1),
        )
        .unwrap();
    let mut drifted = live.clone();
    let changed = obj(&V1.replace("my-image-v1", "hotfix"));
    drifted.as_map_mut().unwrap().insert(
        "spec",
        changed.as_map().unwrap().get("spec").unwrap().clone(),
    );
    let live = fm.update(&live, drifted, "operator", at(2)).unwrap();
    let err = fm
        .apply(&live, &obj(V2), "kubectl", false, at(3))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Apply failed with 1 conflict: conflict with \"operator\" using apps/v1: \
         .spec.template.spec.containers[name=\"my-c\"].image"
    );
}

#[test]
fn an_invalid_annotation_forgives_nothing() {
    // MF/fieldmanager_test.go:490 (TestServerSideApplyWithInvalidLastApplied).
    let fm = deployments();
    let v1 = "{apiVersion: apps/v1, kind: Deployment, metadata: {name: my-deployment, labels: {app: my-app-v1}}, spec: {replicas: 1}}";
    let live = fm
        .update(
            &fm.new_object(),
            annotated(v1, "invalid-object"),
            "kubectl-client-side-apply-test",
            at(1),
        )
        .unwrap();
    assert_eq!(annotation(&live), "invalid-object");
    let v2 = obj(
        "{apiVersion: apps/v1, kind: Deployment, metadata: {name: my-deployment, labels: {app: my-app-v2}}, spec: {replicas: 100}}",
    );
    let err = fm.apply(&live, &v2, "kubectl", false, at(2)).unwrap_err();
    assert_eq!(err.code(), 409);
    let out = fm.apply(&live, &v2, "kubectl", true, at(2)).unwrap();
    assert!(annotation(&out).contains("my-app-v2"));
}

#[test]
fn the_annotation_is_updated_only_when_present() {
    // IN/lastappliedupdater.go:56: hasLastApplied of the result.
    let fm = deployments();
    let applied =
        obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 1}}");
    let out = fm
        .apply(&fm.new_object(), &applied, "kubectl", false, at(1))
        .unwrap();
    assert!(
        out.as_map()
            .unwrap()
            .get("metadata")
            .unwrap()
            .as_map()
            .unwrap()
            .get("annotations")
            .is_none()
    );
}
