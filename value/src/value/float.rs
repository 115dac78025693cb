//! Go's text for a float64, in the two forms smd needs: `%v` (human text: paths, messages) and
//! json-iterator's `WriteFloat64` (fieldsV1 and `value.ToJSON`).
//!
//! Both are Go's `strconv` formats with precision -1, which means "the shortest decimal digits that
//! read back as the same float". Rust's `{:e}` prints exactly those digits (shortest round trip,
//! nearest to the exact value on ties, like Go's Ryū), so the digits are taken from Rust once and
//! then laid out the Go way: `'e'` with a signed exponent of at least two digits (`1e-07`), `'f'`
//! without an exponent, and `'g'` choosing between them. `tests/data/floats.txt`, written by Go,
//! pins the result for a few thousand values.

use std::fmt::{self, Write as _};

/// The longest text either form produces is 25 bytes (`-0.0000012345678901234567`); the longest
/// `{:e}` text Rust produces for an f64 is 24.
const CAP: usize = 32;

/// A short ASCII text on the stack.
#[derive(Clone, Copy)]
pub(crate) struct FloatText {
    buf: [u8; CAP],
    len: usize,
}

impl FloatText {
    fn new() -> Self {
        FloatText {
            buf: [0; CAP],
            len: 0,
        }
    }

    /// Appends a byte. No text reaches `CAP` (see there); a byte that would not
    /// fit is dropped rather than panicking.
    fn push(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push_all(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push(b);
        }
    }

    fn repeat(&mut self, b: u8, n: usize) {
        for _ in 0..n {
            self.push(b);
        }
    }

    /// The text as bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }

    /// The text. It is always ASCII.
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl fmt::Write for FloatText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.len + s.len() > CAP {
            return Err(fmt::Error);
        }
        self.push_all(s.as_bytes());
        Ok(())
    }
}

/// The shortest round-trip decimal form of a finite float: the value is
/// `0.d₁d₂…dₙ × 10^point`, negated when `negative`. Zero has no digits.
struct Decimal {
    digits: [u8; 17],
    len: usize,
    point: i32,
    negative: bool,
}

impl Decimal {
    fn of(f: f64) -> Decimal {
        let mut d = Decimal {
            digits: [0; 17],
            len: 0,
            point: 0,
            negative: f.is_sign_negative(),
        };
        if f == 0.0 {
            return d;
        }
        // `{:e}` of a positive finite float is `d[.ddd]e[-]x` with no trailing zeros in the
        // mantissa, at most 17 digits and a decimal exponent of at most three digits.
        let mut text = FloatText::new();
        if write!(text, "{:e}", f.abs()).is_err() {
            return d;
        }
        let mut exponent: i32 = 0;
        let mut exponent_negative = false;
        let mut in_exponent = false;
        for &b in text.as_bytes() {
            match b {
                b'0'..=b'9' if in_exponent => {
                    exponent = exponent * 10 + i32::from(b - b'0');
                }
                b'0'..=b'9' => {
                    if let Some(slot) = d.digits.get_mut(d.len) {
                        *slot = b;
                        d.len += 1;
                    }
                }
                b'e' => in_exponent = true,
                b'-' => exponent_negative = true,
                _ => {}
            }
        }
        if exponent_negative {
            exponent = -exponent;
        }
        d.point = exponent + 1;
        d.round_ties_to_even(f.abs());
        d
    }

    /// Go's shortest digits break an exact tie between two candidates (the float lies exactly
    /// half way between them) towards the even last digit; Rust's `{:e}` takes the upper one.
    /// Ties need 16 or 17 digits.
    fn round_ties_to_even(&mut self, f: f64) {
        let n = self.len;
        let Some(&last) = self.digits.get(n.wrapping_sub(1)) else {
            return;
        };
        if n < 16 || (last - b'0') % 2 == 0 {
            return;
        }
        // The candidate below, and the exact value written with one digit more.
        let mut lower = self.digits;
        lower[n - 1] = last - 1;
        let mut midpoint: Vec<u8> = lower[..n].to_vec();
        midpoint.push(b'5');
        let mantissa = |text: &str| -> Vec<u8> {
            let m = text.split('e').next().unwrap_or_default();
            let mut digits: Vec<u8> = m.bytes().filter(u8::is_ascii_digit).collect();
            while digits.len() > 1 && digits.last() == Some(&b'0') {
                digits.pop();
            }
            digits
        };
        if mantissa(&format!("{:.*e}", n, f)) != midpoint {
            return;
        }
        // Exactly half way only if no digit follows (767 digits hold any float exactly).
        if mantissa(&format!("{:.800e}", f)) == midpoint {
            self.digits = lower;
        }
    }

    fn digits(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or_default()
    }

    /// Go's `%e` layout with `len - 1` fraction digits: `d.ddde±XX`.
    fn write_e(&self, out: &mut FloatText) {
        if self.negative {
            out.push(b'-');
        }
        let digits = self.digits();
        match digits.split_first() {
            Some((first, rest)) => {
                out.push(*first);
                if !rest.is_empty() {
                    out.push(b'.');
                    out.push_all(rest);
                }
            }
            None => out.push(b'0'),
        }
        out.push(b'e');
        // Zero is written with exponent 0.
        let exponent = if digits.is_empty() { 0 } else { self.point - 1 };
        out.push(if exponent < 0 { b'-' } else { b'+' });
        let e = exponent.unsigned_abs();
        if e >= 100 {
            out.push(b'0' + (e / 100) as u8);
        }
        out.push(b'0' + (e / 10 % 10) as u8);
        out.push(b'0' + (e % 10) as u8);
    }

    /// Go's `%f` layout with just enough fraction digits for all the digits.
    fn write_f(&self, out: &mut FloatText) {
        if self.negative {
            out.push(b'-');
        }
        let digits = self.digits();
        let point = self.point;
        // Integer part: the digits before the point, padded with zeros; `0` when there are none.
        if point > 0 {
            let whole = point as usize;
            let shown = whole.min(digits.len());
            out.push_all(digits.get(..shown).unwrap_or_default());
            out.repeat(b'0', whole - shown);
        } else {
            out.push(b'0');
        }
        // Fraction: zeros between the point and the first digit, then the remaining digits.
        let fraction_len = (digits.len() as i32 - point).max(0) as usize;
        if fraction_len > 0 {
            out.push(b'.');
            let leading_zeros = (-point).max(0) as usize;
            out.repeat(b'0', leading_zeros);
            let from = point.max(0) as usize;
            out.push_all(digits.get(from..).unwrap_or_default());
        }
    }
}

/// Go's `fmt` `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`, plus `fmt`'s `+Inf`):
/// `1e+06`, `123456`, `1e-05`, `0.0001`, `-0`, `+Inf`, `-Inf`, `NaN`.
pub(crate) fn go_v(f: f64) -> FloatText {
    let mut out = FloatText::new();
    if f.is_nan() {
        out.push_all(b"NaN");
    } else if f.is_infinite() {
        out.push_all(if f > 0.0 { b"+Inf" } else { b"-Inf" });
    } else {
        let d = Decimal::of(f);
        // With the shortest digits Go picks `%e` when the decimal exponent is below -4 or at least 6
        // (zero counts as exponent -1).
        let exponent = d.point - 1;
        if !(-4..6).contains(&exponent) {
            d.write_e(&mut out);
        } else {
            d.write_f(&mut out);
        }
    }
    out
}

/// json-iterator's `WriteFloat64` text of a finite float: `'e'` form when `0 < |f| < 1e-6` or
/// `|f| >= 1e21`, otherwise `'f'`. `None` for NaN and infinities, which JSON cannot hold.
pub(crate) fn json(f: f64) -> Option<FloatText> {
    if !f.is_finite() {
        return None;
    }
    let mut out = FloatText::new();
    let d = Decimal::of(f);
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        d.write_e(&mut out);
    } else {
        d.write_f(&mut out);
    }
    Some(out)
}

/// What Go's `%f` prints for a float json-iterator refuses, as in its error message
/// (`unsupported value: NaN`).
pub(crate) fn unsupported_message(f: f64) -> String {
    format!("unsupported value: {}", go_v(f).as_str())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let cases: &[(f64, &str, &str)] = &[
            (0.0, "0", "0"),
            (-0.0, "-0", "-0"),
            (1e6, "1e+06", "1000000"),
            (1234567.0, "1.234567e+06", "1234567"),
            (123456.0, "123456", "123456"),
            (1e-5, "1e-05", "0.00001"),
            (1e-4, "0.0001", "0.0001"),
            (1e-7, "1e-07", "1e-07"),
            (1e21, "1e+21", "1e+21"),
            (1e20, "1e+20", "100000000000000000000"),
            (
                1.2345678901234568e17,
                "1.2345678901234568e+17",
                "123456789012345680",
            ),
            (1e-6, "1e-06", "0.000001"),
            (-1.5e-10, "-1.5e-10", "-1.5e-10"),
            (5e-324, "5e-324", "5e-324"),
            (
                1.7976931348623157e308,
                "1.7976931348623157e+308",
                "1.7976931348623157e+308",
            ),
        ];
        for &(f, v, j) in cases {
            assert_eq!(go_v(f).as_str(), v, "%v of {f:e}");
            assert_eq!(
                json(f).map(|t| t.as_str().to_owned()).as_deref(),
                Some(j),
                "json of {f:e}"
            );
        }
        assert_eq!(go_v(f64::NAN).as_str(), "NaN");
        assert_eq!(go_v(f64::INFINITY).as_str(), "+Inf");
        assert_eq!(go_v(f64::NEG_INFINITY).as_str(), "-Inf");
        assert!(json(f64::NAN).is_none());
        assert_eq!(
            unsupported_message(f64::NEG_INFINITY),
            "unsupported value: -Inf"
        );
    }
}
