//! Kubernetes' `library.CIDR`: `cidr(string)`, `isCIDR`, `containsIP`, `containsCIDR`, `ip`,
//! `masked`, `prefixLength`, over `netip.ParsePrefix` without IPv4-mapped IPv6 addresses. A
//! prefix keeps its address as written (`192.168.0.1/24`); `masked` clears the host bits.

use super::ip::{self, Addr, AddrError, as_ip, quote};
use smd_cel::Value;
use smd_cel::error::{Error, Result};
use smd_cel::library::{Functions, Overload, Param};
use smd_cel::value::{Opaque, Type};
use std::sync::Arc;

/// The type's name in CEL.
pub(crate) const TYPE_NAME: &str = "net.CIDR";

/// A prefix: an address and how many of its leading bits are the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Prefix {
    pub(crate) addr: Addr,
    pub(crate) bits: u32,
}

/// `netip.ParsePrefix`'s refusals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PrefixError {
    NoSlash,
    Addr(AddrError),
    Zone,
    BadBits(String),
    OutOfRange,
}

/// Why the library refuses a text as a CIDR, in its words (the parse error is prefixed twice,
/// as the library does).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CidrError {
    /// `netip.ParsePrefix` refused it.
    #[error(
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix({}): {}",
        quote(.0),
        prefix_message(.1)
    )]
    Parse(String, PrefixError),
    /// An IPv4-mapped IPv6 address.
    #[error(
        "network address parse error during conversion from string: IPv4-mapped IPv6 address {} is not allowed",
        quote(.0)
    )]
    Mapped(String),
}

fn prefix_message(e: &PrefixError) -> String {
    match e {
        PrefixError::NoSlash => "no '/'".to_owned(),
        PrefixError::Addr(a) => a.to_string(),
        PrefixError::Zone => "IPv6 zones cannot be present in a prefix".to_owned(),
        PrefixError::BadBits(b) => format!("bad bits after slash: {}", quote(b)),
        PrefixError::OutOfRange => "prefix length out of range".to_owned(),
    }
}

/// `netip.ParsePrefix`.
pub(crate) fn parse_prefix(s: &str) -> std::result::Result<Prefix, PrefixError> {
    let i = s.rfind('/').ok_or(PrefixError::NoSlash)?;
    let (addr, zone) = ip::parse_addr(&s[..i]).map_err(PrefixError::Addr)?;
    if !zone.is_empty() {
        return Err(PrefixError::Zone);
    }
    let text = &s[i + 1..];
    let bad = || PrefixError::BadBits(text.to_owned());
    if text.len() > 1 && !matches!(text.as_bytes()[0], b'1'..=b'9') {
        return Err(bad());
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    // Atoi's range is int64's; beyond it Go reports the bits as bad, within it as out of range.
    let bits: i64 = text.parse().map_err(|_| bad())?;
    if bits > i64::from(addr.bit_len()) {
        return Err(PrefixError::OutOfRange);
    }
    Ok(Prefix {
        addr,
        bits: bits as u32,
    })
}

/// The library's `parseCIDR`.
pub(crate) fn parse_cidr(s: &str) -> std::result::Result<Prefix, CidrError> {
    let p = parse_prefix(s).map_err(|e| CidrError::Parse(s.to_owned(), e))?;
    if let Addr::V6(b) = p.addr
        && b[..10].iter().all(|&x| x == 0)
        && b[10] == 0xff
        && b[11] == 0xff
    {
        return Err(CidrError::Mapped(s.to_owned()));
    }
    Ok(p)
}

impl Prefix {
    fn mask(&self) -> u128 {
        let len = self.addr.bit_len();
        let all = if len == 32 {
            u128::from(u32::MAX)
        } else {
            u128::MAX
        };
        if self.bits == 0 {
            0
        } else {
            all & !(all >> self.bits)
        }
    }

    /// `Masked`: the host bits cleared.
    pub(crate) fn masked(&self) -> Prefix {
        Prefix {
            addr: self.addr.with_bits(self.addr.bits() & self.mask()),
            bits: self.bits,
        }
    }

    /// `Contains`: same family, same network bits.
    pub(crate) fn contains(&self, ip: &Addr) -> bool {
        self.addr.bit_len() == ip.bit_len() && (self.addr.bits() ^ ip.bits()) & self.mask() == 0
    }

    /// The library's `containsCIDR`: `Overlaps` and no longer a prefix than `other`'s.
    pub(crate) fn contains_prefix(&self, other: &Prefix) -> bool {
        if self.addr.bit_len() != other.addr.bit_len() || self.bits > other.bits {
            return false;
        }
        self == other || self.contains(&other.addr)
    }

    /// `Size()`: the prefix length in whole bytes, rounded up.
    fn size(&self) -> u64 {
        u64::from(self.bits.div_ceil(8))
    }
}

impl std::fmt::Display for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

/// A CIDR as a CEL value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cidr(pub(crate) Prefix);

impl Opaque for Cidr {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &Value) -> bool {
        as_cidr(other).is_some_and(|o| o == self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

pub(crate) fn as_cidr(v: &Value) -> Option<&Cidr> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Cidr>(),
        _ => None,
    }
}

fn cidr_value(p: Prefix) -> Value {
    Value::Opaque(Arc::new(Cidr(p)))
}

fn param() -> Param {
    Param::Is(Type::Opaque(Arc::from(TYPE_NAME)))
}

fn string_to_cidr(s: &str) -> Result<Value> {
    parse_cidr(s)
        .map(cidr_value)
        .map_err(|e| Error::new(e.to_string()))
}

fn text(v: &Value) -> &str {
    if let Value::String(s) = v { s } else { "" }
}

fn receiver(a: &[Value]) -> Result<&Prefix> {
    as_cidr(&a[0])
        .map(|c| &c.0)
        .ok_or_else(Error::no_such_overload)
}

/// A cost from the receiver's size `c` and, for a string argument, its length `s`, as
/// `library/cost.go` counts them.
fn contains_cost(extra: bool, string_arg: bool) -> smd_cel::library::CostFn {
    Arc::new(move |a: &[Value], _: &Result<Value>| {
        let c = as_cidr(&a[0]).map_or(1, |c| c.0.size()) as f64;
        let mut cost = ((c + c) * 0.1).ceil() as u64;
        if extra {
            cost += (c * 0.1).ceil() as u64 + 1;
        }
        if string_arg {
            cost += (a[1].cost_size() as f64 * 0.1).ceil() as u64;
        }
        cost
    })
}

pub(super) fn register(f: &mut Functions) {
    let s = Param::Is(Type::String);
    f.add(
        "cidr",
        Overload::new("string_to_cidr", vec![s.clone()], |a| {
            string_to_cidr(text(&a[0]))
        }),
    );
    f.add(
        "isCIDR",
        Overload::new("is_cidr", vec![s.clone()], |a| {
            Ok(Value::Bool(parse_cidr(text(&a[0])).is_ok()))
        }),
    );
    f.add(
        "containsIP",
        Overload::new("cidr_contains_ip_string", vec![param(), s.clone()], |a| {
            let p = receiver(a)?;
            // The library converts the string and, when that fails, reports no overload
            // (its check of the converted value's type), not the parse error.
            match ip::parse_ip(text(&a[1])) {
                Ok(addr) => Ok(Value::Bool(p.contains(&addr))),
                Err(_) => Err(Error::no_such_overload()),
            }
        }),
    );
    f.add(
        "containsIP",
        Overload::new("cidr_contains_ip_ip", vec![param(), ip::param()], |a| {
            let p = receiver(a)?;
            let addr = as_ip(&a[1]).ok_or_else(Error::no_such_overload)?;
            Ok(Value::Bool(p.contains(&addr.0)))
        }),
    );
    f.add(
        "containsCIDR",
        Overload::new("cidr_contains_cidr_string", vec![param(), s.clone()], |a| {
            let p = receiver(a)?;
            let other = parse_cidr(text(&a[1])).map_err(|e| Error::new(e.to_string()))?;
            Ok(Value::Bool(p.contains_prefix(&other)))
        }),
    );
    f.add(
        "containsCIDR",
        Overload::new("cidr_contains_cidr", vec![param(), param()], |a| {
            let p = receiver(a)?;
            let other = as_cidr(&a[1]).ok_or_else(Error::no_such_overload)?;
            Ok(Value::Bool(p.contains_prefix(&other.0)))
        }),
    );
    f.add(
        "ip",
        Overload::new("cidr_ip", vec![param()], |a| {
            Ok(ip::ip_value(receiver(a)?.addr))
        }),
    );
    f.add(
        "prefixLength",
        Overload::new("cidr_prefix_length", vec![param()], |a| {
            Ok(Value::Int(i64::from(receiver(a)?.bits)))
        }),
    );
    f.add(
        "masked",
        Overload::new("cidr_masked", vec![param()], |a| {
            Ok(cidr_value(receiver(a)?.masked()))
        }),
    );
    f.add(
        "string",
        Overload::new("cidr_to_string", vec![param()], |a| {
            Ok(Value::from(receiver(a)?.to_string()))
        }),
    );
    f.set_cost("string_to_cidr", super::traversal_cost(1));
    f.set_cost("is_cidr", super::traversal_cost(1));
    f.set_cost("cidr_contains_ip_string", contains_cost(false, true));
    f.set_cost("cidr_contains_ip_ip", contains_cost(false, false));
    f.set_cost("cidr_contains_cidr_string", contains_cost(true, true));
    f.set_cost("cidr_contains_cidr", contains_cost(true, false));
    for id in ["cidr_ip", "cidr_prefix_length", "cidr_masked"] {
        f.set_cost(id, Arc::new(|_, _| 1));
    }
}
