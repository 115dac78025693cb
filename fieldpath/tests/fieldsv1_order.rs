//! The `fieldsV1` reader against Go on `data/fieldsv1_order.txt` (written by
//! `data/gen_fieldsv1_order.go`): sibling keys out of Go's order, repeated, or equal while
//! written differently (`v:0`, `v:-0`). smd sorts each node once where Go inserts key by key;
//! the set must come out byte for byte as Go's, the part read before an error included.

#![allow(clippy::unwrap_used, clippy::panic)]

use smd_fieldpath::{Set, Value};

const CASES: &str = include_str!("data/fieldsv1_order.txt");

#[test]
fn sets_are_gos_whatever_the_order_of_keys() {
    let mut checked = 0;
    for (n, line) in CASES.lines().enumerate() {
        let [input, verdict, expected] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("line {}: not three fields", n + 1);
        };
        let (set, error) = Set::from_fields_v1_partial(input.as_bytes());
        assert_eq!(
            error.is_some(),
            verdict == "ERR",
            "line {}: {input}: {error:?}",
            n + 1
        );
        let written = set.to_fields_v1().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            expected,
            "line {}: {input}",
            n + 1
        );
        // The value path, where it answers, answers as the text path on the same value.
        if error.is_none() {
            let value = Value::from_json(input).unwrap();
            if let Some(from_value) = Set::from_fields_v1_value(&value) {
                let text = value.to_json().unwrap();
                assert_eq!(
                    from_value,
                    Set::from_fields_v1(text.as_bytes()).unwrap(),
                    "line {}",
                    n + 1
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 600, "{checked} cases");
}
