//! Hostile schemas: deep nesting, self reference, alias bombs. Each gets an answer in bounded
//! time and stack, never a panic.

use smd_schema::{ErrorKind, Schema, TypeRef};

/// A type whose list nests `depth` inlined lists deep (three YAML levels each).
fn nested_lists(depth: usize) -> String {
    let mut text = String::from("types:\n- name: deep\n  list: ");
    for _ in 0..depth {
        text.push_str("{elementType: {list: ");
    }
    text.push_str("{}");
    for _ in 0..depth {
        text.push_str("}}");
    }
    text.push('\n');
    text
}

#[test]
fn deep_nesting_within_the_reader_limit_works() {
    let schema = Schema::from_yaml(&nested_lists(300)).unwrap();
    let again = Schema::from_yaml(&schema.to_yaml()).unwrap();
    assert!(again == schema);
}

#[test]
fn nesting_past_the_reader_limit_is_refused() {
    let err = Schema::from_yaml(&nested_lists(2000)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Limit, "{err}");
}

#[test]
fn self_reference_resolves_one_step_at_a_time() {
    let schema = Schema::from_yaml(
        "types:\n- name: a\n  map:\n    elementType: {namedType: a, elementRelationship: atomic}\n",
    )
    .unwrap();
    let mut tr = schema.type_ref("a");
    for _ in 0..1000 {
        let resolved = schema.resolve(&tr).unwrap();
        tr = resolved.map().unwrap().element_type().unwrap().clone();
    }
    assert_eq!(tr.named_type(), Some("a"));
}

#[test]
fn unbound_and_foreign_references_resolve_by_name() {
    // (`y` would be a boolean in YAML 1.1.)
    let a =
        Schema::from_yaml("types:\n- name: x\n  scalar: string\n- name: z\n  scalar: numeric\n")
            .unwrap();
    let b = Schema::from_yaml("types:\n- name: z\n  scalar: boolean\n").unwrap();
    // Bound to `a` (index 1), used with `b` (where index 1 does not exist): looked up by name.
    let bound_to_a = a.type_ref("z");
    assert_eq!(
        b.resolve(&bound_to_a).unwrap().scalar().unwrap().as_str(),
        "boolean"
    );
    assert_eq!(
        a.resolve(&bound_to_a).unwrap().scalar().unwrap().as_str(),
        "numeric"
    );
    let unbound = TypeRef::named("x");
    assert_eq!(
        a.resolve(&unbound).unwrap().scalar().unwrap().as_str(),
        "string"
    );
    assert!(b.resolve(&unbound).is_none());
}

#[test]
fn alias_bomb_is_refused() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let prev = format!("*a{}", i - 1);
        text.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            std::iter::repeat_n(prev.as_str(), 10)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let err = Schema::from_yaml(&text).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Limit, "{err}");
}
