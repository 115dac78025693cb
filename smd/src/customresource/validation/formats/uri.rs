//! The `uri` format: Go's `url.ParseRequestURI` succeeds (Go 1.26, whose default refuses a
//! second colon in an `http`/`https` host). A request URI has no fragment, so a `#` is part of
//! the path or the host; the query is not looked at; a scheme with a rootless rest is opaque and
//! never checked.

use super::net;

/// Where in a URL an escape is read, as `net/url`'s `unescape` distinguishes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Host,
    Zone,
    /// The path and the userinfo: only the escapes' shape is checked.
    Other,
}

pub(super) fn is_request_uri(raw: &str) -> bool {
    if raw.is_empty() || raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return false;
    }
    if raw == "*" {
        return true;
    }
    let Some((scheme, rest)) = scheme(raw) else {
        return false;
    };
    // The query (everything from the first `?`) is not checked.
    let rest = rest.split_once('?').map_or(rest, |(before, _)| before);
    if !rest.starts_with('/') {
        // An opaque URI with a scheme; without one, not a request's.
        return !scheme.is_empty();
    }
    let mut path = rest;
    if !scheme.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            let (authority, tail) = after.find('/').map_or((after, ""), |i| after.split_at(i));
            if !authority_ok(&scheme.to_ascii_lowercase(), authority) {
                return false;
            }
            path = tail;
        }
    }
    unescape(path.as_bytes(), Mode::Other).is_some()
}

/// `getScheme`: a letter then letters, digits, `+`, `-` or `.` up to a colon; no scheme when the
/// text starts otherwise; `None` (an error) for a leading colon.
fn scheme(raw: &str) -> Option<(&str, &str)> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return None,
            b':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => return Some(("", raw)),
        }
    }
    Some(("", raw))
}

/// `parseAuthority`: `[userinfo@]host`, split at the last `@`.
fn authority_ok(scheme: &str, authority: &str) -> bool {
    let (userinfo, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    if !host_ok(scheme, host) {
        return false;
    }
    userinfo.is_none_or(|u| {
        u.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
            && unescape(u.as_bytes(), Mode::Other).is_some()
    })
}

/// `parseHost`: an IP literal in brackets (IPv6, a zone escaped as `%25`) with an optional
/// port, or a name whose port follows its first colon (`http`, `https`) or its last.
fn host_ok(scheme: &str, host: &str) -> bool {
    match host.rfind('[') {
        Some(0) => {
            let Some(close) = host.rfind(']') else {
                return false;
            };
            if !port_ok(&host[close + 1..]) {
                return false;
            }
            let name = &host.as_bytes()[1..close];
            let unescaped = match find(name, b"%25") {
                Some(z) => unescape(&name[..z], Mode::Host).and_then(|mut h| {
                    h.extend(unescape(&name[z..], Mode::Zone)?);
                    Some(h)
                }),
                None => unescape(name, Mode::Host),
            };
            matches!(
                unescaped.and_then(|u| net::parse_addr(&u)),
                Some(net::Addr::V6 { .. })
            )
        }
        Some(_) => false,
        None => {
            if let Some(first) = host.find(':') {
                let last = host.rfind(':').unwrap_or(first);
                let at = if scheme == "http" || scheme == "https" {
                    first
                } else {
                    last
                };
                if !port_ok(&host[at..]) {
                    return false;
                }
            }
            unescape(host.as_bytes(), Mode::Host).is_some()
        }
    }
}

/// `validOptionalPort`: nothing, or a colon and digits.
fn port_ok(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The ASCII bytes a host (or zone) may hold unescaped: `shouldEscape(c, encodeHost)` false.
fn host_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!$&'()*+,;=:[]<>\"-_.~".contains(&c)
}

/// `unescape`: every `%` followed by two hex digits; in a host, escapes only of non-ASCII bytes
/// (or `%25`) and no ASCII byte a host cannot hold; in a zone, escapes only of bytes a host
/// holds (or a space, or `%25`). Returns the unescaped bytes.
fn unescape(s: &[u8], mode: Mode) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                let (hi, lo) = match (s.get(i + 1), s.get(i + 2)) {
                    (Some(&h), Some(&l)) if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
                        (h, l)
                    }
                    _ => return None,
                };
                let escaped = &s[i..i + 3];
                let digit = |c: u8| char::from(c).to_digit(16).map_or(0, |d| d as u8);
                let v = digit(hi) << 4 | digit(lo);
                match mode {
                    Mode::Host if digit(hi) < 8 && escaped != b"%25" => return None,
                    Mode::Zone if escaped != b"%25" && v != b' ' && !(v < 0x80 && host_byte(v)) => {
                        return None;
                    }
                    _ => {}
                }
                out.push(v);
                i += 3;
            }
            c => {
                if mode != Mode::Other && c < 0x80 && !host_byte(c) {
                    return None;
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Some(out)
}
