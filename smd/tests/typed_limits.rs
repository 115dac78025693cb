//! Values nested past the walks' limit get an error naming the limit, never a stack overflow
//! or a panic. (smd's readers refuse such input earlier; these values are built in code.)

use smd::fieldpath::{Map, Value};
use smd::typed::{MAX_DEPTH, TypedValue};

fn nested(depth: usize) -> Value {
    let mut v = Value::Int(1);
    for _ in 0..depth {
        let mut m = Map::new();
        m.insert("a", v);
        v = Value::Map(m);
    }
    v
}

#[test]
fn walks_refuse_values_nested_past_the_limit() {
    // Walks recurse once per level: a thread's default stack (2 MiB) holds the limit.
    let handle = std::thread::Builder::new()
        .spawn(|| {
            let deep = TypedValue::deduced(nested(MAX_DEPTH + 10));
            let other = TypedValue::deduced(nested(MAX_DEPTH + 11));
            let said = |r: Result<String, String>| r.err().unwrap_or_default();
            let field_set = said(
                deep.to_field_set()
                    .map(|s| s.to_string())
                    .map_err(|e| e.to_string()),
            );
            let compare = said(
                deep.compare(&other)
                    .map(|c| c.to_string())
                    .map_err(|e| e.to_string()),
            );
            let merge = said(
                deep.merge(&other)
                    .map(|m| format!("{:?}", m.value().kind()))
                    .map_err(|e| e.to_string()),
            );
            let validate = said(
                deep.validate(false)
                    .map(|()| String::new())
                    .map_err(|e| e.to_string()),
            );
            (field_set, compare, merge, validate)
        })
        .expect("a thread");
    let (field_set, compare, merge, validate) = handle.join().expect("no panic");
    for (what, message) in [
        ("to_field_set", field_set),
        ("compare", compare),
        ("merge", merge),
        ("validate", validate),
    ] {
        assert!(
            message.contains(&format!("nested deeper than {MAX_DEPTH} levels")),
            "{what}: {message:?}"
        );
    }
    // Within the limit, the same shapes work.
    let fine = TypedValue::deduced(nested(50));
    assert!(fine.to_field_set().is_ok());
}
