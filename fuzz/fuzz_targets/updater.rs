//! Apply, forced apply and update of objects built from the input, by three managers, under a
//! fixed schema with every shape that matters (granular struct and map, keyed list with two
//! keys and a default, set, atomic list, atomic map). After every operation these hold. They
//! hold in Go too: the conformance runner checks them on Go's answers to every `updater`
//! golden and every differential `updater.sequence` case
//! (`smd_conformance::updater_ops::invariant_violations`).
//!
//! 1. nothing panics, and no manager is left with an empty set;
//! 2. every manager's set written as fieldsV1 reads back to the same set;
//! 3. a successful apply leaves the applier owning exactly its configuration's field set,
//!    and every leaf of that set is present in the new object;
//! 4. a refused apply names only other managers, and at least one conflict.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use smd::fieldpath::{ManagedFields, Map, PathElement, Set, Value};
use smd::merge::{Error, Identity, Updater};
use smd::typed::TypedValue;
use smd_schema::Schema;

const SCHEMA: &str = r#"
types:
- name: root
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: replicas, type: {scalar: numeric}}
    - {name: labels, type: {map: {elementType: {scalar: string}}}}
    - {name: selector, type: {map: {elementType: {scalar: string}, elementRelationship: atomic}}}
    - {name: spec, type: {namedType: spec}}
    - {name: ports, type: {list: {elementType: {namedType: port}, elementRelationship: associative, keys: [name, protocol]}}}
    - {name: finalizers, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
    - {name: args, type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}}
- name: spec
  map:
    fields:
    - {name: a, type: {scalar: numeric}}
    - {name: b, type: {scalar: string}}
    - {name: inner, type: {namedType: spec}}
- name: port
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: protocol, type: {scalar: string}, default: TCP}
    - {name: port, type: {scalar: numeric}}
"#;

fn schema() -> Arc<Schema> {
    static SCHEMA_ONCE: OnceLock<Arc<Schema>> = OnceLock::new();
    SCHEMA_ONCE
        .get_or_init(|| Arc::new(Schema::from_yaml(SCHEMA).expect("the fixed schema is valid")))
        .clone()
}

/// Reads choices from the input, then zeros.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    fn below(&mut self, n: u8) -> u8 {
        self.next() % n
    }
}

fn pick(b: &mut Bytes<'_>, items: &[&str]) -> Value {
    Value::from(items[b.below(items.len() as u8) as usize])
}

fn spec(b: &mut Bytes<'_>, depth: u8) -> Value {
    let mut m = Map::new();
    let fields = b.next();
    if fields & 1 != 0 {
        m.insert("a", Value::Int(i64::from(b.below(3))));
    }
    if fields & 2 != 0 {
        m.insert("b", pick(b, &["x", "y"]));
    }
    if fields & 4 != 0 && depth < 3 {
        m.insert("inner", spec(b, depth + 1));
    }
    if fields & 8 != 0 {
        return Value::Null;
    }
    Value::Map(m)
}

fn object(b: &mut Bytes<'_>) -> Value {
    let mut m = Map::new();
    let fields = u16::from(b.next()) | (u16::from(b.next()) << 8);
    if fields & 1 != 0 {
        m.insert("name", pick(b, &["a", "b"]));
    }
    if fields & 2 != 0 {
        m.insert("replicas", Value::Int(i64::from(b.below(4))));
    }
    if fields & 4 != 0 {
        let mut labels = Map::new();
        for _ in 0..b.below(3) {
            let k = pick(b, &["app", "tier", "team"]);
            if let Value::String(k) = k {
                labels.insert(k, pick(b, &["x", "y"]));
            }
        }
        m.insert("labels", Value::Map(labels));
    }
    if fields & 8 != 0 {
        let mut sel = Map::new();
        sel.insert("app", pick(b, &["x", "y"]));
        m.insert("selector", Value::Map(sel));
    }
    if fields & 16 != 0 {
        m.insert("spec", spec(b, 0));
    }
    if fields & 32 != 0 {
        let mut ports: Vec<Value> = Vec::new();
        let mut seen: Vec<(Value, Value)> = Vec::new();
        for _ in 0..b.below(4) {
            let mut p = Map::new();
            let name = pick(b, &["http", "https", "dns"]);
            let protocol = if b.below(2) == 0 {
                Value::from("TCP")
            } else {
                pick(b, &["UDP", "TCP"])
            };
            if seen.contains(&(name.clone(), protocol.clone())) {
                continue;
            }
            seen.push((name.clone(), protocol.clone()));
            p.insert("name", name);
            // Leaving protocol out uses its default, TCP.
            if protocol != Value::from("TCP") || b.below(2) == 0 {
                p.insert("protocol", protocol);
            }
            if b.below(2) == 0 {
                p.insert("port", Value::Int(i64::from(b.below(3)) + 80));
            }
            ports.push(Value::Map(p));
        }
        m.insert("ports", Value::List(ports));
    }
    if fields & 64 != 0 {
        let mut items: Vec<Value> = Vec::new();
        for _ in 0..b.below(4) {
            let f = pick(b, &["f1", "f2", "f3"]);
            if !items.contains(&f) {
                items.push(f);
            }
        }
        m.insert("finalizers", Value::List(items));
    }
    if fields & 128 != 0 {
        let n = b.below(3);
        m.insert(
            "args",
            Value::List((0..n).map(|_| pick(b, &["-v", "-q"])).collect()),
        );
    }
    Value::Map(m)
}

/// Whether `set` has `path` or something below it.
fn covers(set: &Set, path: &[PathElement]) -> bool {
    let Some((last, prefix)) = path.split_last() else {
        return true;
    };
    let mut node = set;
    for pe in prefix {
        match node.child(pe) {
            Some(child) => node = child,
            None => return false,
        }
    }
    node.has_member(last) || node.child(last).is_some_and(|c| !c.is_empty())
}

fn check_managers(managers: &ManagedFields) {
    for (name, owned) in managers.iter() {
        assert!(!owned.set().is_empty(), "{name} kept an empty set");
        let bytes = owned
            .set()
            .to_fields_v1()
            .expect("a manager's set writes as fieldsV1");
        let back = Set::from_fields_v1(&bytes).expect("written fieldsV1 reads back");
        assert!(
            back == *owned.set(),
            "{name}'s set changed through fieldsV1"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let schema = schema();
    let root = schema.type_ref("root");
    let updater = Updater::new(Identity);
    let mut b = Bytes(data);
    let mut live = TypedValue::new(Value::Null, schema.clone(), root.clone(), false)
        .expect("null is a valid root");
    let mut managers = ManagedFields::new();
    for _ in 0..b.below(6) + 1 {
        let manager = ["alice", "bob", "carol"][b.below(3) as usize];
        let op = b.below(3);
        let value = object(&mut b);
        let allow_duplicates = op == 2;
        let Ok(obj) = TypedValue::new(value, schema.clone(), root.clone(), allow_duplicates) else {
            continue;
        };
        if op == 2 {
            managers = updater
                .update(&live, &obj, "v1", &managers, manager)
                .expect("an update of a valid object succeeds");
            live = obj;
            check_managers(&managers);
            continue;
        }
        match updater.apply(&live, &obj, "v1", &managers, manager, op == 1) {
            Ok((result, after)) => {
                let own = obj.to_field_set().expect("a valid object has a field set");
                if own.is_empty() {
                    assert!(after.get(manager).is_none(), "{manager} kept an empty set");
                } else {
                    let owned = after.get(manager).expect("the applier owns its fields");
                    assert!(
                        owned.set() == &own,
                        "{manager} does not own exactly its config"
                    );
                    assert!(owned.applied(), "an applier's entry is applied");
                }
                if let Some(result) = result {
                    live = result;
                }
                let present = live.to_field_set().expect("the result has a field set");
                for path in own.leaves().iter() {
                    assert!(
                        covers(&present, path.elements()),
                        "{path} was applied but is not in the result"
                    );
                }
                managers = after;
                check_managers(&managers);
            }
            Err(Error::Conflicts(conflicts)) => {
                assert!(op == 0, "a forced apply conflicted");
                assert!(!conflicts.conflicts().is_empty(), "no conflict named");
                for c in conflicts.conflicts() {
                    assert!(c.manager != manager, "{manager} conflicts with itself");
                }
            }
            Err(e) => panic!("apply failed: {e}"),
        }
    }
});
