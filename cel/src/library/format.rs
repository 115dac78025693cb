//! Text forms of values: Go's shortest `%g`-style doubles (`string(1e21)` is `1e+21`), the
//! `%s` form of any value, and strings v2's `format`.

use super::clauses::{Piece, pieces};
use crate::error::{Error, Result};
use crate::value::{List, Value};

/// Go's `strconv.FormatFloat(d, 'g', -1, 64)`: shortest digits, exponent form when the
/// exponent is below -4 or at least 21, with a two-digit signed exponent.
pub(crate) fn format_go_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let e = format!("{d:e}");
    let Some((mantissa, exp)) = e.split_once('e') else {
        return e;
    };
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        let s = format!("{d}");
        return s;
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// The `%s` text of a value, as strings v2's `format` writes it.
pub(crate) fn display(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => format_go_double(*d),
        Value::String(s) => s.to_string(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Value::List(l) => {
            let parts: Vec<String> = l.iter().map(|e| quoted(&e)).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Map(m) => {
            let mut parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}:{}", quoted(&k), quoted(&v)))
                .collect();
            parts.sort();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Duration(d) => d.to_string(),
        Value::Timestamp(t) => t.to_string(),
        Value::Type(t) => t.name().into(),
        Value::Optional(None) => "optional.none()".into(),
        Value::Optional(Some(v)) => format!("optional.of({})", display(v)),
        Value::Opaque(o) => format!("{o:?}"),
    }
}

fn quoted(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        other => display(other),
    }
}

fn clause_error(clause: &str, what: &str, v: &Value) -> Error {
    Error::new(format!(
        "error during formatting: {clause} clause can only be used on {what}, was given {}",
        v.type_of().name()
    ))
}

/// strings v2's `"...".format([args])`.
pub(crate) fn format(text: &str, args: &List) -> Result<String> {
    let mut out = String::new();
    for piece in pieces(text, args.len()) {
        match piece.map_err(|e| Error::new(e.to_string()))? {
            Piece::Text(t) => out.push_str(t),
            Piece::Percent => out.push('%'),
            Piece::Clause {
                index,
                verb,
                precision,
            } => {
                let Some(arg) = args.get(index) else {
                    return Err(Error::new(format!("index {index} out of range")));
                };
                // cel-go has no bound on the precision; ours keeps the text's size sane.
                let precision = precision.map(|p| p.clamp(0, 1000) as usize);
                out.push_str(&clause(char::from(verb), precision, &arg)?);
            }
        }
    }
    Ok(out)
}

fn clause(verb: char, precision: Option<usize>, arg: &Value) -> Result<String> {
    Ok(match verb {
        's' => display(arg),
        'd' => match arg {
            Value::Int(i) => i.to_string(),
            Value::Uint(u) => u.to_string(),
            _ => return Err(clause_error("decimal", "integers", arg)),
        },
        'f' => match arg {
            Value::Double(d) if d.is_nan() => "NaN".into(),
            Value::Double(d) if d.is_infinite() => {
                if *d > 0.0 {
                    "∞".into()
                } else {
                    "-∞".into()
                }
            }
            Value::Double(d) => group_thousands(&format!("{:.*}", precision.unwrap_or(6), d)),
            _ => return Err(clause_error("fixed-point", "doubles", arg)),
        },
        'e' => match arg {
            Value::Double(d) => scientific(*d),
            _ => return Err(clause_error("scientific", "doubles", arg)),
        },
        'x' | 'X' => {
            let s = match arg {
                Value::Int(i) if *i < 0 => format!("-{:x}", i.unsigned_abs()),
                Value::Int(i) => format!("{i:x}"),
                Value::Uint(u) => format!("{u:x}"),
                Value::String(s) => s.bytes().map(|b| format!("{b:02x}")).collect(),
                Value::Bytes(b) => b.iter().map(|b| format!("{b:02x}")).collect(),
                _ => {
                    return Err(Error::new(format!(
                        "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given {}",
                        arg.type_of().name()
                    )));
                }
            };
            if verb == 'X' { s.to_uppercase() } else { s }
        }
        'o' => match arg {
            Value::Int(i) if *i < 0 => format!("-{:o}", i.unsigned_abs()),
            Value::Int(i) => format!("{i:o}"),
            Value::Uint(u) => format!("{u:o}"),
            _ => return Err(clause_error("octal", "integers", arg)),
        },
        _ => match arg {
            Value::Int(i) if *i < 0 => format!("-{:b}", i.unsigned_abs()),
            Value::Int(i) => format!("{i:b}"),
            Value::Uint(u) => format!("{u:b}"),
            Value::Bool(b) => u8::from(*b).to_string(),
            _ => return Err(clause_error("binary", "integers and bools", arg)),
        },
    })
}

/// The integer part of a fixed-point text with `,` every three digits, as cel-go's locale-aware
/// printer writes it.
fn group_thousands(text: &str) -> String {
    let (sign, rest) = text.strip_prefix('-').map_or(("", text), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    let mut out = String::from(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

/// cel-go's `%e`: six decimals whatever the precision, then `×10` and a superscript exponent
/// of at least two digits.
fn scientific(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "∞".into() } else { "-∞".into() };
    }
    // Go's printer writes negative zero without its sign here.
    let d = if d == 0.0 { 0.0 } else { d };
    let e = format!("{d:.6e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sup = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut out = format!("{mantissa}×10");
    if exp < 0 {
        out.push('⁻');
    }
    for c in format!("{:02}", exp.unsigned_abs()).chars() {
        out.push(sup[c.to_digit(10).unwrap_or(0) as usize]);
    }
    out
}
