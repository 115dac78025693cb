//! Go's `strconv.Atoi` on 64-bit platforms, for JSON patch's array indices: its acceptance
//! (an optional sign, then decimal digits, nothing else) and its error text.

/// The index `key` names, or Go's `strconv.Atoi` error text.
pub(super) fn atoi(key: &str) -> Result<i64, String> {
    let syntax = || format!("strconv.Atoi: parsing {}: invalid syntax", quote(key));
    let range = || format!("strconv.Atoi: parsing {}: value out of range", quote(key));
    let (negative, digits) = match key.as_bytes().first() {
        Some(b'-') => (true, &key[1..]),
        Some(b'+') => (false, &key[1..]),
        _ => (false, key),
    };
    if digits.is_empty() {
        return Err(syntax());
    }
    // ParseUint's scan: the first non-digit is a syntax error, unless the digits before it
    // already overflowed 64 bits, which is a range error.
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return Err(syntax());
        }
        n = match n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
        {
            Some(n) => n,
            None => return Err(range()),
        };
    }
    if negative {
        0i64.checked_sub_unsigned(n).ok_or_else(range)
    } else {
        i64::try_from(n).map_err(|_| range())
    }
}

/// Go's `strconv.Quote`.
fn quote(s: &str) -> String {
    smd_fieldpath::Value::from(s).to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn go_acceptance() {
        assert_eq!(atoi("0"), Ok(0));
        assert_eq!(atoi("+7"), Ok(7));
        assert_eq!(atoi("-007"), Ok(-7));
        assert_eq!(atoi("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(
            atoi("9223372036854775808").unwrap_err(),
            "strconv.Atoi: parsing \"9223372036854775808\": value out of range"
        );
        assert_eq!(
            atoi("99999999999999999999x").unwrap_err(),
            "strconv.Atoi: parsing \"99999999999999999999x\": value out of range"
        );
        assert_eq!(
            atoi("1x").unwrap_err(),
            "strconv.Atoi: parsing \"1x\": invalid syntax"
        );
        assert!(atoi("").is_err() && atoi("-").is_err() && atoi(" 1").is_err());
    }
}
