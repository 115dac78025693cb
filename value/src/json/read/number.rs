//! Numbers as json-iterator reads and skips them.
//!
//! Reading (`ReadFloat64`) has a fast path for plain decimals that fit 53 bits with at most six
//! decimal places, taken only when the number ends inside the current buffer with `,`, `]`, `}`,
//! space, tab or newline (not carriage return). It divides an exact integer by an exact power of
//! ten, so it rounds correctly, like the slow path. The slow path collects every byte in
//! `+-.eE0-9`, checks a few things Go's `strconv.ParseFloat` would let through (`1.`, `1.e5`), and
//! parses with ParseFloat's grammar, including its quirks: a `+` after a minus sign is accepted
//! (`-+1`), and an exponent's digits stop counting past 10^4 or so.
//!
//! Skipping (`Skip`) is different: numbers starting with `0` are checked as float32, other
//! numbers with a quick in-buffer scan that only knows about dots, and when that scan cannot
//! decide, a float64 read whose failure is retried with math/big's parser from wherever the
//! failed read stopped. That makes `-.5e1` and `-01e1` skippable though not readable.

use super::Reader;

/// Which of json-iterator's two float readers runs; they differ in names and range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Width {
    F32,
    F64,
}

impl Width {
    fn fast_name(self) -> &'static str {
        match self {
            Width::F32 => "readFloat32",
            Width::F64 => "readFloat64",
        }
    }

    fn slow_name(self) -> &'static str {
        match self {
            Width::F32 => "readFloat32SlowPath",
            Width::F64 => "readFloat64SlowPath",
        }
    }
}

/// What a byte means to the fast path (json-iterator's `floatDigits` table).
enum Class {
    Digit(u64),
    Dot,
    End,
    Other,
}

fn class(byte: u8) -> Class {
    match byte {
        b'0'..=b'9' => Class::Digit(u64::from(byte - b'0')),
        b'.' => Class::Dot,
        b',' | b']' | b'}' | b' ' | b'\t' | b'\n' => Class::End,
        _ => Class::Other,
    }
}

/// The fast path stops multiplying by ten above this.
const SAFE_TO_MULTIPLY_10: u64 = u64::MAX / 10 - 1;
/// The float64 fast path divides only integers up to 2^53 - 1, which are exact.
const MAX_EXACT_INTEGER: u64 = (1 << 53) - 1;
/// Exact divisors for up to six decimal places.
const POW10: [f64; 7] = [1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6];

impl<'a> Reader<'a> {
    /// Go's `ReadFloat64`: a number, `0.0` on error (which is recorded).
    pub(crate) fn read_float64(&mut self) -> f64 {
        self.read_float(Width::F64)
    }

    /// Go's `ReadFloat32` as `Skip` uses it for a number starting with `0`: only its verdict
    /// matters, so the value is not kept.
    pub(super) fn check_float32(&mut self) {
        self.read_float(Width::F32);
    }

    fn read_float(&mut self, width: Width) -> f64 {
        if self.next_token() == b'-' {
            return -self.read_positive_float(width);
        }
        self.unread_byte();
        self.read_positive_float(width)
    }

    fn read_positive_float(&mut self, width: Width) -> f64 {
        let input = self.input;
        let end = self.tail;
        let mut at = self.head;
        let Some(&first) = input.get(at).filter(|_| at < end) else {
            return self.read_float_slow(width);
        };
        at += 1;
        let mut value = match class(first) {
            Class::Other => return self.read_float_slow(width),
            Class::End => return self.fast_error(width, "empty number"),
            Class::Dot => return self.fast_error(width, "leading dot is invalid"),
            Class::Digit(0) => {
                if at == end {
                    return self.read_float_slow(width);
                }
                if input[at].is_ascii_digit() {
                    return self.fast_error(width, "leading zero is invalid");
                }
                0
            }
            Class::Digit(d) => d,
        };
        let mut last = first;
        // The integer part.
        while at < end {
            last = input[at];
            match class(last) {
                Class::Other => return self.read_float_slow(width),
                Class::End => {
                    self.head = at;
                    return value as f64;
                }
                Class::Dot => break,
                Class::Digit(d) => {
                    if value > SAFE_TO_MULTIPLY_10 {
                        return self.read_float_slow(width);
                    }
                    value = value * 10 + d;
                }
            }
            at += 1;
        }
        if last != b'.' {
            return self.read_float_slow(width);
        }
        // The decimal places.
        at += 1;
        let mut places = 0;
        while at < end {
            match class(input[at]) {
                Class::End => {
                    if places > 0 && places < POW10.len() {
                        self.head = at;
                        return value as f64 / POW10[places];
                    }
                    return self.read_float_slow(width);
                }
                Class::Other | Class::Dot => return self.read_float_slow(width),
                Class::Digit(d) => {
                    places += 1;
                    if value > SAFE_TO_MULTIPLY_10 {
                        return self.read_float_slow(width);
                    }
                    value = value * 10 + d;
                    if width == Width::F64 && value > MAX_EXACT_INTEGER {
                        return self.read_float_slow(width);
                    }
                }
            }
            at += 1;
        }
        self.read_float_slow(width)
    }

    fn fast_error(&mut self, width: Width, message: &str) -> f64 {
        self.report_error(width.fast_name(), message);
        0.0
    }

    /// Go's `readFloat64SlowPath`/`readFloat32SlowPath`.
    fn read_float_slow(&mut self, width: Width) -> f64 {
        let text = self.read_number_text();
        if self.failed() {
            return 0.0;
        }
        if let Some(message) = refuse_float(text) {
            self.report_error(width.slow_name(), message);
            return 0.0;
        }
        match parse_float(text, width) {
            Ok(value) => value,
            Err(message) => {
                self.assign_error(message);
                0.0
            }
        }
    }

    /// Go's `readNumberAsString`: every following byte in `+-.eE0-9`, across buffer refills.
    /// Nothing at all is reported as `invalid number`.
    fn read_number_text(&mut self) -> &'a [u8] {
        let input = self.input;
        let start = self.head;
        let stop = loop {
            let window = &input[self.head..self.tail];
            if let Some(at) = window.iter().position(|&b| !is_number_byte(b)) {
                self.head += at;
                break self.head;
            }
            let scanned = self.tail;
            if !self.load_more() {
                break scanned;
            }
        };
        if !self.failed() && stop == start {
            self.report_error("readNumberAsString", "invalid number");
        }
        &input[start..stop]
    }

    /// Go's `skipNumber` (the default, strict build of json-iterator; the `jsoniter_sloppy`
    /// build tag would swap in a version that checks nothing).
    pub(super) fn skip_number(&mut self) {
        if self.try_skip_number() {
            return;
        }
        self.unread_byte();
        if self.failed() {
            return;
        }
        self.read_float64();
        if self.failed() {
            // Go clears the error and gives math/big a try from where the float read stopped.
            self.state = super::State::Clean;
            self.check_big_float();
        }
    }

    /// Go's `trySkipNumber`: `true` when it settled the matter (skipped, or reported an error).
    fn try_skip_number(&mut self) -> bool {
        let input = self.input;
        let mut dot_found = false;
        for at in self.head..self.tail {
            match input[at] {
                b'0'..=b'9' => {}
                b'.' => {
                    if dot_found {
                        self.report_error("validateNumber", "more than one dot found in number");
                        return true;
                    }
                    if at + 1 == self.tail {
                        return false;
                    }
                    if !input[at + 1].is_ascii_digit() {
                        self.report_error("validateNumber", "missing digit after dot");
                        return true;
                    }
                    dot_found = true;
                }
                b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' => {
                    if at == self.head {
                        // A lone minus sign: let the float reader say what is wrong.
                        return false;
                    }
                    self.head = at;
                    return true;
                }
                _ => return false,
            }
        }
        false
    }

    /// Go's `ReadBigFloat` as `skipNumber` uses it: only whether math/big accepts the text.
    fn check_big_float(&mut self) {
        let text = self.read_number_text();
        if self.failed() {
            return;
        }
        if let Err(message) = big_float_verdict(text) {
            self.assign_error(message);
        }
    }
}

fn is_number_byte(byte: u8) -> bool {
    matches!(byte, b'+' | b'-' | b'.' | b'e' | b'E' | b'0'..=b'9')
}

/// json-iterator's `validateFloat`: what it refuses before handing text to `ParseFloat`.
fn refuse_float(text: &[u8]) -> Option<&'static str> {
    let first = *text.first()?;
    if first == b'-' {
        return Some("-- is not valid");
    }
    if let Some(dot) = text.iter().position(|&b| b == b'.') {
        match text.get(dot + 1) {
            None => return Some("dot can not be last character"),
            Some(b) if !b.is_ascii_digit() => return Some("missing digit after dot"),
            Some(_) => {}
        }
    }
    None
}

/// A decimal number as Go's `strconv` scanner sees it: `0.<digits> × 10^point`, with leading
/// zeros dropped from `digits`.
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    point: i64,
    /// How many of `digits` stand before the decimal point.
    integer_digits: usize,
}

/// Go's decimal fallback keeps this many digits, and misplaces the point after more (below).
const GO_DECIMAL_DIGITS: usize = 800;

/// Go's `strconv.ParseFloat(text, 32|64)` for text made of `+-.eE0-9`, with its error text.
fn parse_float(text: &[u8], width: Width) -> Result<f64, String> {
    let error = |reason: &str| {
        let quoted = String::from_utf8_lossy(text);
        format!("strconv.ParseFloat: parsing \"{quoted}\": {reason}")
    };
    let Some(decimal) = scan_decimal(text) else {
        return Err(error("invalid syntax"));
    };
    let value = decimal.to_float(width);
    if value.is_infinite() {
        return Err(error("value out of range"));
    }
    Ok(value)
}

/// Go's `readFloat` (decimal only: hex needs an `x` that json-iterator never collects). `None`
/// is a syntax error, including text left over after the number.
fn scan_decimal(text: &[u8]) -> Option<Decimal> {
    let mut at = 0;
    let negative = text.first() == Some(&b'-');
    if matches!(text.first(), Some(b'+' | b'-')) {
        at += 1;
    }
    let mut digits = Vec::new();
    let mut integer_digits = None;
    let mut saw_digits = false;
    let mut point: i64 = 0;
    while let Some(&byte) = text.get(at) {
        match byte {
            b'.' if integer_digits.is_none() => {
                integer_digits = Some(digits.len());
                point = digits.len() as i64;
            }
            b'0' if digits.is_empty() => {
                // Leading zeros only move the point.
                saw_digits = true;
                point -= 1;
            }
            b'0'..=b'9' => {
                saw_digits = true;
                digits.push(byte);
            }
            _ => break,
        }
        at += 1;
    }
    if !saw_digits {
        return None;
    }
    let integer_digits = integer_digits.unwrap_or_else(|| {
        point = digits.len() as i64;
        digits.len()
    });
    if matches!(text.get(at), Some(b'e' | b'E')) {
        at += 1;
        let sign = match text.get(at) {
            Some(b'+') => {
                at += 1;
                1
            }
            Some(b'-') => {
                at += 1;
                -1
            }
            _ => 1,
        };
        if !text.get(at).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        // Go stops accumulating once the exponent reaches 10^4: far enough to over- or
        // underflow any number short enough to matter, and immune to overflow.
        let mut exponent: i64 = 0;
        while let Some(&byte) = text.get(at).filter(|b| b.is_ascii_digit()) {
            if exponent < 10_000 {
                exponent = exponent * 10 + i64::from(byte - b'0');
            }
            at += 1;
        }
        point += sign * exponent;
    }
    if at != text.len() {
        return None;
    }
    Some(Decimal {
        negative,
        digits,
        point,
        integer_digits,
    })
}

impl Decimal {
    /// What Go's ParseFloat computes: the correctly rounded value (infinite when out of range),
    /// except in the one case where Go's fallback misreads the number (see
    /// [`Decimal::go_misreads`]).
    fn to_float(&self, width: Width) -> f64 {
        let magnitude = if self.go_misreads(width) {
            self.misread_magnitude(width)
        } else {
            magnitude(&self.digits, false, self.point, width)
        };
        if self.negative { -magnitude } else { magnitude }
    }

    /// Go first tries its fast algorithms on the leading 19 digits; when they cannot decide it
    /// falls back to a decimal of at most 800 digits, which puts the decimal point after the
    /// 800th digit when more stand before it. So a number with over 800 integer digits reads
    /// wrong (typically as 0 or far too small) exactly when the fast algorithm (Eisel-Lemire)
    /// gives up: a result that is subnormal or out of range, or truncated digits that leave
    /// the rounding open. (Its other, rarer give-ups on near-ties are not modelled.)
    fn go_misreads(&self, width: Width) -> bool {
        if self.integer_digits <= GO_DECIMAL_DIGITS {
            return false;
        }
        let taken = self.digits.len().min(19);
        let leading = self.digits[..taken]
            .iter()
            .fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0'));
        let truncated = self.digits[taken..].iter().any(|&d| d != b'0');
        let exponent = self.point - taken as i64;
        if !(-348..=347).contains(&exponent) {
            return true;
        }
        let normal = |mantissa: u64| {
            let text = format!("{mantissa}e{exponent}");
            match width {
                Width::F64 => text.parse::<f64>().ok().filter(|v| v.is_normal()),
                Width::F32 => text
                    .parse::<f32>()
                    .ok()
                    .filter(|v| v.is_normal())
                    .map(f64::from),
            }
        };
        let Some(value) = normal(leading) else {
            return true;
        };
        truncated && normal(leading + 1) != Some(value)
    }

    /// Go's decimal fallback: the first 800 digits (and whether any non-zero one was dropped),
    /// with the point counted as if no integer digit came after the 800th.
    fn misread_magnitude(&self, width: Width) -> f64 {
        let kept = &self.digits[..GO_DECIMAL_DIGITS];
        let dropped = self.digits[GO_DECIMAL_DIGITS..].iter().any(|&d| d != b'0');
        let lost = (self.integer_digits - GO_DECIMAL_DIGITS) as i64;
        magnitude(kept, dropped, self.point - lost, width)
    }
}

/// The correctly rounded value of `0.<digits>… × 10^point`, where `more` says that non-zero
/// digits follow (which only matters to break a tie).
fn magnitude(digits: &[u8], more: bool, point: i64, width: Width) -> f64 {
    if digits.iter().all(|&d| d == b'0') {
        return 0.0;
    }
    // 0.d… × 10^point is at least 10^(point-1) and below 10^point.
    let (overflow, underflow) = match width {
        Width::F64 => (310, -330),
        Width::F32 => (40, -50),
    };
    if point > overflow {
        return f64::INFINITY;
    }
    if point < underflow {
        return 0.0;
    }
    // Rust's parser rounds correctly too; handed a small exponent, it sees the same number.
    let mut text = String::with_capacity(digits.len() + 10);
    text.push_str("0.");
    text.extend(digits.iter().map(|&d| char::from(d)));
    if more {
        text.push('1');
    }
    text.push('e');
    text.push_str(&point.to_string());
    let parsed = match width {
        Width::F64 => text.parse::<f64>(),
        Width::F32 => text.parse::<f32>().map(f64::from),
    };
    parsed.unwrap_or(f64::NAN)
}

/// Whether math/big's `ParseFloat(text, 10, …)` accepts the text, with its error text if not.
/// The value is never needed: `Skip` only wants the verdict.
fn big_float_verdict(text: &[u8]) -> Result<(), String> {
    if text.is_empty() {
        return Err("EOF".to_owned());
    }
    let mut at = usize::from(matches!(text[0], b'+' | b'-'));
    // The mantissa: digits with at most one dot.
    let mut digits = 0i64;
    let mut dot: Option<i64> = None;
    let mantissa_start = at;
    while let Some(&byte) = text.get(at) {
        match byte {
            b'.' if dot.is_none() => dot = Some(digits),
            b'0'..=b'9' => digits += 1,
            _ => break,
        }
        at += 1;
    }
    if digits == 0 {
        return Err("number has no digits".to_owned());
    }
    let fraction_digits = dot.map_or(0, |d| digits - d);
    let mantissa = &text[mantissa_start..at];
    // The exponent.
    let mut exponent: i64 = 0;
    if matches!(text.get(at), Some(b'e' | b'E')) {
        at += 1;
        let mut exponent_text = String::new();
        if let Some(&sign @ (b'+' | b'-')) = text.get(at) {
            if sign == b'-' {
                exponent_text.push('-');
            }
            at += 1;
        }
        let digits_start = at;
        while text.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        if at == digits_start {
            return Err("number has no digits".to_owned());
        }
        exponent_text.push_str(&String::from_utf8_lossy(&text[digits_start..at]));
        exponent = exponent_text.parse().map_err(|_| {
            format!("strconv.ParseInt: parsing \"{exponent_text}\": value out of range")
        })?;
    }
    if mantissa.iter().any(|&b| matches!(b, b'1'..=b'9')) {
        // math/big keeps the binary exponent in an int32.
        let binary =
            i128::from(bit_length(mantissa)) - i128::from(fraction_digits) + i128::from(exponent);
        if binary < i128::from(i32::MIN) || binary > i128::from(i32::MAX) {
            return Err("exponent overflow".to_owned());
        }
    }
    match text.get(at) {
        Some(&byte) => Err(format!(
            "expected end of string, found '{}'",
            char::from(byte)
        )),
        None => Ok(()),
    }
}

/// The number of bits of the integer written by the decimal digits (a dot is ignored).
fn bit_length(mantissa: &[u8]) -> i64 {
    let digits: Vec<u8> = mantissa
        .iter()
        .filter(|b| b.is_ascii_digit())
        .map(|b| b - b'0')
        .skip_while(|&d| d == 0)
        .collect();
    // Exact up to a size where schoolbook conversion is still cheap; beyond that only a number
    // built to land within one bit of math/big's int32 limit could tell the estimate apart.
    if digits.len() > 20_000 {
        return estimated_bit_length(&digits);
    }
    let mut limbs: Vec<u64> = Vec::new();
    for chunk in digits.chunks(19) {
        let (scale, add) = chunk.iter().fold((1u64, 0u64), |(scale, add), &d| {
            (scale * 10, add * 10 + u64::from(d))
        });
        let mut carry = u128::from(add);
        for limb in &mut limbs {
            let product = u128::from(*limb) * u128::from(scale) + carry;
            *limb = product as u64;
            carry = product >> 64;
        }
        if carry != 0 {
            limbs.push(carry as u64);
        }
    }
    match limbs.last() {
        Some(&top) => 64 * (limbs.len() as i64 - 1) + i64::from(64 - top.leading_zeros()),
        None => 0,
    }
}

fn estimated_bit_length(digits: &[u8]) -> i64 {
    let leading = digits
        .iter()
        .take(17)
        .fold(0.0f64, |acc, &d| acc * 10.0 + f64::from(d));
    let rest = (digits.len() - digits.len().min(17)) as f64;
    (leading.log2() + rest * std::f64::consts::LOG2_10).floor() as i64 + 1
}
