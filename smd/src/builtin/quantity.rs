//! `resource.Quantity` as `k8s.io/apimachinery` v0.37.2 reads and writes it: the text a quantity
//! is stored and returned as after `ParseQuantity` and `MarshalJSON` (`1000m` → `1`,
//! `1.5Gi` → `1536Mi`, `0.5` → `500m`, a canonical text kept as written).
//!
//! Go keeps small values in an int64 and the rest in an arbitrary-precision decimal; both give
//! the same text for the same value, so smd keeps one exact decimal (digits and a scale) and
//! follows Go's int32 arithmetic on exponents where it wraps. Where Go would build a power of
//! ten as large as the exponent (rounding `1e999999999`-sized values), smd keeps the value
//! symbolic: the text is the same, the time is bounded.

/// Why a quantity's text is refused, in Go's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    /// `ErrFormatWrong`.
    #[error(
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
    )]
    FormatWrong,
    /// `ErrNumeric`.
    #[error("unable to parse numeric part of quantity")]
    Numeric,
    /// `ErrSuffix`.
    #[error("unable to parse quantity's suffix")]
    Suffix,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    DecimalExponent,
    BinarySI,
    DecimalSI,
}

/// An exact decimal: `digits` (most significant first, no leading zeros, empty for zero)
/// times ten to the power of minus `scale`.
#[derive(Debug, Clone)]
struct Dec {
    negative: bool,
    digits: Vec<u8>,
    scale: i32,
}

/// The text `MarshalJSON` writes for the quantity `ParseQuantity(text)` reads.
pub fn canonical(text: &str) -> Result<String, QuantityError> {
    let p = parse(text)?;
    if let Some(s) = p.cached {
        return Ok(s.to_owned());
    }
    Ok(write(p.dec, p.format))
}

/// How Go holds a parsed quantity, which its arithmetic and conversions read: an `int64Amount`
/// (small values) or an `inf.Dec`. The value is `unscaled × 10^-scale` either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GoAmount {
    /// `int64Amount{value, scale}`: the value is `value × 10^exponent`.
    Int64 { value: i64, exponent: i32 },
    /// `inf.Dec`: the unscaled magnitude's decimal digits (none for zero), then `zeros` more
    /// zeros (Go rounds to nine decimals by scaling up, which smd keeps symbolic), and the scale.
    Dec {
        negative: bool,
        digits: Vec<u8>,
        zeros: u64,
        scale: i32,
    },
}

/// `ParseQuantity`'s result as Go holds it (see [`GoAmount`]).
pub(crate) fn go_amount(text: &str) -> Result<GoAmount, QuantityError> {
    let p = parse(text)?;
    if p.int64 {
        let mut value: i64 = 0;
        for &d in &p.dec.digits {
            value = value * 10 + i64::from(d);
        }
        if p.dec.negative {
            value = -value;
        }
        return Ok(GoAmount::Int64 {
            value,
            exponent: p.dec.scale.wrapping_neg(),
        });
    }
    Ok(GoAmount::Dec {
        negative: p.dec.negative,
        digits: p.dec.digits,
        zeros: p.zeros,
        scale: p
            .dec
            .scale
            .wrapping_add(i32::try_from(p.zeros).unwrap_or(i32::MAX)),
    })
}

/// Whether two quantity texts hold the same value (`Quantity.Cmp` is 0: `1Gi` and
/// `1073741824`, `1` and `1000m`); a text that does not parse holds none.
pub fn same_value(a: &str, b: &str) -> bool {
    match (value_of(a), value_of(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Whether a quantity text is zero (`Quantity.IsZero`; a text that does not parse is not).
pub fn is_zero(text: &str) -> bool {
    value_of(text).is_some_and(|(_, digits, _)| digits.is_empty())
}

/// `Quantity.Cmp`: how the value of `a` orders against that of `b` (`1Gi` above `1G`);
/// `None` when either text does not parse.
pub fn compare(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    let (an, ad, ascale) = value_of(a)?;
    let (bn, bd, bscale) = value_of(b)?;
    let sign = |negative: bool, digits: &[u8]| match (digits.is_empty(), negative) {
        (true, _) => 0,
        (false, true) => -1,
        (false, false) => 1,
    };
    let (sa, sb) = (sign(an, &ad), sign(bn, &bd));
    if sa != sb || sa == 0 {
        return Some(sa.cmp(&sb));
    }
    // Same sign, both non-zero: the place of the leading digit first, then the digits (no
    // trailing zeros, so a shorter prefix is the smaller magnitude).
    let place =
        |d: &[u8], scale: i32| i64::try_from(d.len()).unwrap_or(i64::MAX) - i64::from(scale);
    let magnitude = place(&ad, ascale)
        .cmp(&place(&bd, bscale))
        .then_with(|| ad.cmp(&bd));
    Some(if sa < 0 {
        magnitude.reverse()
    } else {
        magnitude
    })
}

/// `Quantity.Value()`: the value rounded to an integer away from zero (`-500m` is -1, as
/// Go's `AsScale` rounds), saturating at the int64 range; `None` when the text does not
/// parse.
pub fn value(text: &str) -> Option<i64> {
    scaled_value(text, 0)
}

/// `Quantity.MilliValue()`: the value in thousandths, rounded as [`value`] rounds.
pub fn milli_value(text: &str) -> Option<i64> {
    scaled_value(text, 3)
}

/// The value times ten to the power of `shift`, rounded to an integer away from zero.
fn scaled_value(text: &str, shift: i32) -> Option<i64> {
    let (negative, digits, scale) = value_of(text)?;
    let scale = scale.saturating_sub(shift);
    let place = i64::try_from(digits.len()).unwrap_or(i64::MAX) - i64::from(scale);
    let whole_len = usize::try_from(place.max(0)).unwrap_or(usize::MAX);
    let mut whole: i128 = 0;
    for (i, d) in digits
        .iter()
        .chain(std::iter::repeat(&0))
        .take(whole_len)
        .enumerate()
    {
        if i >= 20 {
            whole = i128::from(i64::MAX) + 1;
            break;
        }
        whole = whole * 10 + i128::from(*d);
    }
    let fraction = digits.len() > whole_len;
    let magnitude = whole + i128::from(fraction);
    let v = if negative { -magnitude } else { magnitude };
    Some(i64::try_from(v).unwrap_or(if negative { i64::MIN } else { i64::MAX }))
}

/// A quantity's value in one form per value: sign, digits with no trailing zeros, scale.
fn value_of(text: &str) -> Option<(bool, Vec<u8>, i32)> {
    let dec = parse(text).ok()?.dec;
    let mut digits = dec.digits;
    let mut scale = dec.scale;
    while digits.last() == Some(&0) {
        digits.pop();
        scale = scale.wrapping_sub(1);
    }
    if digits.is_empty() {
        return Some((false, digits, 0));
    }
    Some((dec.negative, digits, scale))
}

struct Parts<'a> {
    positive: bool,
    value: &'a str,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

/// `parseQuantityString`: sign, numerator (leading zeros dropped), denominator, suffix.
fn split(s: &str) -> Result<Parts<'_>, QuantityError> {
    let b = s.as_bytes();
    let end = b.len();
    let mut p = Parts {
        positive: true,
        value: "",
        num: "",
        denom: "",
        suffix: "",
    };
    let mut pos = 0;
    match b.first() {
        Some(b'-') => {
            p.positive = false;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    while b.get(pos) == Some(&b'0') {
        pos += 1;
    }
    if pos >= end {
        p.num = "0";
        p.value = "0";
        return Ok(p);
    }
    let start = pos;
    while b.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    if pos >= end {
        p.num = s.get(start..).unwrap_or("");
        p.value = s;
        return Ok(p);
    }
    p.num = s.get(start..pos).unwrap_or("");
    if p.num.is_empty() {
        p.num = "0";
    }
    if b.get(pos) == Some(&b'.') {
        pos += 1;
        let start = pos;
        while b.get(pos).is_some_and(u8::is_ascii_digit) {
            pos += 1;
        }
        if pos >= end {
            p.denom = s.get(start..).unwrap_or("");
            p.value = s;
            return Ok(p);
        }
        p.denom = s.get(start..pos).unwrap_or("");
    }
    p.value = s.get(..pos).unwrap_or("");
    let suffix_start = pos;
    while b.get(pos).is_some_and(|c| b"eEinumkKMGTP".contains(c)) {
        pos += 1;
    }
    if pos < end && matches!(b.get(pos), Some(b'-' | b'+')) {
        pos += 1;
    }
    while b.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    if pos >= end {
        p.suffix = s.get(suffix_start..).unwrap_or("");
        return Ok(p);
    }
    Err(QuantityError::FormatWrong)
}

/// The suffixer's `interpret`: base, exponent, format.
fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    let dec = |e| Some((10, e, Format::DecimalSI));
    let bin = |e| Some((2, e, Format::BinarySI));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        _ => {
            let rest = suffix
                .strip_prefix('e')
                .or_else(|| suffix.strip_prefix('E'))?;
            if rest.is_empty() {
                return None;
            }
            let parsed = go_parse_int(rest)?;
            // Go converts with int32(parsed): the low 32 bits.
            Some((10, parsed as i32, Format::DecimalExponent))
        }
    }
}

/// `strconv.ParseInt(s, 10, 64)`.
fn go_parse_int(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let magnitude: u64 = digits.parse().ok()?;
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}

struct Parsed<'a> {
    dec: Dec,
    format: Format,
    /// The text Go keeps when it is already canonical.
    cached: Option<&'a str>,
    /// Go holds the value in an `int64Amount` (else an `inf.Dec`).
    int64: bool,
    /// For an `inf.Dec`: the zeros Go's rounding to nine decimals appends to the digits.
    zeros: u64,
}

/// `ParseQuantity` (after `UnmarshalJSON`'s trimming): the value, its format, and the text
/// Go keeps when it is already canonical.
fn parse(s: &str) -> Result<Parsed<'_>, QuantityError> {
    if s.is_empty() {
        return Err(QuantityError::FormatWrong);
    }
    if s == "0" {
        return Ok(Parsed {
            dec: Dec::zero(),
            format: Format::DecimalSI,
            cached: Some(s),
            int64: true,
            zeros: 0,
        });
    }
    let p = split(s)?;
    let (base, exponent, mut format) = interpret(p.suffix).ok_or(QuantityError::Suffix)?;
    let digits_len = i32::try_from(p.num.len() + p.denom.len()).unwrap_or(i32::MAX);
    let denom_len = i32::try_from(p.denom.len()).unwrap_or(i32::MAX);
    let (mut scale, precision, mantissa): (i32, i32, i64) = match format {
        Format::DecimalExponent | Format::DecimalSI => (exponent, 18 - digits_len, 1),
        Format::BinarySI if exponent >= 0 && p.denom.is_empty() => {
            let num_len = i32::try_from(p.num.len()).unwrap_or(i32::MAX);
            // Go: int32(float32(exponent)*3/10); the suffix exponents are multiples of ten.
            let approx = exponent * 3 / 10;
            (0, 15 - num_len - approx - 1, 1i64 << exponent.clamp(0, 62))
        }
        Format::BinarySI => (0, -1, 1),
    };
    if precision >= 0 {
        scale = scale.wrapping_sub(denom_len);
        if scale >= -9 {
            let shifted = format!("{}{}", p.num, p.denom);
            let value: i64 = shifted.parse().map_err(|_| QuantityError::Numeric)?;
            if let Some(result) = value.checked_mul(mantissa) {
                let result = if p.positive { result } else { -result };
                let keep = match format {
                    Format::BinarySI => exponent % 10 == 0 && value & 0x07 != 0,
                    _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
                };
                // Go's int64Amount scale is an exponent; a `Dec`'s is inf's (its negation).
                let dec = Dec::from_i64(result, scale.wrapping_neg());
                return Ok(Parsed {
                    dec,
                    format,
                    cached: keep.then_some(s),
                    int64: true,
                    zeros: 0,
                });
            }
        }
    }

    let mut amount = Dec::parse(p.value).ok_or(QuantityError::Numeric)?;
    if base == 10 {
        amount.scale = amount.scale.wrapping_add(exponent.wrapping_neg());
    } else {
        for _ in 0..exponent.clamp(0, 64) {
            amount.double();
        }
    }
    let negative = amount.negative && !amount.is_zero();
    amount.negative = false;
    let mut zeros = 0;
    if !amount.is_zero() {
        // Go rounds to exactly nine decimals: fewer are scaled up with zeros.
        zeros = u64::try_from(9 - i64::from(amount.scale)).unwrap_or(0);
        amount.round_up_to_scale(9);
    }
    if format == Format::BinarySI {
        if amount.exceeds_i64_max() {
            amount = Dec::from_i64(i64::MAX, 0);
            zeros = 0;
        }
        if !amount.is_zero() && amount.less_than_one() {
            format = Format::DecimalSI;
        }
    }
    amount.negative = negative;
    Ok(Parsed {
        dec: amount,
        format,
        cached: None,
        int64: false,
        zeros,
    })
}

/// `CanonicalizeBytes` with its suffix.
fn write(q: Dec, format: Format) -> String {
    if q.is_zero() {
        return "0".to_owned();
    }
    if format == Format::BinarySI {
        if let Some(n) = q.to_binary_integer() {
            let mut n = n;
            let mut exponent = 0;
            while n.unsigned_abs() >= 1024 && n % 1024 == 0 {
                n /= 1024;
                exponent += 1;
            }
            let suffix = match exponent {
                1 => "Ki",
                2 => "Mi",
                3 => "Gi",
                4 => "Ti",
                5 => "Pi",
                6 => "Ei",
                _ => "",
            };
            return format!("{n}{suffix}");
        }
        return write(q, Format::DecimalSI);
    }
    let mut digits = q.digits;
    let mut exponent = q.scale.wrapping_neg();
    let zeros = digits.iter().rev().take_while(|&&d| d == 0).count();
    digits.truncate(digits.len() - zeros);
    exponent = exponent.wrapping_add(i32::try_from(zeros).unwrap_or(i32::MAX));
    while exponent % 3 != 0 {
        digits.push(0);
        exponent = exponent.wrapping_sub(1);
    }
    let mut out = String::with_capacity(digits.len() + 8);
    if q.negative {
        out.push('-');
    }
    out.extend(digits.iter().map(|d| char::from(b'0' + d)));
    match format {
        Format::DecimalSI => out.push_str(match exponent {
            -9 => "n",
            -6 => "u",
            -3 => "m",
            3 => "k",
            6 => "M",
            9 => "G",
            12 => "T",
            15 => "P",
            18 => "E",
            // 0, and exponents with no SI suffix (Go writes none either).
            _ => "",
        }),
        _ if exponent != 0 => {
            out.push('e');
            out.push_str(&exponent.to_string());
        }
        _ => {}
    }
    out
}

impl Dec {
    fn zero() -> Dec {
        Dec {
            negative: false,
            digits: Vec::new(),
            scale: 0,
        }
    }

    fn from_i64(v: i64, scale: i32) -> Dec {
        let digits: Vec<u8> = if v == 0 {
            Vec::new()
        } else {
            v.unsigned_abs()
                .to_string()
                .bytes()
                .map(|c| c - b'0')
                .collect()
        };
        Dec {
            negative: v < 0,
            digits,
            scale,
        }
    }

    /// inf.Dec's `SetString` for the numeric part: a sign first, digits, one point.
    fn parse(s: &str) -> Option<Dec> {
        let mut negative = false;
        let mut digits = Vec::with_capacity(s.len());
        let mut point: Option<usize> = None;
        let mut any_digit = false;
        for (i, c) in s.bytes().enumerate() {
            match c {
                b'+' | b'-' if i == 0 => negative = c == b'-',
                b'.' if point.is_none() => point = Some(digits.len()),
                b'0'..=b'9' => {
                    any_digit = true;
                    digits.push(c - b'0');
                }
                _ => return None,
            }
        }
        if !any_digit {
            return None;
        }
        let scale = point.map_or(0, |p| digits.len() - p);
        let lead = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..lead);
        Some(Dec {
            negative,
            digits,
            scale: i32::try_from(scale).unwrap_or(i32::MAX),
        })
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    fn double(&mut self) {
        let mut carry = 0;
        for d in self.digits.iter_mut().rev() {
            let v = *d * 2 + carry;
            *d = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            self.digits.insert(0, carry);
        }
    }

    /// inf's `Round(x, s, RoundUp)` (away from zero) where it changes the value.
    fn round_up_to_scale(&mut self, s: i32) {
        if self.scale <= s {
            return;
        }
        let drop = usize::try_from(i64::from(self.scale) - i64::from(s)).unwrap_or(usize::MAX);
        let keep = self.digits.len().saturating_sub(drop);
        let inexact = self
            .digits
            .get(keep..)
            .is_some_and(|r| r.iter().any(|&d| d != 0));
        self.digits.truncate(keep);
        self.scale = s;
        if inexact {
            let mut i = self.digits.len();
            loop {
                if i == 0 {
                    self.digits.insert(0, 1);
                    break;
                }
                i -= 1;
                if let Some(d) = self.digits.get_mut(i) {
                    if *d == 9 {
                        *d = 0;
                    } else {
                        *d += 1;
                        break;
                    }
                }
            }
        }
        let lead = self.digits.iter().take_while(|&&d| d == 0).count();
        self.digits.drain(..lead);
    }

    /// Digits before the point (the scale is at most 9 and at least 0 here, or the value is
    /// an integer with trailing zeros implied).
    fn integer_digits(&self) -> i64 {
        i64::try_from(self.digits.len()).unwrap_or(i64::MAX) - i64::from(self.scale)
    }

    /// The magnitude in units of 10^-9, if it fits.
    fn nanos(&self) -> Option<u128> {
        if self.integer_digits() > 30 {
            return None;
        }
        let mut n: u128 = 0;
        for &d in &self.digits {
            n = n.checked_mul(10)?.checked_add(u128::from(d))?;
        }
        let shift = 9 - i64::from(self.scale);
        if shift >= 0 {
            for _ in 0..shift {
                n = n.checked_mul(10)?;
            }
        } else {
            for _ in 0..(-shift).min(40) {
                n /= 10;
            }
        }
        Some(n)
    }

    fn exceeds_i64_max(&self) -> bool {
        if self.integer_digits() > 19 {
            return true;
        }
        let cap = u128::from(i64::MAX.unsigned_abs()) * 1_000_000_000;
        // Beyond nine decimals a value equal to the cap in nanos is larger still.
        match self.nanos() {
            Some(n) => n > cap || (n == cap && self.scale > 9),
            None => true,
        }
    }

    fn less_than_one(&self) -> bool {
        self.integer_digits() <= 0
    }

    /// For the binary format: the value rounded up (away from zero) to an integer, if that is
    /// exact and the magnitude is at least 1024; otherwise Go writes it in DecimalSI.
    fn to_binary_integer(&self) -> Option<i128> {
        let nanos = self.nanos()?;
        if nanos % 1_000_000_000 != 0 {
            return None;
        }
        let magnitude = i128::try_from(nanos / 1_000_000_000).ok()?;
        if magnitude < 1024 {
            return None;
        }
        Some(if self.negative { -magnitude } else { magnitude })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_compared_across_forms() {
        assert!(same_value("1Gi", "1073741824"));
        assert!(same_value("1", "1000m"));
        assert!(same_value("1024Mi", "1Gi"));
        assert!(!same_value("1", "1001m"));
        assert!(same_value("0", "0m"));
        assert!(!same_value("x", "x"));
        assert!(is_zero("0Mi"));
        assert!(!is_zero("1m"));
    }
}
