//! Kubernetes' `library.IP`: `ip(string)`, `isIP`, `ip.isCanonical`, `family` and the address
//! class tests, over Go's `net/netip` addresses as the library reads them: `netip.ParseAddr`,
//! then no zone and no IPv4-mapped IPv6 address (`::ffff:1.2.3.4`).

use smd_cel::Value;
use smd_cel::error::{Error, Result};
use smd_cel::library::{Functions, Overload, Param};
use smd_cel::value::{Opaque, Type};
use std::sync::Arc;

/// The type's name in CEL.
pub(crate) const TYPE_NAME: &str = "net.IP";

/// An address: IPv4 (4 bytes) or IPv6 (16 bytes); never zoned (the library refuses zones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Addr {
    /// An IPv4 address.
    V4([u8; 4]),
    /// An IPv6 address.
    V6([u8; 16]),
}

/// `net/netip`'s `ParseAddr` error: its message, and the rest of the input it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AddrError {
    input: String,
    msg: &'static str,
    at: Option<String>,
}

impl std::fmt::Display for AddrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ParseAddr({}): {}", quote(&self.input), self.msg)?;
        if let Some(at) = &self.at {
            write!(f, " (at {})", quote(at))?;
        }
        Ok(())
    }
}

/// Go's `strconv.Quote`.
pub(crate) fn quote(s: &str) -> String {
    smd_fieldpath::Value::from(s).to_string()
}

fn err(input: &str, msg: &'static str, at: Option<&str>) -> AddrError {
    AddrError {
        input: input.to_owned(),
        msg,
        at: at.filter(|a| !a.is_empty()).map(str::to_owned),
    }
}

/// `netip.ParseAddr`: the address and its zone (empty when none).
pub(crate) fn parse_addr(s: &str) -> std::result::Result<(Addr, &str), AddrError> {
    for b in s.bytes() {
        match b {
            b'.' => return parse_v4_fields(s, s).map(|f| (Addr::V4(f), "")),
            b':' => return parse_v6(s),
            b'%' => return Err(err(s, "missing IPv6 address", None)),
            _ => {}
        }
    }
    Err(err(s, "unable to parse IP", None))
}

/// The four fields of a dotted IPv4 address `part` (of the input `input`).
fn parse_v4_fields(input: &str, part: &str) -> std::result::Result<[u8; 4], AddrError> {
    let b = part.as_bytes();
    let (mut fields, mut pos, mut val, mut digits) = ([0u8; 4], 0, 0u32, 0);
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return Err(err(input, "IPv4 field has octet with leading zero", None));
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return Err(err(input, "IPv4 field has value >255", None));
                }
            }
            b'.' => {
                if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                    return Err(err(
                        input,
                        "IPv4 field must have at least one digit",
                        part.get(i..),
                    ));
                }
                if pos == 3 {
                    return Err(err(input, "IPv4 address too long", None));
                }
                fields[pos] = val as u8;
                pos += 1;
                val = 0;
                digits = 0;
            }
            _ => return Err(err(input, "unexpected character", part.get(i..))),
        }
    }
    if pos < 3 {
        return Err(err(input, "IPv4 address too short", None));
    }
    fields[3] = val as u8;
    Ok(fields)
}

fn parse_v6(input: &str) -> std::result::Result<(Addr, &str), AddrError> {
    let (mut s, zone) = match input.find('%') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (input, ""),
    };
    if input.contains('%') && zone.is_empty() {
        return Err(err(input, "zone must be a non-empty string", None));
    }
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if let Some(rest) = s.strip_prefix("::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return Ok((Addr::V6(ip), zone));
        }
    }
    let mut i = 0;
    while i < 16 {
        let b = s.as_bytes();
        let (mut off, mut acc) = (0, 0u32);
        while let Some(d) = b.get(off).and_then(|&c| char::from(c).to_digit(16)) {
            acc = (acc << 4) + d;
            if off > 3 {
                return Err(err(input, "each group must have 4 or less digits", Some(s)));
            }
            if acc > 0xffff {
                return Err(err(input, "IPv6 field has value >=2^16", Some(s)));
            }
            off += 1;
        }
        if off == 0 {
            return Err(err(
                input,
                "each colon-separated field must have at least one digit",
                Some(s),
            ));
        }
        if b.get(off) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                return Err(err(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    Some(s),
                ));
            }
            if i + 4 > 16 {
                return Err(err(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    Some(s),
                ));
            }
            let v4 = parse_v4_fields(input, s)?;
            ip[i..i + 4].copy_from_slice(&v4);
            s = "";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(err(input, "unexpected character, want colon", Some(s)));
        }
        if s.len() == 1 {
            return Err(err(
                input,
                "colon must be followed by more characters",
                Some(s),
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(err(input, "multiple :: in address", Some(s)));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(err(input, "trailing garbage after address", Some(s)));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(err(input, "address string too short", None));
        };
        let n = 16 - i;
        ip.copy_within(e..i, e + n);
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(err(
            input,
            "the :: must expand to at least one field of zeros",
            None,
        ));
    }
    Ok((Addr::V6(ip), zone))
}

/// Why the library refuses a text as an IP address: its messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum IpError {
    /// `netip.ParseAddr` refused it.
    #[error("IP Address {} parse error during conversion from string: {}", quote(.0), .1)]
    Parse(String, AddrError),
    /// A zoned IPv6 address.
    #[error("IP address {} with zone value is not allowed", quote(.0))]
    Zone(String),
    /// An IPv4-mapped IPv6 address.
    #[error("IPv4-mapped IPv6 address {} is not allowed", quote(.0))]
    Mapped(String),
}

impl std::fmt::Display for Addr {
    /// `netip.Addr.String`: dotted IPv4; IPv6 in lower-case hex with the longest run of two or
    /// more zero groups (the first of equal runs) as `::`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Addr::V4([a, b, c, d]) => write!(f, "{a}.{b}.{c}.{d}"),
            Addr::V6(bytes) => {
                if is_4in6(bytes) {
                    let [.., a, b, c, d] = *bytes;
                    return write!(f, "::ffff:{a}.{b}.{c}.{d}");
                }
                let g: Vec<u16> = bytes
                    .chunks(2)
                    .map(|p| u16::from(p[0]) << 8 | u16::from(p[1]))
                    .collect();
                // The first longest run of two or more zero groups.
                let mut run: Option<(usize, usize)> = None;
                let mut i = 0;
                while i < 8 {
                    let len = g[i..].iter().take_while(|&&x| x == 0).count();
                    if len >= 2 && run.is_none_or(|(_, l)| len > l) {
                        run = Some((i, len));
                    }
                    i += len.max(1);
                }
                let mut i = 0;
                while i < 8 {
                    match run {
                        Some((start, len)) if i == start => {
                            f.write_str("::")?;
                            i += len;
                            if let Some(x) = g.get(i) {
                                write!(f, "{x:x}")?;
                                i += 1;
                            }
                            continue;
                        }
                        _ if i > 0 => f.write_str(":")?,
                        _ => {}
                    }
                    write!(f, "{:x}", g[i])?;
                    i += 1;
                }
                Ok(())
            }
        }
    }
}

fn is_4in6(b: &[u8; 16]) -> bool {
    b[..10].iter().all(|&x| x == 0) && b[10] == 0xff && b[11] == 0xff
}

/// The library's `parseIPAddr`.
pub(crate) fn parse_ip(s: &str) -> std::result::Result<Addr, IpError> {
    let (addr, zone) = parse_addr(s).map_err(|e| IpError::Parse(s.to_owned(), e))?;
    if !zone.is_empty() {
        return Err(IpError::Zone(s.to_owned()));
    }
    if let Addr::V6(b) = &addr
        && is_4in6(b)
    {
        return Err(IpError::Mapped(s.to_owned()));
    }
    Ok(addr)
}

impl Addr {
    /// 4 or 6.
    pub(crate) fn family(&self) -> i64 {
        match self {
            Addr::V4(_) => 4,
            Addr::V6(_) => 6,
        }
    }

    /// The address bits, IPv4 in the low 32.
    pub(crate) fn bits(&self) -> u128 {
        match self {
            Addr::V4(b) => u128::from(u32::from_be_bytes(*b)),
            Addr::V6(b) => u128::from_be_bytes(*b),
        }
    }

    /// 32 or 128.
    pub(crate) fn bit_len(&self) -> u32 {
        match self {
            Addr::V4(_) => 32,
            Addr::V6(_) => 128,
        }
    }

    /// The address with `bits` of `bit_len` bits.
    pub(crate) fn with_bits(&self, bits: u128) -> Addr {
        match self {
            Addr::V4(_) => Addr::V4((bits as u32).to_be_bytes()),
            Addr::V6(_) => Addr::V6(bits.to_be_bytes()),
        }
    }

    /// `IsUnspecified`.
    pub(crate) fn is_unspecified(&self) -> bool {
        self.bits() == 0
    }

    /// `IsLoopback`: 127/8, `::1`.
    pub(crate) fn is_loopback(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 127,
            Addr::V6(_) => self.bits() == 1,
        }
    }

    fn is_multicast(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] & 0xf0 == 0xe0,
            Addr::V6(b) => b[0] == 0xff,
        }
    }

    /// `IsLinkLocalMulticast`: 224.0.0/24, ff02::/16 (any flags).
    pub(crate) fn is_link_local_multicast(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 224 && b[1] == 0 && b[2] == 0,
            Addr::V6(b) => b[0] == 0xff && b[1] & 0x0f == 0x02,
        }
    }

    /// `IsLinkLocalUnicast`: 169.254/16, fe80::/10.
    pub(crate) fn is_link_local_unicast(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 169 && b[1] == 254,
            Addr::V6(b) => b[0] == 0xfe && b[1] & 0xc0 == 0x80,
        }
    }

    /// `IsGlobalUnicast`: none of the above, nor the IPv4 broadcast address.
    pub(crate) fn is_global_unicast(&self) -> bool {
        if let Addr::V4(b) = self
            && *b == [255; 4]
        {
            return false;
        }
        !self.is_unspecified()
            && !self.is_loopback()
            && !self.is_multicast()
            && !self.is_link_local_unicast()
    }
}

/// An IP as a CEL value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ip(pub(crate) Addr);

impl Opaque for Ip {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &Value) -> bool {
        as_ip(other).is_some_and(|o| o == self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The IP a value holds.
pub(crate) fn as_ip(v: &Value) -> Option<&Ip> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Ip>(),
        _ => None,
    }
}

pub(crate) fn ip_value(addr: Addr) -> Value {
    Value::Opaque(Arc::new(Ip(addr)))
}

pub(crate) fn param() -> Param {
    Param::Is(Type::Opaque(Arc::from(TYPE_NAME)))
}

/// `ip(string)` as the library answers it (also `containsIP`'s string).
pub(crate) fn string_to_ip(s: &str) -> Result<Value> {
    parse_ip(s)
        .map(ip_value)
        .map_err(|e| Error::new(e.to_string()))
}

fn on_ip(f: fn(&Addr) -> Value) -> impl Fn(&[Value]) -> Result<Value> {
    move |a| {
        as_ip(&a[0])
            .map(|ip| f(&ip.0))
            .ok_or_else(Error::no_such_overload)
    }
}

fn text(v: &Value) -> &str {
    if let Value::String(s) = v { s } else { "" }
}

pub(super) fn register(f: &mut Functions) {
    let s = Param::Is(Type::String);
    f.add(
        "ip",
        Overload::new("string_to_ip", vec![s.clone()], |a| {
            string_to_ip(text(&a[0]))
        }),
    );
    f.add(
        "isIP",
        Overload::new("is_ip", vec![s.clone()], |a| {
            Ok(Value::Bool(parse_ip(text(&a[0])).is_ok()))
        }),
    );
    f.add(
        "ip.isCanonical",
        Overload::new("ip_is_canonical", vec![s], |a| {
            let s = text(&a[0]);
            let addr = parse_ip(s).map_err(|e| Error::new(e.to_string()))?;
            Ok(Value::Bool(addr.to_string() == s))
        }),
    );
    f.add(
        "family",
        Overload::new(
            "ip_family",
            vec![param()],
            on_ip(|a| Value::Int(a.family())),
        ),
    );
    type Test = fn(&Addr) -> bool;
    let tests: [(&str, &str, Test); 5] = [
        ("isUnspecified", "ip_is_unspecified", Addr::is_unspecified),
        ("isLoopback", "ip_is_loopback", Addr::is_loopback),
        (
            "isLinkLocalMulticast",
            "ip_is_link_local_multicast",
            Addr::is_link_local_multicast,
        ),
        (
            "isLinkLocalUnicast",
            "ip_is_link_local_unicast",
            Addr::is_link_local_unicast,
        ),
        (
            "isGlobalUnicast",
            "ip_is_global_unicast",
            Addr::is_global_unicast,
        ),
    ];
    for (name, id, test) in tests {
        f.add(
            name,
            Overload::new(id, vec![param()], move |a| {
                as_ip(&a[0])
                    .map(|ip| Value::Bool(test(&ip.0)))
                    .ok_or_else(Error::no_such_overload)
            }),
        );
        f.set_cost(id, Arc::new(|_, _| 1));
    }
    f.add(
        "string",
        Overload::new(
            "ip_to_string",
            vec![param()],
            on_ip(|a| Value::from(a.to_string())),
        ),
    );
    f.set_cost("string_to_ip", super::traversal_cost(1));
    f.set_cost("is_ip", super::traversal_cost(1));
    f.set_cost("ip_is_canonical", super::traversal_cost(2));
    f.set_cost("ip_family", Arc::new(|_, _| 1));
}
