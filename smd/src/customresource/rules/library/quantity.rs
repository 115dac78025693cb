//! Kubernetes' `library.Quantity`: `quantity(string)`, `isQuantity`, `sign`, `isInteger`,
//! `asInteger`, `asApproximateFloat`, `add`/`sub` (a quantity or an int), `isGreaterThan`,
//! `isLessThan`, `compareTo` and equality, over `resource.Quantity` as apimachinery v0.37.2
//! holds it.
//!
//! What CEL can see of a quantity depends on Go's representation, not only on its value:
//! `isInteger` is true only for an `int64Amount` with a non-negative exponent (`1000m` is not
//! an integer, `1k` is), and `asApproximateFloat` multiplies the unscaled integer by
//! `math.Pow10` of the exponent (`0.3` is `3 × 10^-1` = 0.30000000000000004, `300m` is 0.3).
//! So values keep Go's form: the parser's (`builtin::quantity::go_amount`), then Go's
//! arithmetic, which stays in int64 while it can and otherwise moves to an exact decimal at
//! the larger scale. Go's `Cmp` also converts its receiver to the decimal form when either side
//! is one; a value remembers that, as later `isInteger` calls see it.

use crate::builtin::quantity::{GoAmount, QuantityError, go_amount};
use smd_cel::Value;
use smd_cel::error::{Error, Result};
use smd_cel::library::{Functions, Overload, Param};
use smd_cel::value::{Opaque, Type};
use std::cmp::Ordering;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as Atomic};

/// The type's name in CEL.
pub(crate) const TYPE_NAME: &str = "kubernetes.Quantity";

/// The most digits an exact sum or difference may take; Go's decimals are unbounded (and take
/// as long as their size), smd refuses beyond this.
const MAX_DIGITS: u64 = 10_000;

/// A decimal `±digits × 10^-scale` (digits most significant first, no leading zeros, none for
/// zero), with `zeros` implied trailing zeros not yet written out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Big {
    negative: bool,
    digits: Vec<u8>,
    zeros: u64,
    scale: i32,
}

/// Go's two forms of a quantity's amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Amount {
    /// `int64Amount`: `value × 10^exponent`.
    Int { value: i64, exponent: i32 },
    /// `inf.Dec`.
    Dec(Big),
}

/// Why an arithmetic result cannot be held.
fn too_large() -> Error {
    Error::new(format!(
        "quantity arithmetic needs more than {MAX_DIGITS} digits"
    ))
}

/// `resource.ParseQuantity` as Go holds the result.
pub(crate) fn parse(text: &str) -> std::result::Result<Amount, QuantityError> {
    Ok(match go_amount(text)? {
        GoAmount::Int64 { value, exponent } => Amount::Int { value, exponent },
        GoAmount::Dec {
            negative,
            digits,
            zeros,
            scale,
        } => Amount::Dec(Big {
            negative,
            digits,
            zeros,
            scale,
        }),
    })
}

/// Go's `math.Pow10`, whose tables it multiplies and divides (so not always the nearest double
/// to the power).
fn pow10(n: i64) -> f64 {
    const TAB: [f64; 32] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
    ];
    const POS: [f64; 10] = [
        1e0, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288,
    ];
    const NEG: [f64; 11] = [
        1e0, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320,
    ];
    if (0..=308).contains(&n) {
        let n = n as usize;
        POS[n / 32] * TAB[n % 32]
    } else if (-323..0).contains(&n) {
        let n = (-n) as usize;
        NEG[n / 32] / TAB[n % 32]
    } else if n > 0 {
        f64::INFINITY
    } else {
        0.0
    }
}

fn digits_of(v: u64) -> Vec<u8> {
    if v == 0 {
        return Vec::new();
    }
    v.to_string().bytes().map(|c| c - b'0').collect()
}

impl Big {
    fn from_int(value: i64, exponent: i32) -> Big {
        Big {
            negative: value < 0,
            digits: digits_of(value.unsigned_abs()),
            zeros: 0,
            scale: exponent.wrapping_neg(),
        }
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// The unscaled magnitude written out with `extra` more zeros.
    fn written(&self, extra: u64) -> Result<Vec<u8>> {
        if self.is_zero() {
            return Ok(Vec::new());
        }
        let total = self.digits.len() as u64 + self.zeros + extra;
        if total > MAX_DIGITS {
            return Err(too_large());
        }
        let mut d = self.digits.clone();
        d.resize(total as usize, 0);
        Ok(d)
    }

    /// `inf.Dec`'s `Add`: both at the larger scale, the unscaled integers summed.
    fn add(&self, other: &Big) -> Result<Big> {
        let scale = self.scale.max(other.scale);
        let lift =
            |b: &Big| b.written(u64::try_from(i64::from(scale) - i64::from(b.scale)).unwrap_or(0));
        let (x, y) = (lift(self)?, lift(other)?);
        let (negative, digits) = if self.negative == other.negative || y.is_empty() {
            (
                self.negative && !x.is_empty() || other.negative && x.is_empty(),
                add_mag(&x, &y),
            )
        } else if x.is_empty() {
            (other.negative, y)
        } else {
            match cmp_mag(&x, &y) {
                Ordering::Equal => (false, Vec::new()),
                Ordering::Greater => (self.negative, sub_mag(&x, &y)),
                Ordering::Less => (other.negative, sub_mag(&y, &x)),
            }
        };
        Ok(Big {
            negative: negative && !digits.is_empty(),
            digits,
            zeros: 0,
            scale,
        })
    }

    fn negated(&self) -> Big {
        Big {
            negative: !self.negative && !self.is_zero(),
            ..self.clone()
        }
    }

    /// Sign, digits without trailing zeros, and the power of ten of the last: one form per value.
    fn normal(&self) -> (i8, &[u8], i64) {
        let trailing = self.digits.iter().rev().take_while(|&&d| d == 0).count();
        let digits = &self.digits[..self.digits.len() - trailing];
        if digits.is_empty() {
            return (0, digits, 0);
        }
        let exponent = trailing as i64 + self.zeros as i64 - i64::from(self.scale);
        (if self.negative { -1 } else { 1 }, digits, exponent)
    }
}

fn strip(mut d: Vec<u8>) -> Vec<u8> {
    let lead = d.iter().take_while(|&&x| x == 0).count();
    d.drain(..lead);
    d
}

fn add_mag(x: &[u8], y: &[u8]) -> Vec<u8> {
    let n = x.len().max(y.len());
    let mut out = vec![0u8; n + 1];
    let mut carry = 0;
    for i in 0..n {
        let a = if i < x.len() { x[x.len() - 1 - i] } else { 0 };
        let b = if i < y.len() { y[y.len() - 1 - i] } else { 0 };
        let s = a + b + carry;
        out[n - i] = s % 10;
        carry = s / 10;
    }
    out[0] = carry;
    strip(out)
}

/// `x - y` for `x ≥ y`.
fn sub_mag(x: &[u8], y: &[u8]) -> Vec<u8> {
    let mut out = x.to_vec();
    let mut borrow = 0;
    for i in 0..x.len() {
        let b = if i < y.len() { y[y.len() - 1 - i] } else { 0 };
        let j = x.len() - 1 - i;
        let a = out[j];
        let (v, nb) = if a >= b + borrow {
            (a - b - borrow, 0)
        } else {
            (a + 10 - b - borrow, 1)
        };
        out[j] = v;
        borrow = nb;
    }
    strip(out)
}

fn cmp_mag(x: &[u8], y: &[u8]) -> Ordering {
    x.len().cmp(&y.len()).then_with(|| x.cmp(y))
}

/// `positiveScaleInt64`: `value × 10^scale` if it fits.
fn scale_up(value: i64, scale: i64) -> Option<i64> {
    if value == 0 {
        return Some(0);
    }
    let mut v = value;
    for _ in 0..scale {
        v = v.checked_mul(10)?;
    }
    Some(v)
}

/// `int64Amount.Add`, when the sum stays in int64 at the smaller exponent.
fn int_add(a: (i64, i32), b: (i64, i32)) -> Option<(i64, i32)> {
    let ((av, ae), (bv, be)) = (a, b);
    if bv == 0 {
        return Some(a);
    }
    if av == 0 {
        return Some(b);
    }
    Some(match ae.cmp(&be) {
        Ordering::Equal => (av.checked_add(bv)?, ae),
        Ordering::Greater => (
            scale_up(av, i64::from(ae) - i64::from(be))?.checked_add(bv)?,
            be,
        ),
        Ordering::Less => (
            av.checked_add(scale_up(bv, i64::from(be) - i64::from(ae))?)?,
            ae,
        ),
    })
}

impl Amount {
    fn to_dec(&self) -> Big {
        match self {
            Amount::Int { value, exponent } => Big::from_int(*value, *exponent),
            Amount::Dec(b) => b.clone(),
        }
    }

    /// `Sign`.
    pub(crate) fn sign(&self) -> i64 {
        match self {
            Amount::Int { value, .. } => value.signum(),
            Amount::Dec(b) if b.is_zero() => 0,
            Amount::Dec(b) => {
                if b.negative {
                    -1
                } else {
                    1
                }
            }
        }
    }

    /// `AsInt64`: an int64 amount with no fraction that fits.
    pub(crate) fn as_int64(&self) -> Option<i64> {
        match self {
            Amount::Int { value, exponent } if *exponent >= 0 => {
                scale_up(*value, i64::from(*exponent))
            }
            _ => None,
        }
    }

    /// `AsApproximateFloat64`: the unscaled integer (rounded to a double) times `Pow10` of the
    /// exponent.
    pub(crate) fn approximate_float(&self) -> f64 {
        let (base, exponent) = match self {
            Amount::Int { value, exponent } => (*value as f64, i64::from(*exponent)),
            Amount::Dec(b) => {
                let text: String = b.digits.iter().map(|d| char::from(b'0' + d)).collect();
                let magnitude = if text.is_empty() {
                    0.0
                } else {
                    format!("{text}e{}", b.zeros)
                        .parse()
                        .unwrap_or(f64::INFINITY)
                };
                let base = if b.negative { -magnitude } else { magnitude };
                (base, -i64::from(b.scale))
            }
        };
        if exponent == 0 {
            return base;
        }
        base * pow10(exponent)
    }

    /// `Cmp`: by value.
    pub(crate) fn compare(&self, other: &Amount) -> Ordering {
        let (x, y) = (self.to_dec(), other.to_dec());
        let ((xs, xd, xe), (ys, yd, ye)) = (x.normal(), y.normal());
        if xs != ys || xs == 0 {
            return xs.cmp(&ys);
        }
        let place = |d: &[u8], e: i64| d.len() as i64 + e;
        let magnitude = place(xd, xe).cmp(&place(yd, ye)).then_with(|| xd.cmp(yd));
        if xs < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }

    /// `Add`: in int64 while both are and the sum fits, else as decimals.
    pub(crate) fn add(&self, other: &Amount) -> Result<Amount> {
        if let (
            Amount::Int {
                value: av,
                exponent: ae,
            },
            Amount::Int {
                value: bv,
                exponent: be,
            },
        ) = (self, other)
            && let Some((value, exponent)) = int_add((*av, *ae), (*bv, *be))
        {
            return Ok(Amount::Int { value, exponent });
        }
        Ok(Amount::Dec(self.to_dec().add(&other.to_dec())?))
    }

    /// `Sub`: Go negates the int64 operand as is (wrapping at the int64 minimum).
    pub(crate) fn sub(&self, other: &Amount) -> Result<Amount> {
        if let (
            Amount::Int {
                value: av,
                exponent: ae,
            },
            Amount::Int {
                value: bv,
                exponent: be,
            },
        ) = (self, other)
            && let Some((value, exponent)) = int_add((*av, *ae), (bv.wrapping_neg(), *be))
        {
            return Ok(Amount::Int { value, exponent });
        }
        Ok(Amount::Dec(self.to_dec().add(&other.to_dec().negated())?))
    }
}

/// A quantity as a CEL value.
#[derive(Debug)]
pub(crate) struct Quantity {
    amount: Amount,
    /// Go's `Cmp` has turned the value into its decimal form.
    decimal: AtomicBool,
}

impl Quantity {
    fn value(amount: Amount) -> Value {
        Value::Opaque(Arc::new(Quantity {
            amount,
            decimal: AtomicBool::new(false),
        }))
    }

    /// The amount in the form Go holds now.
    fn current(&self) -> Amount {
        if self.decimal.load(Atomic::Relaxed) {
            Amount::Dec(self.amount.to_dec())
        } else {
            self.amount.clone()
        }
    }

    /// `Cmp`, converting the receiver as Go does.
    fn cmp(&self, other: &Quantity) -> Ordering {
        let (a, b) = (self.current(), other.current());
        if matches!(a, Amount::Dec(_)) || matches!(b, Amount::Dec(_)) {
            self.decimal.store(true, Atomic::Relaxed);
        }
        a.compare(&b)
    }
}

impl Opaque for Quantity {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &Value) -> bool {
        as_quantity(other).is_some_and(|o| self.current().compare(&o.current()) == Ordering::Equal)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn as_quantity(v: &Value) -> Option<&Quantity> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Quantity>(),
        _ => None,
    }
}

fn param() -> Param {
    Param::Is(Type::Opaque(Arc::from(TYPE_NAME)))
}

fn text(v: &Value) -> &str {
    if let Value::String(s) = v { s } else { "" }
}

fn receiver(a: &[Value]) -> Result<&Quantity> {
    as_quantity(&a[0]).ok_or_else(Error::no_such_overload)
}

fn pair(a: &[Value]) -> Result<(&Quantity, &Quantity)> {
    Ok((
        receiver(a)?,
        as_quantity(&a[1]).ok_or_else(Error::no_such_overload)?,
    ))
}

fn int_operand(a: &[Value]) -> Amount {
    let value = if let Value::Int(i) = a[1] { i } else { 0 };
    Amount::Int { value, exponent: 0 }
}

pub(super) fn register(f: &mut Functions) {
    let s = Param::Is(Type::String);
    f.add(
        "quantity",
        Overload::new("string_to_quantity", vec![s.clone()], |a| {
            parse(text(&a[0]))
                .map(Quantity::value)
                .map_err(|e| Error::new(e.to_string()))
        }),
    );
    f.add(
        "isQuantity",
        Overload::new("is_quantity_string", vec![s], |a| {
            Ok(Value::Bool(parse(text(&a[0])).is_ok()))
        }),
    );
    f.add(
        "sign",
        Overload::new("quantity_sign", vec![param()], |a| {
            Ok(Value::Int(receiver(a)?.current().sign()))
        }),
    );
    f.add(
        "isInteger",
        Overload::new("quantity_is_integer", vec![param()], |a| {
            Ok(Value::Bool(receiver(a)?.current().as_int64().is_some()))
        }),
    );
    f.add(
        "asInteger",
        Overload::new("quantity_get_int", vec![param()], |a| {
            receiver(a)?
                .current()
                .as_int64()
                .map(Value::Int)
                .ok_or_else(|| Error::new("cannot convert value to integer"))
        }),
    );
    f.add(
        "asApproximateFloat",
        Overload::new("quantity_get_float", vec![param()], |a| {
            Ok(Value::Double(receiver(a)?.current().approximate_float()))
        }),
    );
    let order = |a: &[Value]| pair(a).map(|(x, y)| x.cmp(y));
    f.add(
        "isGreaterThan",
        Overload::new(
            "quantity_is_greater_than",
            vec![param(), param()],
            move |a| Ok(Value::Bool(order(a)? == Ordering::Greater)),
        ),
    );
    f.add(
        "isLessThan",
        Overload::new("quantity_is_less_than", vec![param(), param()], move |a| {
            Ok(Value::Bool(order(a)? == Ordering::Less))
        }),
    );
    f.add(
        "compareTo",
        Overload::new("quantity_compare_to", vec![param(), param()], move |a| {
            Ok(Value::Int(order(a)? as i64))
        }),
    );
    let int = Param::Is(Type::Int);
    f.add(
        "add",
        Overload::new("quantity_add", vec![param(), param()], |a| {
            let (x, y) = pair(a)?;
            Ok(Quantity::value(x.current().add(&y.current())?))
        }),
    );
    f.add(
        "add",
        Overload::new("quantity_add_int", vec![param(), int.clone()], |a| {
            let x = receiver(a)?;
            Ok(Quantity::value(x.current().add(&int_operand(a))?))
        }),
    );
    f.add(
        "sub",
        Overload::new("quantity_sub", vec![param(), param()], |a| {
            let (x, y) = pair(a)?;
            Ok(Quantity::value(x.current().sub(&y.current())?))
        }),
    );
    f.add(
        "sub",
        Overload::new("quantity_sub_int", vec![param(), int], |a| {
            let x = receiver(a)?;
            Ok(Quantity::value(x.current().sub(&int_operand(a))?))
        }),
    );
    f.set_cost("string_to_quantity", super::traversal_cost(1));
    f.set_cost("is_quantity_string", super::traversal_cost(1));
    for id in [
        "quantity_sign",
        "quantity_is_integer",
        "quantity_get_int",
        "quantity_get_float",
        "quantity_is_greater_than",
        "quantity_is_less_than",
        "quantity_compare_to",
        "quantity_add",
        "quantity_add_int",
        "quantity_sub",
        "quantity_sub_int",
    ] {
        f.set_cost(id, Arc::new(|_, _| 1));
    }
}
