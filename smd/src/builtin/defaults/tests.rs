use smd_schema::gvk::GroupVersionKind;

use super::markers::MARKERS;
use super::{default, functions, kinds};

#[test]
fn every_marker_and_function_names_a_type_of_the_schema() {
    let schema = smd_schema::kubernetes::v1_37();
    for m in MARKERS {
        // The published schema has only the versions the server can serve: a marker of another
        // version's package (apps/v1beta1) has no type there, and no object reaches it.
        let package = m.type_name.rsplit_once('.').map_or("", |(p, _)| p);
        let package_served = schema
            .types()
            .iter()
            .any(|t| t.name().rsplit_once('.').is_some_and(|(p, _)| p == package));
        assert!(
            !package_served || schema.find_named_type(m.type_name).is_some(),
            "marker {} of {} names a type the schema lacks",
            m.field,
            m.type_name
        );
        assert!(
            smd_fieldpath::Value::from_json(m.value).is_ok(),
            "marker {}.{}: {} is not JSON",
            m.type_name,
            m.field,
            m.value
        );
    }
    for f in functions() {
        assert!(
            schema.find_named_type(f.type_name).is_some(),
            "{} ({}) names a type the schema lacks",
            f.type_name,
            f.source
        );
    }
}

#[test]
fn every_table_entry_is_a_kind_of_the_schema_or_another_scheme() {
    let index = smd_schema::kubernetes::v1_37_gvk();
    let mut seen = std::collections::BTreeSet::new();
    for k in kinds() {
        let gvk = GroupVersionKind::new(k.group, k.version, k.kind);
        assert!(
            seen.insert((k.group, k.version, k.kind)),
            "{gvk:?} listed twice"
        );
        assert!(
            index.get(&gvk).is_some(),
            "{gvk:?} is not in the embedded schema"
        );
    }
}

#[test]
fn a_body_deeper_than_its_type_is_walked_only_as_deep_as_the_type() {
    let mut v = smd_fieldpath::Value::Null;
    for _ in 0..1_000 {
        let mut m = smd_fieldpath::value::Map::new();
        m.insert("spec", v);
        v = smd_fieldpath::Value::Map(m);
    }
    default(&GroupVersionKind::new("apps", "v1", "Deployment"), &mut v);
}

fn json(text: &str) -> smd_fieldpath::Value {
    smd_fieldpath::Value::from_json(text).unwrap_or_default()
}

/// Go's `!= nil` tells an empty list or map from an absent one; so does `default`, when it is
/// given the empty one (the conformance goldens cannot show it: the encoder drops both).
#[test]
fn an_empty_list_or_map_is_not_nil() {
    let mut hpa = json(
        r#"{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","spec":{"maxReplicas":1,"behavior":{"scaleUp":{"policies":[]}}}}"#,
    );
    default(
        &GroupVersionKind::new("autoscaling", "v2", "HorizontalPodAutoscaler"),
        &mut hpa,
    );
    let policies = json(r#"[]"#);
    let scale_up = hpa
        .as_map()
        .and_then(|m| m.get("spec"))
        .and_then(|v| v.as_map())
        .and_then(|m| m.get("behavior"))
        .and_then(|v| v.as_map())
        .and_then(|m| m.get("scaleUp"))
        .and_then(|v| v.as_map())
        .and_then(|m| m.get("policies"));
    assert_eq!(scale_up, Some(&policies));

    let mut node = json(r#"{"status":{"capacity":{"cpu":"4"},"allocatable":{}}}"#);
    default(&GroupVersionKind::new("", "v1", "Node"), &mut node);
    assert_eq!(
        node,
        json(r#"{"status":{"capacity":{"cpu":"4"},"allocatable":{}}}"#)
    );
}

/// Every served kind, given values of the wrong types everywhere it looks, never panics.
#[test]
fn hostile_shapes_do_not_panic() {
    let shapes = [
        r#"{"spec":"x","metadata":1,"status":[],"template":null}"#,
        r#"{"spec":{"template":{"metadata":{"labels":"x"},"spec":{"containers":[1,"a",null,{"ports":"p","resources":{"limits":"x","requests":[1]},"image":7,"livenessProbe":{"httpGet":[]}}],"volumes":[{"name":1},{"image":"x"},{"image":{"reference":3}}]}},"strategy":[],"updateStrategy":{"type":1,"rollingUpdate":"x"},"ports":[{"port":"x","targetPort":{}}],"behavior":{"scaleUp":"x","scaleDown":[]},"metrics":"x","limits":[{"type":"Container","max":"x","default":[]}]}}"#,
        r#"{"webhooks":[{"rules":"x","clientConfig":{"service":[]}}],"subsets":[{"ports":"x"}],"roleRef":"x","subjects":[1],"status":{"podIP":1,"podIPs":[1,{"ip":2}],"capacity":"x"}}"#,
    ];
    for k in kinds() {
        let gvk = GroupVersionKind::new(k.group, k.version, k.kind);
        for shape in shapes {
            let mut v = json(shape);
            default(&gvk, &mut v);
        }
    }
}

#[test]
fn only_default_at_reads_the_clock() {
    let gvk = GroupVersionKind::new("resource.k8s.io", "v1", "DeviceTaintRule");
    let body = r#"{"spec":{"taint":{"key":"k","effect":"NoSchedule"}}}"#;
    let mut without = json(body);
    default(&gvk, &mut without);
    assert_eq!(without, json(body));
    let mut with = json(body);
    super::default_at(&gvk, &mut with, "2026-12-03T17:00:00Z");
    assert_eq!(
        with,
        json(
            r#"{"spec":{"taint":{"key":"k","effect":"NoSchedule","timeAdded":"2026-12-03T17:00:00Z"}}}"#
        )
    );
}
