//! Float text against Go: `tests/data/floats.txt` holds, for a few thousand float64s, Go's `%v`
//! text (what `Display` must print) and json-iterator's text or error (what `to_json` must give),
//! as written by `tests/data/gen_floats.go`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smd_value::{ErrorKind, Value};

const GOLDEN: &str = include_str!("data/floats.txt");

#[test]
fn floats_match_go() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in GOLDEN.lines() {
        let mut fields = line.splitn(3, ' ');
        let (Some(bits), Some(go_v), Some(go_json)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("malformed line {line:?}");
        };
        let bits = u64::from_str_radix(bits, 16).expect("hex bits");
        let v = Value::Float(f64::from_bits(bits));
        let text = v.to_string();
        if text != go_v {
            failures.push(format!("{bits:016x}: %v: Go {go_v}, smd {text}"));
        }
        let json = match v.to_json() {
            Ok(json) => json,
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::Unsupported);
                format!("ERR:{}", e.message())
            }
        };
        if json != go_json {
            failures.push(format!("{bits:016x}: json: Go {go_json}, smd {json}"));
        }
        checked += 1;
    }
    assert!(checked > 4000, "only {checked} lines");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
