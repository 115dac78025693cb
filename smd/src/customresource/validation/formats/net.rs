//! Go's address parsers as the formats use them: `net.ParseIP` (through `netip.ParseAddr`,
//! strict: no leading zeros, at most four hex digits a group), `k8s.io/utils/net`'s
//! `ParseIPSloppy` and `ParseCIDRSloppy` (Go 1.16's parsers, which took leading zeros), and
//! `net.ParseMAC`. Only whether an address parses matters, so nothing is built.

/// What `netip.ParseAddr` made of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Addr {
    V4,
    V6 {
        /// A zone (`%eth0`) followed the address; `net.ParseIP` refuses it.
        zone: bool,
    },
}

/// `netip.ParseAddr`: the first `.`, `:` or `%` decides how the text is read.
pub(super) fn parse_addr(s: &[u8]) -> Option<Addr> {
    match s.iter().find(|b| matches!(b, b'.' | b':' | b'%'))? {
        b'.' => parse_ipv4_fields(s).then_some(Addr::V4),
        b':' => parse_ipv6_strict(s),
        _ => None,
    }
}

/// netip's dotted quad: four decimal fields up to 255, none with a leading zero.
fn parse_ipv4_fields(s: &[u8]) -> bool {
    let (mut val, mut pos, mut digits) = (0u32, 0, 0);
    for (i, &c) in s.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return false;
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return false;
                }
            }
            b'.' => {
                if i == 0 || i == s.len() - 1 || s[i - 1] == b'.' || pos == 3 {
                    return false;
                }
                pos += 1;
                val = 0;
                digits = 0;
            }
            _ => return false,
        }
    }
    pos == 3
}

/// netip's IPv6: groups of one to four hex digits, one `::`, an embedded IPv4 in the last 32
/// bits, a non-empty zone after `%`.
fn parse_ipv6_strict(input: &[u8]) -> Option<Addr> {
    let (mut s, zone) = match input.iter().position(|&b| b == b'%') {
        Some(i) if i + 1 == input.len() => return None,
        Some(i) => (&input[..i], true),
        None => (input, false),
    };
    let mut ellipsis: Option<usize> = None;
    if s.starts_with(b"::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some(Addr::V6 { zone });
        }
    }
    let mut i = 0;
    while i < 16 {
        let mut off = 0;
        while off < s.len() && s[off].is_ascii_hexdigit() {
            if off > 3 {
                return None;
            }
            off += 1;
        }
        if off == 0 {
            return None;
        }
        if off < s.len() && s[off] == b'.' {
            if (ellipsis.is_none() && i != 12) || i + 4 > 16 || !parse_ipv4_fields(s) {
                return None;
            }
            s = &[];
            i += 4;
            break;
        }
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    let complete = if i < 16 {
        ellipsis.is_some()
    } else {
        ellipsis.is_none()
    };
    (s.is_empty() && complete).then_some(Addr::V6 { zone })
}

/// The forked parsers' cap on a number: they give up at 0xFFFFFF.
const BIG: u32 = 0xFF_FFFF;

/// The forked `dtoi`: the leading decimal number and its length, none if empty or too big.
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// The forked `xtoi`: the leading hexadecimal number and its length.
fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut i = 0;
    while i < s.len() {
        let Some(d) = char::from(s[i]).to_digit(16) else {
            break;
        };
        n = n * 16 + d;
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// The forked IPv4: four decimal fields up to 255, leading zeros allowed.
fn sloppy_ipv4(mut s: &[u8]) -> bool {
    for i in 0..4 {
        if i > 0 {
            match s.strip_prefix(b".") {
                Some(rest) => s = rest,
                None => return false,
            }
        }
        match dtoi(s) {
            Some((n, len)) if n <= 0xFF => s = &s[len..],
            _ => return false,
        }
    }
    s.is_empty()
}

/// The forked IPv6: hex groups of any length up to 0xFFFF, the forked IPv4 embedded.
fn sloppy_ipv6(mut s: &[u8]) -> bool {
    let mut ellipsis: Option<usize> = None;
    if s.starts_with(b"::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return true;
        }
    }
    let mut i = 0;
    while i < 16 {
        let Some((_, len)) = xtoi(s).filter(|&(n, _)| n <= 0xFFFF) else {
            return false;
        };
        if len < s.len() && s[len] == b'.' {
            if (ellipsis.is_none() && i != 12) || i + 4 > 16 || !sloppy_ipv4(s) {
                return false;
            }
            s = &[];
            i += 4;
            break;
        }
        i += 2;
        s = &s[len..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return false;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return false;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    s.is_empty()
        && if i < 16 {
            ellipsis.is_some()
        } else {
            ellipsis.is_none()
        }
}

/// `ParseIPSloppy` gives an address: the first `.` or `:` decides how the text is read.
pub(super) fn parse_ip_sloppy(s: &[u8]) -> bool {
    match s.iter().find(|b| matches!(b, b'.' | b':')) {
        Some(b'.') => sloppy_ipv4(s),
        Some(_) => sloppy_ipv6(s),
        None => false,
    }
}

/// `ParseCIDRSloppy` succeeds: an address (read as IPv4, else IPv6), `/`, a decimal prefix
/// length within the address's bits.
pub(super) fn parse_cidr_sloppy(s: &[u8]) -> bool {
    let Some(slash) = s.iter().position(|&b| b == b'/') else {
        return false;
    };
    let (addr, mask) = (&s[..slash], &s[slash + 1..]);
    let bits = if sloppy_ipv4(addr) {
        32
    } else if sloppy_ipv6(addr) {
        128
    } else {
        return false;
    };
    matches!(dtoi(mask), Some((n, len)) if len == mask.len() && n <= bits)
}

/// `net.ParseMAC` succeeds: 6, 8 or 20 bytes as hex pairs separated by `:` or `-`, groups of
/// four separated by `.`, or bare pairs.
pub(super) fn parse_mac(s: &[u8]) -> bool {
    let hex2 = |p: &[u8]| p.len() >= 2 && p[0].is_ascii_hexdigit() && p[1].is_ascii_hexdigit();
    let sized = |n: usize| matches!(n, 6 | 8 | 20);
    if s.len() < 12 {
        return false;
    }
    if s[2] == b':' || s[2] == b'-' {
        let sep = s[2];
        (s.len() + 1) % 3 == 0
            && sized((s.len() + 1) / 3)
            && s.chunks(3)
                .all(|c| hex2(c) && (c.len() == 2 || c[2] == sep))
    } else if s[4] == b'.' {
        (s.len() + 1) % 5 == 0
            && sized(2 * (s.len() + 1) / 5)
            && s.chunks(5)
                .all(|c| hex2(c) && hex2(&c[2..]) && (c.len() == 4 || c[4] == b'.'))
    } else {
        s.len() % 2 == 0 && sized(s.len() / 2) && s.chunks(2).all(hex2)
    }
}
