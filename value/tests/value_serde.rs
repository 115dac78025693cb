//! serde, serde_json conversions and `Value::from_json`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smd_value::value::FROM_JSON_MAX_DEPTH;
use smd_value::{ErrorKind, Location, Map, Value};

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn numbers() {
    let v = Value::from_json(
        r#"[0, -0, 1, -1, 9223372036854775807, -9223372036854775808, 9223372036854775808,
            18446744073709551616, 1.0, 1e3, -0.0, 0.5, 1E-7]"#,
    )
    .unwrap();
    let items = v.as_list().unwrap();
    let kinds: Vec<String> = items.iter().map(|v| format!("{v:?}")).collect();
    assert_eq!(
        kinds,
        [
            "Int(0)",
            // serde_json reads `-0` as a float (Kubernetes' reader: int 0); equal to `Int(0)`.
            "Float(-0.0)",
            "Int(1)",
            "Int(-1)",
            "Int(9223372036854775807)",
            "Int(-9223372036854775808)",
            "Float(9.223372036854776e18)",
            "Float(1.8446744073709552e19)",
            "Float(1.0)",
            "Float(1000.0)",
            "Float(-0.0)",
            "Float(0.5)",
            "Float(1e-7)",
        ]
    );
}

#[test]
fn depth_limit() {
    let deepest = FROM_JSON_MAX_DEPTH;
    let v = Value::from_json(&nested(deepest)).unwrap();
    let mut depth = 0;
    let mut at = &v;
    while let Some([inner]) = at.as_list() {
        depth += 1;
        at = inner;
    }
    assert_eq!(depth + 1, deepest, "levels of nesting");
    let e = Value::from_json(&nested(deepest + 1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert_eq!(e.message(), "recursion limit exceeded");
}

#[test]
fn maps_keep_order_and_last_duplicate() {
    let v = Value::from_json(r#"{"b": 1, "a": 2, "b": 3, "c": {"z": null, "y": true}}"#).unwrap();
    let m = v.as_map().unwrap();
    assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "a", "c"]);
    assert_eq!(m.get("b").unwrap().as_int(), Some(3));
    assert_eq!(
        serde_json::to_string(&v).unwrap(),
        r#"{"b":3,"a":2,"c":{"z":null,"y":true}}"#
    );
}

#[test]
fn serialize_round_trips() {
    let text =
        r#"{"s":"<é\n>","i":-5,"f":1.0,"g":1e-7,"l":[null,false,[],{}],"u":18446744073709551615}"#;
    let v = Value::from_json(text).unwrap();
    let out = serde_json::to_string(&v).unwrap();
    // serde's own number text (serde_json keeps `1.0` a float), not Go's.
    assert_eq!(
        out,
        r#"{"s":"<é\n>","i":-5,"f":1.0,"g":1e-7,"l":[null,false,[],{}],"u":1.8446744073709552e+19}"#
    );
    let back: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(back, v);
    assert_eq!(format!("{back:?}"), format!("{v:?}"));
}

#[test]
fn non_finite_floats_do_not_serialize() {
    for (f, text) in [
        (f64::NAN, "NaN"),
        (f64::INFINITY, "+Inf"),
        (f64::NEG_INFINITY, "-Inf"),
    ] {
        let v = Value::List(vec![Value::Int(1), Value::Float(f)]);
        let e = serde_json::to_string(&v).unwrap_err();
        assert_eq!(e.to_string(), format!("unsupported value: {text}"));
        let e = serde_json::Value::try_from(&v).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        assert_eq!(e.message(), format!("unsupported value: {text}"));
        let e = serde_json::Value::try_from(v).unwrap_err();
        assert_eq!(e.message(), format!("unsupported value: {text}"));
    }
}

#[test]
fn serde_json_values_convert_both_ways() {
    let j: serde_json::Value =
        serde_json::from_str(r#"{"z":[1,-2,2.5,9223372036854775808,"x",true,null],"a":{"k":{}}}"#)
            .unwrap();
    let v = Value::from(j.clone());
    let m = v.as_map().unwrap();
    assert_eq!(m.keys().collect::<Vec<_>>(), ["z", "a"]);
    let z = m.get("z").unwrap().as_list().unwrap();
    assert!(matches!(z[0], Value::Int(1)));
    assert!(matches!(z[1], Value::Int(-2)));
    assert!(matches!(z[2], Value::Float(x) if x == 2.5));
    assert!(matches!(z[3], Value::Float(x) if x == 9223372036854775808.0));
    // An integer beyond int64 came in as a float and goes back as one.
    let mut back = j;
    back["z"][3] = serde_json::json!(9223372036854775808.0);
    assert_eq!(serde_json::Value::try_from(&v).unwrap(), back);
    assert_eq!(serde_json::Value::try_from(v).unwrap(), back);
}

#[test]
fn map_serde() {
    let m: Map = serde_json::from_str(r#"{"b":[1],"a":"x"}"#).unwrap();
    assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "a"]);
    assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"b":[1],"a":"x"}"#);
    assert!(serde_json::from_str::<Map>("[]").is_err());
}

#[test]
fn errors_have_locations() {
    let cases: &[(&str, &str, usize, usize, usize)] = &[
        // text, message, line, column (characters), byte offset
        ("", "EOF while parsing a value", 1, 1, 0),
        ("[1,", "EOF while parsing a value", 1, 3, 2),
        ("[1,]", "trailing comma", 1, 4, 3),
        ("[1,x]", "expected value", 1, 4, 3),
        ("{} x", "trailing characters", 1, 4, 3),
        ("\"é\" x", "trailing characters", 1, 5, 5),
        ("{\n\"a\":\n  nul}", "expected ident", 3, 6, 12),
        ("{\"é\" 1}", "expected `:`", 1, 6, 6),
    ];
    for &(text, message, line, column, offset) in cases {
        let e = Value::from_json(text).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Json, "{text:?}");
        assert_eq!(e.message(), message, "{text:?}");
        assert_eq!(
            e.location(),
            Location::Text {
                line,
                column,
                offset
            },
            "{text:?}"
        );
    }
}
