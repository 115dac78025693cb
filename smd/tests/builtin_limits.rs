//! Hostile bodies through the round trip: nesting as deep as the readers allow, on a 2 MiB
//! thread (a test thread's stack), with no stack overflow.

use smd::builtin::round_trip;
use smd::fieldpath::Value;
use smd::fieldpath::value::Map;
use smd_schema::gvk::GroupVersionKind;

fn map(entries: Vec<(&str, Value)>) -> Value {
    let mut m = Map::new();
    for (k, v) in entries {
        m.insert(k, v);
    }
    Value::Map(m)
}

/// A CRD whose schema nests `properties` `levels` deep: JSONSchemaProps is recursive, so
/// each level is a struct and a map in the Go type.
fn deep_crd(levels: usize) -> Value {
    let mut schema = map(vec![("type", Value::String("object".into()))]);
    for _ in 0..levels {
        schema = map(vec![
            ("type", Value::String("object".into())),
            ("properties", map(vec![("a", schema)])),
        ]);
    }
    map(vec![
        (
            "apiVersion",
            Value::String("apiextensions.k8s.io/v1".into()),
        ),
        ("kind", Value::String("CustomResourceDefinition".into())),
        (
            "spec",
            map(vec![(
                "versions",
                Value::List(vec![map(vec![(
                    "schema",
                    map(vec![("openAPIV3Schema", schema)]),
                )])]),
            )]),
        ),
    ])
}

#[test]
fn a_schema_nested_to_the_readers_limit_round_trips_on_a_small_stack() {
    let gvk = GroupVersionKind::new("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
    // Two levels of value per schema level: the readers' MAX_DEPTH (1000) allows about 495.
    let body = deep_crd(495);
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || round_trip(&gvk, &body).map(|d| d.unknown_fields.len()))
        .expect("a thread");
    assert_eq!(handle.join().expect("no stack overflow"), Ok(0));
}

#[test]
fn the_table_loads_quickly() {
    let start = std::time::Instant::now();
    smd::builtin::gotypes::gotypes().expect("the table loads");
    let took = start.elapsed();
    eprintln!("gotypes.json read in {took:?}");
    assert!(took < std::time::Duration::from_secs(2), "{took:?}");
}
