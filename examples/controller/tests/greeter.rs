//! The greeter controller against smd's in-memory API server, through an unchanged kube-rs
//! client: field ownership and conflicts as a kube-apiserver v1.37.2 decides them, and a
//! `kube::runtime::Controller` driven by the server's list and watch.

use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use smd::cluster::Cluster;
use smd::managedfields::Timestamp;
use smd_example_controller::{MANAGER, apply_greeting, greeting, run};

/// Each manager's entry: (manager, operation, the `fieldsV1` it owns as JSON).
fn owners(object: &ConfigMap) -> Vec<(String, String, String)> {
    object
        .metadata
        .managed_fields
        .iter()
        .flatten()
        .map(|e| {
            let fields = e
                .fields_v1
                .as_ref()
                .map(|f| f.0.to_string())
                .unwrap_or_default();
            (
                e.manager.clone().unwrap_or_default(),
                e.operation.clone().unwrap_or_default(),
                fields,
            )
        })
        .collect()
}

fn client(cluster: &Cluster) -> Api<ConfigMap> {
    Api::namespaced(kube::Client::new(cluster.service(), "default"), "default")
}

#[tokio::test]
async fn another_managers_field_conflicts_until_the_controller_forces() -> Result<(), kube::Error> {
    let cluster = Cluster::new();
    cluster.set_time(Timestamp::from_unix(1_780_000_000));
    let api = client(&cluster);
    // The operations team applies its own greeting first: it owns `data.greeting`.
    let ops = serde_json::json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "web", "labels": {"greeter.example.com/enabled": "true"}},
        "data": {"greeting": "hi"},
    });
    api.patch("web", &PatchParams::apply("ops"), &Patch::Apply(&ops))
        .await?;

    // The controller's apply is refused with the server's 409, naming the owner and field.
    let refused = apply_greeting(&api, "web", false).await;
    let Err(kube::Error::Api(status)) = refused else {
        panic!("expected a conflict, got {refused:?}");
    };
    assert_eq!(status.code, 409);
    assert_eq!(status.reason, "Conflict");
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"ops\": .data.greeting"
    );
    let stored = api.get("web").await?;
    assert_eq!(
        stored
            .data
            .as_ref()
            .and_then(|d| d.get("greeting"))
            .map(String::as_str),
        Some("hi")
    );
    assert_eq!(
        owners(&stored),
        vec![(
            "ops".to_owned(),
            "Apply".to_owned(),
            r#"{"f:data":{"f:greeting":{}},"f:metadata":{"f:labels":{"f:greeter.example.com/enabled":{}}}}"#
                .to_owned()
        )]
    );

    // Forced, the controller takes the field over; ops keeps only its label. (Entries are
    // stored sorted by operation, time, then manager; the clock is fixed, so by manager.)
    let forced = apply_greeting(&api, "web", true).await?;
    assert_eq!(
        forced.data.as_ref().and_then(|d| d.get("greeting")),
        Some(&greeting("web"))
    );
    assert_eq!(
        owners(&forced),
        vec![
            (
                MANAGER.to_owned(),
                "Apply".to_owned(),
                r#"{"f:data":{"f:greeting":{}}}"#.to_owned()
            ),
            (
                "ops".to_owned(),
                "Apply".to_owned(),
                r#"{"f:metadata":{"f:labels":{"f:greeter.example.com/enabled":{}}}}"#.to_owned()
            ),
        ]
    );
    Ok(())
}

#[tokio::test]
async fn the_controller_reconciles_what_its_watch_sees() -> Result<(), kube::Error> {
    let cluster = Cluster::from_yaml(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: before\n  namespace: default\n  labels: {greeter.example.com/enabled: \"true\"}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: unlabelled, namespace: default}\n",
    )
    .map_err(|e| kube::Error::Service(e.into()))?;
    let api = client(&cluster);
    let controller = tokio::spawn(run(api.clone()));

    // One object existed before the controller started (its list), one is created after
    // (its watch).
    let created = ConfigMap {
        metadata: ObjectMeta {
            name: Some("after".to_owned()),
            labels: Some([("greeter.example.com/enabled".to_owned(), "true".to_owned())].into()),
            ..ObjectMeta::default()
        },
        ..ConfigMap::default()
    };
    api.create(&PostParams::default(), &created).await?;

    for name in ["before", "after"] {
        let mut greeted = None;
        for _ in 0..200 {
            let object = api.get(name).await?;
            if object.data.as_ref().and_then(|d| d.get("greeting")) == Some(&greeting(name)) {
                greeted = Some(object);
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        let object = greeted.unwrap_or_else(|| panic!("{name} was never greeted"));
        assert!(
            owners(&object).iter().any(|(m, op, f)| m == MANAGER
                && op == "Apply"
                && f == r#"{"f:data":{"f:greeting":{}}}"#),
            "{name}: {:?}",
            owners(&object)
        );
    }
    // Not selected, not touched.
    assert_eq!(api.get("unlabelled").await?.data, None);
    controller.abort();
    Ok(())
}
