//! The plain parsers against Go's answers in `tests/data/cel_k8s.json`: its rows with `fn` and
//! `arg` (one library function on one string) hold cel-go's value or error text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::{cidr, format, ip, quantity, semver, url};
use serde_json::{Value as Json, json};

/// What smd's parsers answer for `fn(arg)`, in the corpus's tagged form.
fn answer(function: &str, arg: &str) -> Option<Json> {
    let err = |e: String| json!({ "error": e });
    let opaque = |t: &str, s: String| json!({"opaque": {"type": t, "string": s}});
    Some(match function {
        "isIP" => json!({ "bool": ip::parse_ip(arg).is_ok() }),
        "isCIDR" => json!({ "bool": cidr::parse_cidr(arg).is_ok() }),
        "isURL" => json!({ "bool": url::parse_request_uri(arg).is_ok() }),
        "isQuantity" => json!({ "bool": quantity::parse(arg).is_ok() }),
        "isSemver" => json!({ "bool": semver::parse(arg).is_ok() }),
        "ip" => match ip::parse_ip(arg) {
            Ok(a) => opaque(ip::TYPE_NAME, a.to_string()),
            Err(e) => err(e.to_string()),
        },
        "ip.isCanonical" => match ip::parse_ip(arg) {
            Ok(a) => json!({ "bool": a.to_string() == arg }),
            Err(e) => err(e.to_string()),
        },
        "cidr" => match cidr::parse_cidr(arg) {
            Ok(p) => opaque(cidr::TYPE_NAME, p.to_string()),
            Err(e) => err(e.to_string()),
        },
        "url" => match url::library_url(arg) {
            Ok(_) => opaque(url::TYPE_NAME, String::new()),
            Err(e) => err(e),
        },
        "quantity" => match quantity::parse(arg) {
            Ok(_) => opaque(quantity::TYPE_NAME, String::new()),
            Err(e) => err(e.to_string()),
        },
        "semver" => match semver::parse(arg) {
            Ok(_) => opaque(semver::TYPE_NAME, String::new()),
            Err(e) => err(e),
        },
        _ => return None,
    })
}

#[test]
fn parsers_agree_with_go() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cel_k8s.json"
    ))
    .expect("corpus");
    let corpus: Json = serde_json::from_str(&text).expect("json");
    let (mut checked, mut failures) = (0, Vec::new());
    for case in corpus["cases"].as_array().expect("cases") {
        let (Some(function), Some(arg), Some(want)) =
            (case["fn"].as_str(), case["arg"].as_str(), case.get("value"))
        else {
            continue;
        };
        let Some(got) = answer(function, arg) else {
            continue;
        };
        checked += 1;
        if &got != want {
            failures.push(format!("{function}({arg:?})\n  go:  {want}\n  smd: {got}"));
        }
    }
    assert!(checked > 3000, "only {checked} rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn canonical_ipv6_texts() {
    for (text, canonical) in [
        ("2001:0db8:0000::0001", "2001:db8::1"),
        ("0:0:1:0:0:0:0:0", "0:0:1::"),
        ("1:0:0:1:0:0:1:1", "1::1:0:0:1:1"),
        ("::1.2.3.4", "::102:304"),
        ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
    ] {
        assert_eq!(ip::parse_ip(text).unwrap().to_string(), canonical);
    }
}

#[test]
fn quantity_representation() {
    let float = |s: &str| quantity::parse(s).unwrap().approximate_float();
    assert_eq!(float("0.3"), 0.300_000_000_000_000_04);
    assert_eq!(float("300m"), 0.3);
    assert_eq!(quantity::parse("1000m").unwrap().as_int64(), None);
    assert_eq!(quantity::parse("1k").unwrap().as_int64(), Some(1000));
    let one = quantity::parse("1").unwrap();
    let sum = one.add(&quantity::parse("1e400").unwrap()).unwrap();
    assert_eq!(sum.approximate_float(), f64::INFINITY);
    assert!(one.add(&quantity::parse("1e20000").unwrap()).is_err());
}

#[test]
fn named_formats() {
    assert_eq!(format::validate("dns1123Label", "a-b"), Some(vec![]));
    assert_eq!(format::validate("bogus", "a"), None);
    assert_eq!(
        format::validate("uuid", "x"),
        Some(vec!["does not match the UUID format".to_owned()])
    );
}
