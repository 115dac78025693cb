//! The coercer and the defaulting on small schemas; the real server's answers to the same
//! rules are replayed by `conformance/apiserver/scenarios/crd-defaulting.yaml`.

use super::*;

fn value(yaml: &str) -> Value {
    match smd_fieldpath::yaml::from_str(yaml) {
        Ok(v) => v,
        Err(e) => panic!("test YAML does not read: {e}"),
    }
}

fn crd(schema: &str) -> Value {
    let schema: String = schema.lines().map(|l| format!("\n          {l}")).collect();
    value(&format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: things.example.com}}
spec:
  group: example.com
  names: {{plural: things, kind: Thing}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:{schema}
"
    ))
}

fn schema(text: &str) -> Structural {
    match Structural::of_version(&crd(text), "v1") {
        Some(s) => s,
        None => panic!("the version has a schema"),
    }
}

const SCHEMA: &str = "type: object
properties:
  spec:
    type: object
    default: {}
    properties:
      a: {type: string, default: x}
      b: {type: string, nullable: true, default: y}
      c: {type: string}
      d: {type: string, nullable: true}
      l: {type: array, items: {type: object, properties: {w: {type: integer, default: 1}}}}
      s: {type: array, items: {type: string, default: z}}
      m: {type: object, additionalProperties: {type: string, default: v}}
      p:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties: {q: {type: object, properties: {r: {type: integer}}}}
      e:
        type: object
        x-kubernetes-embedded-resource: true
        properties: {spec: {type: object}}";

fn decoded(body: &str, s: &Structural) -> (Value, Vec<String>) {
    let mut object = value(body);
    let unknown = match coerce(&mut object, Some(s), Reading::Request { track: true }) {
        Ok(u) => u,
        Err(e) => panic!("the body decodes: {e}"),
    };
    default(&mut object, Some(s));
    (object, unknown)
}

#[test]
fn nulls_follow_nullable_and_default() {
    let s = schema(SCHEMA);
    let (object, unknown) = decoded(
        "{apiVersion: example.com/v1, kind: Thing, metadata: {name: t}, spec: {a: null, b: null, c: null, d: null, s: [null, k], m: {k: null}}}",
        &s,
    );
    assert!(unknown.is_empty());
    assert_eq!(
        object.as_map().and_then(|m| m.get("spec")),
        Some(&value("{a: x, b: null, d: null, s: [z, k], m: {k: v}}"))
    );
}

#[test]
fn defaults_fill_lists_and_a_defaulted_parent() {
    let s = schema(SCHEMA);
    let (object, _) = decoded(
        "{apiVersion: example.com/v1, kind: Thing, metadata: {name: t}, spec: null}",
        &s,
    );
    assert_eq!(
        object.as_map().and_then(|m| m.get("spec")),
        Some(&value("{a: x, b: y}"))
    );
    let (object, _) = decoded(
        "{apiVersion: example.com/v1, kind: Thing, spec: {l: [{}, {w: 5}]}}",
        &s,
    );
    assert_eq!(
        object.as_map().and_then(|m| m.get("spec")),
        Some(&value("{a: x, b: y, l: [{w: 1}, {w: 5}]}"))
    );
}

#[test]
fn unknown_fields_are_pruned_and_named_in_the_servers_order() {
    let s = schema(SCHEMA);
    let (object, unknown) = decoded(
        "{apiVersion: example.com/v1, kind: Thing, metadata: {name: t, bogus: 1}, top: 1,
          spec: {zz: 1, l: [{u: 1}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {u: 2}],
                 p: {free: 1, q: {r: 1, t: 2}},
                 e: {apiVersion: v1, kind: K, metadata: {name: e, odd: 1}, spec: {any: 1}, x: 1}}}",
        &s,
    );
    assert_eq!(
        unknown,
        [
            "metadata.bogus",
            "spec.e.spec.any",
            "spec.e.x",
            "spec.l[0].u",
            "spec.l[10].u",
            "spec.p.q.t",
            "spec.zz",
            "top",
            "spec.e.metadata.odd",
        ]
    );
    let spec = object.as_map().and_then(|m| m.get("spec"));
    assert_eq!(
        spec.and_then(|s| s.as_map()).and_then(|s| s.get("p")),
        Some(&value("{free: 1, q: {r: 1}}"))
    );
    assert_eq!(
        spec.and_then(|s| s.as_map()).and_then(|s| s.get("e")),
        Some(&value(
            "{apiVersion: v1, kind: K, metadata: {name: e}, spec: {}}"
        ))
    );
    assert!(object.as_map().is_some_and(|m| m.get("top").is_none()));
}

#[test]
fn a_version_without_a_schema_keeps_only_type_and_metadata() {
    let mut object =
        value("{apiVersion: example.com/v1, kind: Thing, metadata: {name: t}, spec: {a: 1}}");
    let unknown = coerce(&mut object, None, Reading::Request { track: true });
    assert_eq!(unknown, Ok(vec!["spec".to_owned()]));
    assert!(object.as_map().is_some_and(|m| m.get("spec").is_none()));
}

#[test]
fn reading_from_storage_tracks_nothing_and_defaults() {
    let s = schema(SCHEMA);
    let mut object =
        value("{apiVersion: example.com/v1, kind: Thing, metadata: {name: t}, spec: {zz: 1}}");
    read(&mut object, Some(&s));
    assert_eq!(
        object.as_map().and_then(|m| m.get("spec")),
        Some(&value("{a: x, b: y}"))
    );
    // The storage's reader repairs a missing generation.
    assert_eq!(
        object.as_map().and_then(|m| m.get("metadata")),
        Some(&value("{name: t, generation: 1}"))
    );
}

#[test]
fn a_stored_object_is_read_with_its_crds_schema() {
    use crate::apiserver::{ApiServer, ObjectKey, Request};
    let get = Request::new("GET", "/apis/example.com/v1/namespaces/n/things/t");
    let spec = |server: &mut ApiServer| {
        let read = server.handle(&get);
        read.body.as_map().and_then(|m| m.get("spec")).cloned()
    };
    let schema = "type: object\nproperties:\n  spec: {type: object, properties: {a: {type: string}, b: {type: integer, default: 2}}}";
    let object = value(
        "{apiVersion: example.com/v1, kind: Thing, metadata: {name: t, namespace: n, resourceVersion: '5'}, spec: {a: x, z: 1}}",
    );
    let key = ObjectKey::new("example.com", "things", "n", "t");
    // Put in after the CRD: held as the storage reads it.
    let mut server = ApiServer::new();
    if let Err(e) = server.add_crd(&crd(schema)) {
        panic!("the CRD is served: {e}");
    }
    server.put_object(key.clone(), object.clone());
    assert_eq!(spec(&mut server), Some(value("{a: x, b: 2}")));
    // Put in before it: read again when the CRD comes.
    let mut server = ApiServer::new();
    server.put_object(key, object);
    if let Err(e) = server.add_crd(&crd(schema)) {
        panic!("the CRD is served: {e}");
    }
    assert_eq!(spec(&mut server), Some(value("{a: x, b: 2}")));
}
