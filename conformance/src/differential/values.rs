//! Random values, written as JSON (in many spellings) or as JSON-compatible YAML.

use super::rng::Rng;
use super::text::{Spelling, gen_string, json_string, space};

/// A value as the generator builds it. Numbers keep the exact spelling they will be written
/// with, so that `1`, `1.0`, `1e0` and `-0` stay distinct inputs.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A JSON number, as spelled.
    Num(String),
    /// A string.
    Str(String),
    /// A list.
    List(Vec<Val>),
    /// A map, in writing order (it may repeat a key: the reader keeps the last).
    Map(Vec<(String, Val)>),
}

/// Integers around the limits that matter: 2^31, 2^53 (float precision), i64, u64.
const INTS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "7",
    "42",
    "-300",
    "1000",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "9223372036854775807",
    "9223372036854775806",
    "-9223372036854775808",
    "-9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "100000000000000000000000",
];

/// Floats around the formatting thresholds (1e-6, 1e21), the subnormals, the largest finite,
/// negative zero, and spellings of the same number.
const FLOATS: &[&str] = &[
    "0.0",
    "-0",
    "-0.0",
    "1.0",
    "1.5",
    "-2.5",
    "0.1",
    "0.5",
    "3.14159",
    "1e0",
    "2e0",
    "1E5",
    "1e+5",
    "1.0e-5",
    "1e-5",
    "0.000001",
    "0.0000001",
    "1e-6",
    "1e-7",
    "9.999999e-7",
    "0.0000009999999",
    "1e20",
    "1e21",
    "1.5e21",
    "100000000000000000000",
    "1000000000000000000000",
    "999999999999999999999",
    "123456789012345678901234",
    "5e-324",
    "4.9e-324",
    "2e-324",
    "1e-400",
    "2.2250738585072014e-308",
    "2.225073858507201e-308",
    "1.7976931348623157e308",
    "1e308",
    "6.02214076e23",
    "1.2345678901234567e-300",
    "0.30000000000000004",
    "123456.789",
    "1.00000000000000011102230246251565404236316680908203125",
    "9007199254740993.0",
    "-1.0e-7",
    "1.0E+21",
];

/// Numbers beyond float64: Go's readers fail on them.
const OVERFLOWS: &[&str] = &["1e309", "-1e309", "1e400", "1.7976931348623159e308"];

/// A JSON number, spelled in one of many ways.
pub fn gen_number(rng: &mut Rng) -> String {
    match rng.weighted(&[30, 30, 1, 12, 12, 10]) {
        0 => rng.pick(INTS).to_owned(),
        1 => rng.pick(FLOATS).to_owned(),
        2 => rng.pick(OVERFLOWS).to_owned(),
        3 => {
            let magnitude = rng.next_u64() >> rng.below(64);
            let n = magnitude as i64;
            if rng.one_in(2) {
                n.wrapping_neg().to_string()
            } else {
                n.to_string()
            }
        }
        4 => {
            let f = f64::from_bits(rng.next_u64());
            if !f.is_finite() {
                return "1.25".to_owned();
            }
            match rng.below(3) {
                0 => format!("{f}"),
                1 => format!("{f:e}"),
                _ => format!("{f:E}"),
            }
        }
        _ => {
            let digits: String = (0..rng.range(1, 20))
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect();
            let digits = digits.trim_start_matches('0');
            let digits = if digits.is_empty() { "0" } else { digits };
            let sign = if rng.one_in(3) { "-" } else { "" };
            let exponent = rng.range(0, 50) as i64 - 25;
            match rng.below(3) {
                0 => format!("{sign}{digits}e{exponent}"),
                1 => format!("{sign}0.{digits}"),
                _ => format!("{sign}{digits}.5e{exponent}"),
            }
        }
    }
}

/// Another spelling of the same number: `1` as `1.0`, `1e0`, `10e-1`; `1.5` as `1.50`, `1.5E0`.
pub fn respell_number(rng: &mut Rng, n: &str) -> String {
    let has_exponent = n.contains(['e', 'E']);
    let has_point = n.contains('.');
    match rng.below(4) {
        0 if !has_exponent && !has_point => format!("{n}.0"),
        0 if !has_exponent => format!("{n}0"),
        1 if !has_exponent => format!("{n}{}", rng.pick(&["e0", "E0", "e+0", "e-0", "E+00"])),
        2 if !has_exponent && !has_point => format!("{n}0e-1"),
        _ => n.replace('e', "E"),
    }
}

/// A scalar: null, a bool, a number or a string.
pub fn gen_scalar(rng: &mut Rng) -> Val {
    match rng.weighted(&[5, 8, 45, 42]) {
        0 => Val::Null,
        1 => Val::Bool(rng.one_in(2)),
        2 => Val::Num(gen_number(rng)),
        _ => Val::Str(gen_string(rng)),
    }
}

/// A value at most `depth` containers deep. Maps have at most one key unless `multi_key`
/// (Go prints multi-key maps in random order, which makes `String` results vary).
pub fn gen_value(rng: &mut Rng, depth: usize, multi_key: bool) -> Val {
    if depth == 0 || rng.percent(55) {
        return gen_scalar(rng);
    }
    if rng.one_in(2) {
        let n = rng.range(0, 3);
        Val::List(
            (0..n)
                .map(|_| gen_value(rng, depth - 1, multi_key))
                .collect(),
        )
    } else {
        let n = if multi_key {
            rng.range(0, 4)
        } else {
            rng.range(0, 1)
        };
        let mut entries: Vec<(String, Val)> = Vec::new();
        for _ in 0..n {
            let key = gen_string(rng);
            if entries.iter().all(|(k, _)| *k != key) {
                entries.push((key, gen_value(rng, depth - 1, multi_key)));
            }
        }
        Val::Map(entries)
    }
}

/// `v` as JSON text.
pub fn to_json(rng: &mut Rng, v: &Val, spelling: Spelling) -> String {
    let mut out = String::new();
    write_json(rng, v, spelling, &mut out);
    out
}

fn write_json(rng: &mut Rng, v: &Val, spelling: Spelling, out: &mut String) {
    match v {
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Num(n) if spelling == Spelling::Loose && rng.one_in(5) => {
            out.push_str(&respell_number(rng, n))
        }
        Val::Num(n) => out.push_str(n),
        Val::Str(s) => out.push_str(&json_string(rng, s, spelling)),
        Val::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(space(rng, spelling));
                write_json(rng, item, spelling, out);
                out.push_str(space(rng, spelling));
            }
            out.push(']');
        }
        Val::Map(entries) => {
            out.push('{');
            for (i, (k, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(space(rng, spelling));
                out.push_str(&json_string(rng, k, spelling));
                out.push_str(space(rng, spelling));
                out.push(':');
                out.push_str(space(rng, spelling));
                write_json(rng, item, spelling, out);
                out.push_str(space(rng, spelling));
            }
            out.push('}');
        }
    }
}

/// A string YAML and JSON read the same way inside double quotes.
fn yaml_safe(s: &str) -> bool {
    s.chars()
        .all(|c| (' '..='~').contains(&c) || matches!(c, 'é' | 'ü' | 'ß' | '中' | '文' | 'ア'))
}

/// `v` as flow YAML that is also JSON (quoted keys and strings, JSON numbers), or None when a
/// string of `v` would read differently in YAML and JSON. With `specials`, a number is now and
/// then YAML's `.nan` or `.inf` instead (floats JSON cannot write: NaN orders and serializes
/// in its own ways).
pub fn to_yaml(rng: &mut Rng, v: &Val, specials: bool) -> Option<String> {
    let mut out = String::new();
    write_yaml(rng, v, specials, &mut out)?;
    Some(out)
}

fn write_yaml(rng: &mut Rng, v: &Val, specials: bool, out: &mut String) -> Option<()> {
    match v {
        Val::Str(s) => {
            if !yaml_safe(s) {
                return None;
            }
            out.push('"');
            for c in s.chars() {
                if c == '"' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('"');
        }
        Val::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_yaml(rng, item, specials, out)?;
            }
            out.push(']');
        }
        Val::Map(entries) => {
            out.push('{');
            for (i, (k, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_yaml(rng, &Val::Str(k.clone()), specials, out)?;
                out.push_str(": ");
                write_yaml(rng, item, specials, out)?;
            }
            out.push('}');
        }
        Val::Num(n) if n.parse::<u64>().is_ok_and(|u| u > i64::MAX as u64) => {
            // yaml.v2 reads this as a uint64, which smd refuses on purpose (README).
            return None;
        }
        Val::Num(_) if specials && rng.one_in(4) => {
            out.push_str(rng.pick(&[".nan", ".NaN", ".inf", "-.inf", "+.Inf"]));
        }
        Val::Null | Val::Bool(_) | Val::Num(_) => {
            write_json(rng, v, Spelling::Canonical, out);
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_json_is_json() {
        let mut rng = Rng::new(11);
        for _ in 0..2000 {
            let v = gen_value(&mut rng, 3, true);
            let text = to_json(&mut rng, &v, Spelling::Canonical);
            if OVERFLOWS.iter().any(|o| text.contains(o)) || text.contains("e400") {
                continue;
            }
            serde_json::from_str::<serde_json::Value>(&text).unwrap();
        }
    }
}
