//! Kubernetes' `library.URLs`: `url(string)`, `isURL` and the accessors `getScheme`,
//! `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`, over Go 1.26's `net/url`
//! as the library uses it: `ParseRequestURI` decides (an absolute URI or an absolute path, no
//! fragment), then `Parse` builds the value (which takes a fragment off). Go 1.26 refuses a
//! second colon in an `http`/`https` host (`urlstrictcolons`).

use super::ip::{Addr, parse_addr, quote};
use smd_cel::Value;
use smd_cel::error::Error;
use smd_cel::library::{Functions, Overload, Param};
use smd_cel::value::{Map, Opaque, Type};
use std::sync::Arc;

/// The type's name in CEL.
pub(crate) const TYPE_NAME: &str = "kubernetes.URL";

/// `net/url`'s escaping contexts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// A parsed URL: `net/url.URL`'s fields the library reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Url {
    pub(crate) scheme: String,
    opaque: String,
    user: Option<(String, Option<String>)>,
    pub(crate) host: String,
    path: String,
    raw_path: String,
    omit_host: bool,
    force_query: bool,
    raw_query: String,
    fragment: String,
    raw_fragment: String,
}

fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone) && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    !(mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

fn hex(c: u8) -> Option<u8> {
    char::from(c).to_digit(16).map(|d| d as u8)
}

/// `unescape`: Go's errors as their texts.
fn unescape(s: &str, mode: Mode) -> std::result::Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (Some(hi), Some(lo)) = (
                    b.get(i + 1).copied().and_then(hex),
                    b.get(i + 2).copied().and_then(hex),
                ) else {
                    let end = (i + 3).min(b.len());
                    let bad = String::from_utf8_lossy(&b[i..end]).into_owned();
                    return Err(format!("invalid URL escape {}", quote(&bad)));
                };
                let escape = &s[i..i + 3];
                let v = hi << 4 | lo;
                let refused = match mode {
                    Mode::Host => hi < 8 && escape != "%25",
                    Mode::Zone => escape != "%25" && v != b' ' && should_escape(v, Mode::Host),
                    _ => false,
                };
                if refused {
                    return Err(format!("invalid URL escape {}", quote(escape)));
                }
                out.push(v);
                i += 3;
            }
            b'+' => {
                out.push(if mode == Mode::QueryComponent {
                    b' '
                } else {
                    b'+'
                });
                i += 1;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote(&s[i..i + 1])
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// `escape`.
fn escape(s: &str, mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push('+');
        } else if should_escape(c, mode) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(char::from(c));
        }
    }
    // Only ASCII bytes are written unescaped, so the text is what the bytes say.
    out
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn scheme(raw: &str) -> std::result::Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn parse_host(scheme: &str, host: &str) -> std::result::Result<String, String> {
    match host.rfind('[') {
        Some(i) if i > 0 => return Err("invalid IP-literal".to_owned()),
        Some(_) => {
            let close = host.rfind(']').ok_or("missing ']' in host")?;
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(format!("invalid port {} after host", quote(colon_port)));
            }
            let colon_port = unescape(colon_port, Mode::Host)?;
            // A `]` before the `[` leaves no address between them: Go slices past its end and
            // panics; smd refuses the host.
            let name = host.get(1..close).ok_or("invalid IP-literal")?;
            let unescaped = match name.find("%25") {
                Some(z) => unescape(&name[..z], Mode::Host)? + &unescape(&name[z..], Mode::Zone)?,
                None => unescape(name, Mode::Host)?,
            };
            match parse_addr(&unescaped) {
                Err(e) => return Err(format!("invalid host: {e}")),
                Ok((Addr::V4(_), _)) => return Err("invalid IP-literal".to_owned()),
                Ok(_) => {}
            }
            return Ok(format!("[{unescaped}]{colon_port}"));
        }
        None => {
            if let Some(first) = host.find(':') {
                let last = host.rfind(':').unwrap_or(first);
                let at = if scheme == "http" || scheme == "https" {
                    first
                } else {
                    last
                };
                let colon_port = &host[at..];
                if !valid_optional_port(colon_port) {
                    return Err(format!("invalid port {} after host", quote(colon_port)));
                }
            }
        }
    }
    unescape(host, Mode::Host)
}

fn valid_userinfo(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
}

type Userinfo = Option<(String, Option<String>)>;

fn parse_authority(
    scheme: &str,
    authority: &str,
) -> std::result::Result<(Userinfo, String), String> {
    let at = authority.rfind('@');
    let host = parse_host(scheme, at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let info = &authority[..i];
    if !valid_userinfo(info) {
        return Err("net/url: invalid userinfo".to_owned());
    }
    let user = match info.split_once(':') {
        None => (unescape(info, Mode::UserPassword)?, None),
        Some((u, p)) => (
            unescape(u, Mode::UserPassword)?,
            Some(unescape(p, Mode::UserPassword)?),
        ),
    };
    Ok((Some(user), host))
}

/// `parse`: the message of Go's error, without the `parse "…": ` it gets wrapped in.
fn parse(raw: &str, via_request: bool) -> std::result::Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".to_owned());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = "*".to_owned();
        return Ok(url);
    }
    let (scheme, mut rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        rest = r;
        url.raw_query = q.to_owned();
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_owned();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".to_owned());
        }
        if rest.split('/').next().is_some_and(|seg| seg.contains(':')) {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
        && rest.starts_with("//")
    {
        let after = &rest[2..];
        let (authority, tail) = after.find('/').map_or((after, ""), |i| after.split_at(i));
        let (user, host) = parse_authority(&url.scheme, authority)?;
        url.user = user;
        url.host = host;
        rest = tail;
    } else if !url.scheme.is_empty() && rest.starts_with('/') {
        url.omit_host = true;
    }
    url.path = unescape(rest, Mode::Path)?;
    if escape(&url.path, Mode::Path) != rest {
        url.raw_path = rest.to_owned();
    }
    Ok(url)
}

/// `url.ParseRequestURI`, with Go's error text.
pub(crate) fn parse_request_uri(raw: &str) -> std::result::Result<Url, String> {
    parse(raw, true).map_err(|e| format!("parse {}: {e}", quote(raw)))
}

/// `url.Parse`, with Go's error text.
pub(crate) fn parse_url(raw: &str) -> std::result::Result<Url, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse(u, false).map_err(|e| format!("parse {}: {e}", quote(u)))?;
    if !frag.is_empty() {
        url.fragment =
            unescape(frag, Mode::Fragment).map_err(|e| format!("parse {}: {e}", quote(raw)))?;
        if escape(&url.fragment, Mode::Fragment) != frag {
            url.raw_fragment = frag.to_owned();
        }
    }
    Ok(url)
}

/// What the library's `url(string)` answers.
pub(crate) fn library_url(raw: &str) -> std::result::Result<Url, String> {
    let wrap = |e: String| format!("URL parse error during conversion from string: {e}");
    parse_request_uri(raw).map_err(wrap)?;
    parse_url(raw).map_err(wrap)
}

fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes()
        .all(|c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, mode))
}

fn split_host_port(host_port: &str) -> (&str, &str) {
    let (mut host, mut port) = (host_port, "");
    if let Some(i) = host_port.rfind(':')
        && valid_optional_port(&host_port[i..])
    {
        (host, port) = (&host_port[..i], &host_port[i + 1..]);
    }
    if host.len() >= 2 && host.starts_with('[') && host.ends_with(']') {
        host = &host[1..host.len() - 1];
    }
    (host, port)
}

impl Url {
    /// `Hostname`: the host without its port and brackets.
    pub(crate) fn hostname(&self) -> &str {
        split_host_port(&self.host).0
    }

    /// `Port`.
    pub(crate) fn port(&self) -> &str {
        split_host_port(&self.host).1
    }

    /// `EscapedPath`: the path as written when that is a valid escaping of it, else escaped.
    pub(crate) fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".to_owned();
        }
        escape(&self.path, Mode::Path)
    }

    fn escaped_fragment(&self) -> String {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Mode::Fragment)
    }

    /// `Query()`: `ParseQuery` of the raw query, keeping what parses (nothing past Go's limit
    /// of 10000 parameters).
    pub(crate) fn query(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        if self.raw_query.matches('&').count() + 1 > 10_000 {
            return out;
        }
        for pair in self.raw_query.split('&') {
            if pair.is_empty() || pair.contains(';') {
                continue;
            }
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (Ok(k), Ok(v)) = (
                unescape(k, Mode::QueryComponent),
                unescape(v, Mode::QueryComponent),
            ) else {
                continue;
            };
            match out.iter_mut().find(|(key, _)| *key == k) {
                Some((_, vs)) => vs.push(v),
                None => out.push((k, vec![v])),
            }
        }
        out
    }

    /// `String()`, which the library's equality compares.
    pub(crate) fn to_go_string(&self) -> String {
        let mut b = String::new();
        if !self.scheme.is_empty() {
            b.push_str(&self.scheme);
            b.push(':');
        }
        if !self.opaque.is_empty() {
            b.push_str(&self.opaque);
        } else {
            let any_host = !self.host.is_empty() || self.user.is_some();
            if any_host || (!self.scheme.is_empty() && !self.omit_host) {
                if any_host || !self.path.is_empty() {
                    b.push_str("//");
                }
                if let Some((user, password)) = &self.user {
                    b.push_str(&escape(user, Mode::UserPassword));
                    if let Some(p) = password {
                        b.push(':');
                        b.push_str(&escape(p, Mode::UserPassword));
                    }
                    b.push('@');
                }
                b.push_str(&escape(&self.host, Mode::Host));
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                b.push('/');
            }
            if b.is_empty() && path.split('/').next().is_some_and(|s| s.contains(':')) {
                b.push_str("./");
            }
            b.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            b.push('?');
            b.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            b.push('#');
            b.push_str(&self.escaped_fragment());
        }
        b
    }
}

/// A URL as a CEL value.
#[derive(Debug)]
pub(crate) struct UrlValue(pub(crate) Url);

impl Opaque for UrlValue {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn equals(&self, other: &Value) -> bool {
        as_url(other).is_some_and(|o| o.0.to_go_string() == self.0.to_go_string())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn as_url(v: &Value) -> Option<&UrlValue> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<UrlValue>(),
        _ => None,
    }
}

fn text(v: &Value) -> &str {
    if let Value::String(s) = v { s } else { "" }
}

pub(super) fn register(f: &mut Functions) {
    let s = Param::Is(Type::String);
    let u = Param::Is(Type::Opaque(Arc::from(TYPE_NAME)));
    f.add(
        "url",
        Overload::new("string_to_url", vec![s.clone()], |a| {
            library_url(text(&a[0]))
                .map(|u| Value::Opaque(Arc::new(UrlValue(u))))
                .map_err(Error::new)
        }),
    );
    f.add(
        "isURL",
        Overload::new("is_url_string", vec![s], |a| {
            Ok(Value::Bool(parse_request_uri(text(&a[0])).is_ok()))
        }),
    );
    type Get = fn(&Url) -> String;
    let accessors: [(&str, &str, Get); 5] = [
        ("getScheme", "url_get_scheme", |u| u.scheme.clone()),
        ("getHost", "url_get_host", |u| u.host.clone()),
        ("getHostname", "url_get_hostname", |u| {
            u.hostname().to_owned()
        }),
        ("getPort", "url_get_port", |u| u.port().to_owned()),
        ("getEscapedPath", "url_get_escaped_path", Url::escaped_path),
    ];
    for (name, id, get) in accessors {
        f.add(
            name,
            Overload::new(id, vec![u.clone()], move |a| {
                as_url(&a[0])
                    .map(|v| Value::from(get(&v.0)))
                    .ok_or_else(Error::no_such_overload)
            }),
        );
        f.set_cost(id, Arc::new(|_, _| 1));
    }
    f.add(
        "getQuery",
        Overload::new("url_get_query", vec![u], |a| {
            let url = as_url(&a[0]).ok_or_else(Error::no_such_overload)?;
            Ok(Value::Map(Map::from_entries(
                url.0.query().into_iter().map(|(k, vs)| {
                    (
                        Value::from(k),
                        Value::list(vs.into_iter().map(Value::from).collect()),
                    )
                }),
            )))
        }),
    );
    f.set_cost("url_get_query", Arc::new(|_, _| 1));
    f.set_cost("string_to_url", super::traversal_cost(1));
}
