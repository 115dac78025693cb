//! `SetDefaults_ResourceList` (pkg/apis/core/v1/defaults.go:44): every quantity of a resource
//! list rounded up to a thousandth (`Quantity.RoundUp(-3)`), so no stored quantity is finer than
//! a milli-unit.
//!
//! Only decimal-SI quantities can be finer than a milli-unit in their canonical form (`100u`,
//! `5n`, `0.0001`); binary-SI quantities and plain integers never are. A value this module
//! cannot read exactly (an exponent form, a number beyond 128 bits) is left as it is.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

/// Rounds every quantity of the resource list at `key` in `map`.
pub(super) fn round_list(map: &mut Map, key: &str) {
    let Some(list) = map.get_mut(key).and_then(Value::as_map_mut) else {
        return;
    };
    for (_, quantity) in list.iter_mut() {
        if let Some(rounded) = quantity.as_str().and_then(round_up_milli) {
            *quantity = Value::String(rounded);
        }
    }
}

/// The canonical form of `q` rounded up (away from zero) to a thousandth, when it is a
/// decimal-SI quantity written finer than that; `None` when it is not (the round trip already
/// wrote it canonically).
pub(super) fn round_up_milli(q: &str) -> Option<String> {
    let (negative, rest) = match q.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, q.strip_prefix('+').unwrap_or(q)),
    };
    let number_end = rest
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(rest.len());
    let (number, suffix) = rest.split_at(number_end);
    let exponent: i32 = match suffix {
        "n" => -9,
        "u" => -6,
        "m" => -3,
        "" => 0,
        "k" => 3,
        "M" => 6,
        "G" => 9,
        "T" => 12,
        "P" => 15,
        "E" => 18,
        _ => return None,
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    // Digits after the decimal point, in units of 10^exponent: the value is
    // mantissa * 10^(exponent - fraction digits).
    let fraction = fraction.trim_end_matches('0');
    let scale = exponent - i32::try_from(fraction.len()).ok()?;
    if scale >= -3 {
        return None;
    }
    let mut mantissa: i128 = 0;
    for c in whole.chars().chain(fraction.chars()) {
        let digit = i128::from(c.to_digit(10)?);
        mantissa = mantissa.checked_mul(10)?.checked_add(digit)?;
    }
    // In milli-units, rounded away from zero.
    let divisor = 10i128.checked_pow(u32::try_from(-3 - scale).ok()?)?;
    let mut milli = mantissa / divisor;
    if mantissa % divisor != 0 {
        milli += 1;
    }
    Some(canonical_decimal(negative, milli, -3))
}

/// The decimal-SI canonical text of `sign * mantissa * 10^exponent`: the largest multiple-of-3
/// exponent that keeps the mantissa whole, as Go's `Quantity.String` writes it.
fn canonical_decimal(negative: bool, mut mantissa: i128, mut exponent: i32) -> String {
    if mantissa == 0 {
        return "0".to_owned();
    }
    while mantissa % 1000 == 0 && exponent < 18 {
        mantissa /= 1000;
        exponent += 3;
    }
    let suffix = match exponent {
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => "",
    };
    let sign = if negative { "-" } else { "" };
    format!("{sign}{mantissa}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::round_up_milli;

    #[test]
    fn rounds_only_what_is_finer_than_a_milli_unit() {
        assert_eq!(round_up_milli("100u").as_deref(), Some("1m"));
        assert_eq!(round_up_milli("1500001u").as_deref(), Some("1501m"));
        assert_eq!(round_up_milli("1000000u").as_deref(), Some("1"));
        assert_eq!(round_up_milli("5n").as_deref(), Some("1m"));
        assert_eq!(round_up_milli("0.0001").as_deref(), Some("1m"));
        assert_eq!(round_up_milli("-100u").as_deref(), Some("-1m"));
        assert_eq!(round_up_milli("1500m"), None);
        assert_eq!(round_up_milli("1Gi"), None);
        assert_eq!(round_up_milli("2"), None);
        assert_eq!(round_up_milli(""), None);
    }
}
