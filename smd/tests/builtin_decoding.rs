//! The field manager passes an apply's merged object of a built-in kind through
//! `smd::builtin::decode` when asked to (the real API server's path), and leaves it alone
//! otherwise (Go's test field manager, which the Go-library goldens record).

use smd::fieldpath::{Value, yaml};
use smd::managedfields::{Endpoint, Timestamp};
use smd_schema::gvk::GroupVersionKind;

const MANIFEST: &str = "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: \
    {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: \
    {containers: [{name: c, image: nginx, resources: {requests: {cpu: 1000m}}}]}}}}";

fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, key| match v {
        Value::Map(m) => m.get(key),
        Value::List(items) => items.get(key.parse::<usize>().ok()?),
        _ => None,
    })
}

#[test]
fn a_real_server_endpoint_decodes_the_merged_object() {
    let kind = GroupVersionKind::new("apps", "v1", "Deployment");
    let manifest = yaml::from_str(MANIFEST).expect("YAML");
    let now = Timestamp::from_unix(0);
    let plain = Endpoint::kubernetes(kind.clone())
        .apply(None, &manifest, "kubectl", false, "", now)
        .expect("apply");
    let decoded = Endpoint::kubernetes(kind)
        .with_builtin_decoding()
        .apply(None, &manifest, "kubectl", false, "", now)
        .expect("apply");
    let cpu = [
        "spec",
        "template",
        "spec",
        "containers",
        "0",
        "resources",
        "requests",
        "cpu",
    ];
    assert_eq!(at(&plain, &cpu), Some(&Value::String("1000m".into())));
    // resource.Quantity's canonical form (the Go corpus: 1000m -> 1).
    assert_eq!(at(&decoded, &cpu), Some(&Value::String("1".into())));
    // DeploymentSpec.strategy is a struct without omitempty: Go writes it, empty.
    assert_eq!(at(&plain, &["spec", "strategy"]), None);
    assert!(matches!(
        at(&decoded, &["spec", "strategy"]),
        Some(Value::Map(_))
    ));
    // The same fields are owned either way: decoding changes the object, not the sets.
    assert_eq!(
        at(&plain, &["metadata", "managedFields"]),
        at(&decoded, &["metadata", "managedFields"])
    );
}

#[test]
fn a_custom_resource_is_not_decoded() {
    assert!(!smd::builtin::is_builtin(&GroupVersionKind::new(
        "example.com",
        "v1",
        "Widget"
    )));
}
