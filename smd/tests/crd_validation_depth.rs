//! A custom resource's schema validation at the readers' nesting limit, on a 2 MiB thread in
//! an unoptimised build: the walk, ratcheting's comparison with the old object, the duplicate
//! and embedded-resource walks each recurse once per level and must fit (see *Depth* in
//! docs/ARCHITECTURE.md).

use smd::customresource::Validation;
use smd::fieldpath::{Map, Value};

#[derive(Clone, Copy, Debug)]
enum Via {
    Properties,
    Items,
    Additional,
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    let mut m = Map::new();
    for (k, v) in entries {
        m.insert(k, v);
    }
    Value::Map(m)
}

/// A CRD whose `spec` nests `levels` schemas `via`, down to a string of at most one
/// character; an object whose leaf is `leaf` (built as values: the JSON reader's own limit
/// is lower than the one validation must meet).
fn deep(levels: usize, via: Via, leaf: &str) -> (Value, Value) {
    let mut schema = map(vec![
        ("type", "string".into()),
        ("maxLength", Value::Int(1)),
    ]);
    let mut value = Value::from(leaf);
    for _ in 0..levels {
        (schema, value) = match via {
            Via::Properties => (
                map(vec![
                    ("type", "object".into()),
                    ("properties", map(vec![("a", schema)])),
                ]),
                map(vec![("a", value)]),
            ),
            Via::Items => (
                map(vec![
                    ("type", "array".into()),
                    ("x-kubernetes-list-type", "atomic".into()),
                    ("items", schema),
                ]),
                Value::List(vec![value]),
            ),
            Via::Additional => (
                map(vec![
                    ("type", "object".into()),
                    ("additionalProperties", schema),
                ]),
                map(vec![("a", value)]),
            ),
        };
    }
    let root = map(vec![
        ("type", "object".into()),
        ("properties", map(vec![("spec", schema)])),
    ]);
    let version = map(vec![
        ("name", "v1".into()),
        ("served", Value::Bool(true)),
        ("storage", Value::Bool(true)),
        ("schema", map(vec![("openAPIV3Schema", root)])),
    ]);
    let crd = map(vec![(
        "spec",
        map(vec![("versions", Value::List(vec![version]))]),
    )]);
    let object = map(vec![
        ("apiVersion", "example.com/v1".into()),
        ("kind", "Deep".into()),
        ("metadata", map(vec![("name", "d".into())])),
        ("spec", value),
    ]);
    (crd, object)
}

/// The deepest nesting the readers take: the object's root, `spec` and the leaf's map are
/// three levels; a property level is two maps.
fn deepest(via: Via) -> usize {
    let room = smd::fieldpath::MAX_DEPTH - 4;
    match via {
        Via::Properties => room / 2,
        Via::Items | Via::Additional => room,
    }
}

#[test]
fn validation_at_the_nesting_limit_fits_a_2_mib_stack() {
    let run = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            for via in [Via::Properties, Via::Items, Via::Additional] {
                let levels = deepest(via);
                let (crd, old) = deep(levels, via, "xx");
                let (_, new) = deep(levels, via, "yy");
                let validation = Validation::of_version(&crd, "v1");
                // The leaf is too long: one error, found at the bottom, on a create...
                let created = validation.validate_create(&new);
                assert_eq!(created.len(), 1, "{via:?}: {created:?}");
                // ...and on an update that changed it (every level compared with the old one);
                assert_eq!(validation.validate_update(&new, &old).len(), 1, "{via:?}");
                // an update that changed nothing keeps it (ratcheted at `spec`, unchanged).
                let same = validation.validate_update(&old, &old);
                assert!(same.is_empty(), "{via:?}: {same:?}");
            }
        })
        .expect("a thread");
    run.join().expect("validation fits the stack");
}
