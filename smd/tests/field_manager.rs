//! The field manager's pipeline, each test a fact of apimachinery v0.37.2 (`MF/` is
//! `k8s.io/apimachinery/pkg/util/managedfields`, `IN/` its `internal/`), driven through the
//! public API with the embedded Kubernetes 1.37 schema.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smd::fieldpath::{Value, yaml};
use smd::managedfields::{Entry, FieldManager, ResetFields, Timestamp, TypeResolver, entries};
use smd_schema::gvk::GroupVersionKind;

const T0: i64 = 946_684_800; // 2000-01-01T00:00:00Z

fn at(k: i64) -> Timestamp {
    Timestamp::from_unix(T0 + k)
}

fn manager(api_version: &str, kind: &str) -> FieldManager {
    let gvk = GroupVersionKind::from_api_version(api_version, kind);
    FieldManager::new(TypeResolver::kubernetes(), gvk)
}

fn obj(text: &str) -> Value {
    yaml::from_str(text).unwrap()
}

fn managed(object: &Value) -> Vec<Entry> {
    entries(object).unwrap().unwrap_or_default()
}

/// `manager operation apiVersion [subresource] @time fieldsV1` per entry, in stored order.
fn summary(object: &Value) -> Vec<String> {
    managed(object)
        .iter()
        .map(|e| {
            let time = e
                .time
                .map_or("-".to_owned(), |t| (t.unix() - T0).to_string());
            let sub = if e.subresource.is_empty() {
                String::new()
            } else {
                format!(" [{}]", e.subresource)
            };
            let fields = String::from_utf8(e.fields_v1.clone().unwrap_or_default()).unwrap();
            format!(
                "{} {} {}{sub} @{time} {fields}",
                e.manager, e.operation, e.api_version
            )
        })
        .collect()
}

const DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: deployment
  labels: {app: nginx}
spec:
  replicas: 3
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers: [{name: nginx, image: "nginx:latest"}]
"#;

#[test]
fn update_then_conflicting_apply() {
    // MF/fieldmanager_test.go:68 (TestUpdateApplyConflict); the text is IN/conflict.go:45-89.
    let fm = manager("apps/v1", "Deployment");
    let live = fm
        .update(
            &fm.new_object(),
            obj(DEPLOYMENT),
            "fieldmanager_test",
            at(1),
        )
        .unwrap();
    let applied = obj(
        "{apiVersion: apps/v1, kind: Deployment, metadata: {name: deployment}, spec: {replicas: 101}}",
    );
    let err = fm
        .apply(&live, &applied, "fieldmanager_conflict", false, at(2))
        .unwrap_err();
    assert_eq!(err.code(), 409);
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "fieldmanager_test" using apps/v1: .spec.replicas"#
    );
}

#[test]
fn create_by_apply_records_one_apply_entry() {
    // IN/skipnonapplied.go:76-92 with a create's empty live object: before-first-apply owns
    // only apiVersion and kind, which stripMeta removes (IN/stripmeta.go:39-52), so one entry
    // remains (IN/skipnonapplied_test.go:32). Labels are kept (MF/fieldmanager_test.go:241).
    let fm = manager("v1", "Pod");
    let applied = obj("{apiVersion: v1, kind: Pod, metadata: {name: p, labels: {a: b}}}");
    let out = fm
        .apply(
            &fm.new_object(),
            &applied,
            "fieldmanager_test",
            false,
            at(1),
        )
        .unwrap();
    assert_eq!(
        summary(&out),
        [r#"fieldmanager_test Apply v1 @1 {"f:metadata":{"f:labels":{"f:a":{}}}}"#]
    );
}

#[test]
fn update_of_stripped_metadata_only_records_nothing() {
    // MF/fieldmanager_test.go:129 (TestApplyStripsFields): the request's managedFields lack a
    // fieldsType, so they fail to decode and the live ones (none) are used
    // (IN/fieldmanager.go:103-107); the only changes are stripped fields.
    let fm = manager("apps/v1", "Deployment");
    let new = obj(r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: b
  namespace: b
  uid: b
  resourceVersion: b
  creationTimestamp: "2020-01-01T00:00:00Z"
  managedFields: [{manager: update, operation: Apply, apiVersion: apps/v1}]
"#);
    let out = fm
        .update(&fm.new_object(), new, "fieldmanager_test", at(1))
        .unwrap();
    assert!(entries(&out).unwrap().is_none());
    assert!(
        out.as_map()
            .unwrap()
            .get("metadata")
            .unwrap()
            .as_map()
            .unwrap()
            .get("managedFields")
            .is_none()
    );
}

#[test]
fn apply_of_another_kind_or_version_is_a_bad_request() {
    // MF/fieldmanager_test.go:161 (TestVersionCheck) and IN/versioncheck.go:47-52.
    let fm = manager("apps/v1", "Deployment");
    let live = fm.new_object();
    let err = fm
        .apply(
            &live,
            &obj("{apiVersion: apps/v1beta1, kind: Deployment}"),
            "m",
            false,
            at(1),
        )
        .unwrap_err();
    assert_eq!(err.code(), 400);
    assert_eq!(
        err.to_string(),
        "invalid object type: apps/v1beta1, Kind=Deployment"
    );
    let err = fm.apply(&live, &obj("{}"), "m", false, at(1)).unwrap_err();
    assert_eq!(err.to_string(), "invalid object type: /, Kind=");
    assert!(
        fm.apply(
            &live,
            &obj("{apiVersion: apps/v1, kind: Deployment}"),
            "m",
            false,
            at(1)
        )
        .is_ok()
    );
}

#[test]
fn apply_with_managed_fields_is_a_bad_request() {
    // MF/fieldmanager_test.go:310 and IN/structuredmerge.go:135-137; an empty list is not nil.
    let fm = manager("v1", "Pod");
    for managed_fields in ["[{manager: test}]", "[]"] {
        let applied = obj(&format!(
            "{{apiVersion: v1, kind: Pod, metadata: {{managedFields: {managed_fields}}}}}"
        ));
        let err = fm
            .apply(&fm.new_object(), &applied, "m", false, at(1))
            .unwrap_err();
        assert_eq!(
            (err.code(), err.to_string().as_str()),
            (400, "metadata.managedFields must be nil")
        );
    }
}

#[test]
fn no_op_apply_and_update_keep_times() {
    // MF/fieldmanager_test.go:358 (TestNoOpChanges) and IN/managedfieldsupdater.go:70-82.
    let fm = manager("v1", "Pod");
    let pod = obj("{apiVersion: v1, kind: Pod, metadata: {labels: {a: b}}}");
    let live = fm
        .apply(&fm.new_object(), &pod, "apply", false, at(1))
        .unwrap();
    // A no-op update changes nothing (IN/managedfieldsupdater.go:54-64).
    let after = fm.update(&live, pod.clone(), "update", at(2)).unwrap();
    assert_eq!(summary(&after), summary(&live));
    // A no-op re-apply keeps the applier's time.
    let after = fm.apply(&live, &pod, "apply", true, at(3)).unwrap();
    assert_eq!(summary(&after), summary(&live));
    // A second applier of the same configuration gets an entry, but no time: the object did
    // not change (IN/managedfieldsupdater.go:76-81; kubernetes/kubernetes#127938).
    let after = fm.apply(&live, &pod, "other", false, at(4)).unwrap();
    assert_eq!(
        summary(&after),
        [
            r#"other Apply v1 @- {"f:metadata":{"f:labels":{"f:a":{}}}}"#,
            r#"apply Apply v1 @1 {"f:metadata":{"f:labels":{"f:a":{}}}}"#,
        ]
    );
}

#[test]
fn update_resets_managed_fields_with_an_empty_list_or_item() {
    // MF/fieldmanager_test.go:409 and :450; IN/fieldmanager.go:96-98,173-183.
    let fm = manager("v1", "Pod");
    let live = fm
        .apply(
            &fm.new_object(),
            &obj("{apiVersion: v1, kind: Pod, metadata: {labels: {a: b}}}"),
            "apply",
            false,
            at(1),
        )
        .unwrap();
    for reset in ["[]", "[{}]"] {
        let new = obj(&format!(
            "{{apiVersion: v1, kind: Pod, metadata: {{managedFields: {reset}, labels: {{a: b}}}}}}"
        ));
        let out = fm.update(&live, new, "update_manager", at(2)).unwrap();
        assert!(entries(&out).unwrap().is_none(), "{reset}");
    }
}

#[test]
fn update_adopts_managed_fields_the_request_carries() {
    // IN/fieldmanager.go:100-107: valid request managedFields replace the live ones.
    let fm = manager("v1", "ConfigMap");
    let live = obj("{apiVersion: v1, kind: ConfigMap, metadata: {uid: u}, data: {a: x}}");
    let new = obj(r#"
apiVersion: v1
kind: ConfigMap
metadata:
  uid: u
  managedFields:
  - {manager: adopted, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {f:data: {f:a: {}}}}
data: {a: x}
"#);
    let out = fm.update(&live, new, "editor", at(5)).unwrap();
    assert_eq!(
        summary(&out),
        [r#"adopted Update v1 @- {"f:data":{"f:a":{}}}"#]
    );
}

#[test]
fn subresource_updates_keep_the_live_managed_fields() {
    // MF/fieldmanager_test.go:833 (TestUpdateViaSubresources); IN/fieldmanager.go:81-87.
    let fm = manager("v1", "Pod").with_subresource("scale");
    let mut new = obj("{apiVersion: v1, kind: Pod, metadata: {labels: {a: b}}}");
    let smuggled = [Entry {
        manager: "test".into(),
        operation: "Apply".into(),
        api_version: "apps/v1".into(),
        fields_type: "FieldsV1".into(),
        fields_v1: Some(br#"{"f:metadata":{"f:labels":{"f:another_field":{}}}}"#.to_vec()),
        ..Entry::default()
    }];
    smd::managedfields::set_entries(&mut new, Some(&smuggled)).unwrap();
    let live = fm
        .update(&fm.new_object(), new.clone(), "sub", at(1))
        .unwrap();
    assert_eq!(
        summary(&live),
        [r#"sub Update v1 [scale] @1 {"f:metadata":{"f:labels":{".":{},"f:a":{}}}}"#]
    );
    smd::managedfields::set_entries(&mut new, Some(&[])).unwrap();
    let out = fm.update(&live, new, "sub", at(2)).unwrap();
    assert_eq!(summary(&out), summary(&live));
}

#[test]
fn existing_objects_without_managed_fields() {
    // IN/skipnonapplied.go:53-74: an update of an object with a uid and no managedFields
    // records nothing. :76-92: an apply first gives its fields to before-first-apply, so
    // changing one conflicts with it (IN/skipnonapplied_test.go:68); forced, the applier
    // comes first and before-first-apply second.
    let fm = manager("v1", "Pod");
    let live =
        obj("{apiVersion: v1, kind: Pod, metadata: {name: pod, uid: u1, labels: {app: my-nginx}}}");
    let updated = fm
        .update(&live, live.clone(), "fieldmanager_test_update", at(1))
        .unwrap();
    assert!(entries(&updated).unwrap().is_none());
    let applied = obj(r#"
apiVersion: v1
kind: Pod
metadata: {name: pod, labels: {app: nginx}}
spec: {containers: [{name: nginx, image: "nginx:latest"}]}
"#);
    let err = fm
        .apply(&live, &applied, "fieldmanager_test_apply", false, at(2))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .metadata.labels.app"#
    );
    let out = fm
        .apply(&live, &applied, "fieldmanager_test_apply", true, at(2))
        .unwrap();
    let names: Vec<String> = managed(&out).into_iter().map(|e| e.manager).collect();
    assert_eq!(names, ["fieldmanager_test_apply", "before-first-apply"]);
    // before-first-apply kept what the applier did not take: the labels map itself.
    assert_eq!(
        summary(&out)[1],
        r#"before-first-apply Update v1 @2 {"f:metadata":{"f:labels":{}}}"#
    );
}

#[test]
fn update_times() {
    // IN/managedfieldsupdater_test.go:118 (no change, no new time) and :326 (taking over a
    // field does not touch the previous owner's time).
    let fm = manager("v1", "ConfigMap");
    let v1 = obj("{apiVersion: v1, kind: ConfigMap, data: {a: x, b: w}}");
    let live = fm
        .update(&fm.new_object(), v1.clone(), "first", at(1))
        .unwrap();
    let same = fm.update(&live, v1, "first", at(2)).unwrap();
    assert_eq!(summary(&same), summary(&live));
    let v2 = obj("{apiVersion: v1, kind: ConfigMap, data: {a: z, b: w}}");
    let out = fm.update(&live, v2, "second", at(3)).unwrap();
    assert_eq!(
        summary(&out),
        [
            r#"first Update v1 @1 {"f:data":{".":{},"f:b":{}}}"#,
            r#"second Update v1 @3 {"f:data":{"f:a":{}}}"#,
        ]
    );
}

#[test]
fn an_empty_name_is_unknown() {
    // IN/buildmanagerinfo.go:70-72.
    let fm = manager("v1", "ConfigMap");
    let out = fm
        .update(
            &fm.new_object(),
            obj("{apiVersion: v1, kind: ConfigMap, data: {a: x}}"),
            "",
            at(1),
        )
        .unwrap();
    assert_eq!(managed(&out)[0].manager, "unknown");
}

#[test]
fn the_same_name_under_apply_and_update_is_two_entries() {
    // IN/managedfields.go:137-150: the operation is part of the identity.
    let fm = manager("v1", "ConfigMap");
    let live = fm
        .apply(
            &fm.new_object(),
            &obj("{apiVersion: v1, kind: ConfigMap, data: {a: x}}"),
            "m",
            false,
            at(1),
        )
        .unwrap();
    let mut new = live.clone();
    new.as_map_mut()
        .unwrap()
        .insert("data", obj("{a: x, b: w}"));
    let out = fm.update(&live, new, "m", at(2)).unwrap();
    assert_eq!(
        summary(&out),
        [
            r#"m Apply v1 @1 {"f:data":{"f:a":{}}}"#,
            r#"m Update v1 @2 {"f:data":{"f:b":{}}}"#,
        ]
    );
}

#[test]
fn the_cap_merges_the_oldest_updaters() {
    // IN/capmanagers.go:63-133 with DefaultMaxUpdateManagers = 10 (IN/fieldmanager.go:35):
    // the eleventh updater makes the two oldest merge into ancient-changes, which takes the
    // time of the second.
    let fm = manager("v1", "ConfigMap");
    let mut live = fm.new_object();
    let mut data = String::new();
    for k in 1..=11 {
        data.push_str(&format!("k{k:02}: v, "));
        let new = obj(&format!(
            "{{apiVersion: v1, kind: ConfigMap, data: {{{data}}}}}"
        ));
        live = fm.update(&live, new, &format!("m{k:02}"), at(k)).unwrap();
    }
    let out = summary(&live);
    assert_eq!(out.len(), 10);
    assert_eq!(
        out[0],
        r#"ancient-changes Update v1 @2 {"f:data":{".":{},"f:k01":{},"f:k02":{}}}"#
    );
    assert_eq!(out[1], r#"m03 Update v1 @3 {"f:data":{"f:k03":{}}}"#);
}

#[test]
fn reset_fields_are_not_owned() {
    // IN/structuredmerge.go:55-58: the merge ignores the endpoint's reset fields; a
    // Deployment's main resource resets .status (K/apps/deployment/strategy.go:63).
    let fm = manager("apps/v1", "Deployment").with_reset_fields(&ResetFields::kubernetes(
        "apps",
        "Deployment",
        "",
    ));
    let applied =
        obj("{apiVersion: apps/v1, kind: Deployment, spec: {paused: true}, status: {replicas: 1}}");
    let out = fm
        .apply(&fm.new_object(), &applied, "m", false, at(1))
        .unwrap();
    assert_eq!(
        summary(&out),
        [r#"m Apply apps/v1 @1 {"f:spec":{"f:paused":{}}}"#]
    );
}

#[test]
fn status_managers_are_their_own() {
    // IN/buildmanagerinfo.go:62-74 (the subresource is part of the identity) and the conflict
    // wording of IN/conflict.go:80-82.
    let status = manager("apps/v1", "Deployment").with_subresource("status");
    let main = manager("apps/v1", "Deployment");
    let spec =
        obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {paused: true}}");
    let live = main
        .apply(&main.new_object(), &spec, "owner", false, at(1))
        .unwrap();
    let mut new = live.clone();
    new.as_map_mut()
        .unwrap()
        .insert("status", obj("{replicas: 2}"));
    let live = status.update(&live, new, "controller", at(2)).unwrap();
    assert_eq!(
        summary(&live)[1],
        r#"controller Update apps/v1 [status] @2 {"f:status":{".":{},"f:replicas":{}}}"#
    );
    let applied =
        obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, status: {replicas: 3}}");
    let err = main
        .apply(&live, &applied, "owner", false, at(3))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "controller" with subresource "status" using apps/v1: .status.replicas"#
    );
}

#[test]
fn corrupt_live_managed_fields() {
    // IN/fieldmanager.go:195-198: an apply refuses them; IN/fieldmanager.go:85-87,103-107: an
    // update falls back to none.
    let fm = manager("v1", "ConfigMap");
    let live = obj(r#"
apiVersion: v1
kind: ConfigMap
metadata:
  managedFields: [{manager: m, operation: Patch, apiVersion: v1, fieldsType: FieldsV1}]
data: {a: x}
"#);
    let err = fm
        .apply(
            &live,
            &obj("{apiVersion: v1, kind: ConfigMap}"),
            "m",
            false,
            at(1),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to decode managed fields: operation must be `Apply` or `Update`"
    );
    let out = fm
        .update(
            &live,
            obj("{apiVersion: v1, kind: ConfigMap, data: {a: q}}"),
            "u",
            at(1),
        )
        .unwrap();
    assert_eq!(summary(&out), [r#"u Update v1 @1 {"f:data":{"f:a":{}}}"#]);
}

const WIDGET_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}, color: {type: string}}}
          status: {type: object, properties: {phase: {type: string}}}
"#;

#[test]
fn custom_resources() {
    let crd = obj(WIDGET_CRD);
    let widget = GroupVersionKind::new("example.com", "v1", "Widget");
    let applied = obj(
        "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, namespace: ns}, spec: {size: 1}, status: {phase: x}}",
    );
    // Without the CRD there is no type (IN/typeconverter.go:57-69); on a create the first to
    // meet it is before-first-apply's update (IN/skipnonapplied.go:76-92, IN/structuredmerge.go:91-104).
    let untyped = FieldManager::new(TypeResolver::kubernetes(), widget.clone());
    let err = untyped
        .apply(&untyped.new_object(), &applied, "m", false, at(1))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "failed to create manager for existing fields: failed to convert new object \
         (/; example.com/v1, Kind=Widget) to smd typed: no corresponding type for example.com/v1, Kind=Widget"
    );
    let types = TypeResolver::kubernetes()
        .with_crds([smd_schema::crd::convert(&crd).unwrap()])
        .unwrap();
    // The main resource resets .status when the version has a status subresource
    // (AE/registry/customresource/strategy.go:132-142).
    let main = FieldManager::new(types.clone(), widget.clone())
        .with_reset_fields(&ResetFields::custom_resource(&crd, "v1", ""));
    let live = main
        .apply(&main.new_object(), &applied, "m", false, at(1))
        .unwrap();
    assert_eq!(
        summary(&live),
        [r#"m Apply example.com/v1 @1 {"f:spec":{"f:size":{}}}"#]
    );
    // The status subresource resets .metadata and .spec (status_strategy.go:48-65).
    let status = FieldManager::new(types, widget)
        .with_subresource("status")
        .with_reset_fields(&ResetFields::custom_resource(&crd, "v1", "status"));
    let new = obj(
        "{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, namespace: ns, labels: {a: b}}, spec: {size: 2}, status: {phase: ready}}",
    );
    let out = status.update(&live, new, "ctl", at(2)).unwrap();
    assert_eq!(
        summary(&out)[1],
        r#"ctl Update example.com/v1 [status] @2 {"f:status":{"f:phase":{}}}"#
    );
}
