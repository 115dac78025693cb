//! String text against Go: `tests/data/strings.txt`, written by `tests/data/gen_strings.go`, holds
//! strings with Go's `%q` of each (what `Display` of a string value must print) and
//! json-iterator's HTML-escaped text (what `to_json` of a string value must give). The plain
//! escaper of the same file is checked by the crate's unit tests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smd_value::Value;

// Bytes, not text: the plain escaper copies bytes that are not UTF-8 as they are.
const GOLDEN: &[u8] = include_bytes!("data/strings.txt");

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn strings_match_go() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in GOLDEN.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        let [hex, go_q, _plain, go_html] = fields[..] else {
            panic!("malformed line {line:?}");
        };
        let text = |field: &[u8]| std::str::from_utf8(field).unwrap().to_owned();
        let (hex, go_q, go_html) = (text(hex), text(go_q), text(go_html));
        let Ok(s) = String::from_utf8(unhex(&hex)) else {
            assert_eq!((go_q.as_str(), go_html.as_str()), ("-", "-"), "{hex}");
            continue;
        };
        checked += 1;
        let v = Value::String(s);
        let q = v.to_string();
        if q != go_q {
            failures.push(format!("{hex}: %q: Go {go_q}, smd {q}"));
        }
        let html = v.to_json().unwrap();
        if html != go_html {
            failures.push(format!("{hex}: json: Go {go_html}, smd {html}"));
        }
        // A map key goes through the same escaper as a string value.
        let mut m = smd_value::Map::new();
        m.insert(v.as_str().unwrap(), Value::Null);
        let keyed = Value::Map(m).to_json().unwrap();
        if keyed != format!("{{{go_html}:null}}") {
            failures.push(format!("{hex}: map key: Go {go_html}, smd {keyed}"));
        }
    }
    assert!(checked > 2500, "only {checked} strings");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
