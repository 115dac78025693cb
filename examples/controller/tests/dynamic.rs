//! Typed objects in and out of the in-memory cluster: kube's `DynamicObject` through
//! `smd::object` and through a kube-rs client, and the typed-apply trap check on a
//! k8s-openapi struct built with `Default`.

use k8s_openapi::api::apps::v1::{StatefulSet, StatefulSetSpec};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams};
use smd::cluster::Cluster;
use smd::managedfields::TypeResolver;
use smd::object::{apply_warnings, from_value, to_value};

#[tokio::test]
async fn dynamic_objects_go_in_and_come_out() -> Result<(), Box<dyn std::error::Error>> {
    let cluster = Cluster::new();
    let gvk = GroupVersionKind::gvk("", "v1", "ConfigMap");
    let resource = ApiResource::from_gvk(&gvk);
    let mut object = DynamicObject::new("settings", &resource).within("default");
    object.data = serde_json::json!({"data": {"mode": "fast"}});
    // In through the library, out through a kube-rs client.
    let stored = cluster.apply_object(&object, "ops", false)?;
    assert_eq!(stored.code, 201);
    let api: Api<DynamicObject> = Api::namespaced_with(
        kube::Client::new(cluster.service(), "default"),
        "default",
        &resource,
    );
    let read = api.get("settings").await?;
    assert_eq!(read.data["data"]["mode"], "fast");
    // And back: the answer as a DynamicObject, applied by another manager.
    object.data = serde_json::json!({"data": {"mode": "slow"}});
    let refused = api
        .patch(
            "settings",
            &PatchParams::apply("app"),
            &Patch::Apply(&object),
        )
        .await;
    assert!(matches!(refused, Err(kube::Error::Api(s)) if s.code == 409));
    let again: DynamicObject = from_value(&to_value(&read)?)?;
    assert_eq!(again.metadata.name.as_deref(), Some("settings"));
    Ok(())
}

#[test]
fn a_default_struct_in_an_apply_body_is_warned_of() -> Result<(), Box<dyn std::error::Error>> {
    // The classic trap: `StatefulSetSpec::default()` writes `selector: {}` (a LabelSelector is
    // not optional), which an apply would own whole, empty. (`serviceName` is an `Option` in
    // k8s-openapi 0.26, so it stays out.)
    let set = StatefulSet {
        metadata: kube::api::ObjectMeta {
            name: Some("db".to_owned()),
            ..Default::default()
        },
        spec: Some(StatefulSetSpec::default()),
        ..Default::default()
    };
    let mut body = to_value(&set)?;
    if let Some(map) = body.as_map_mut() {
        map.insert("apiVersion", "apps/v1".into());
        map.insert("kind", "StatefulSet".into());
    }
    let warnings = apply_warnings(&body, &TypeResolver::kubernetes());
    let paths: Vec<&str> = warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(paths, [".spec.selector"]);
    Ok(())
}
