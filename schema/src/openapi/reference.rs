//! `$ref` strings as kube-openapi keeps them: parsed by Go's `net/url`, normalized by
//! go-openapi's `jsonreference` (lowercase scheme and host, default port dropped, duplicate
//! slashes in the path folded, raw encodings forgotten) and printed back with `URL.String()`.
//! `schemaconv` names a referenced type by the last `/`-separated segment of that text, so
//! `#/definitions/a b` refers to `a%20b`.
//!
//! The path, query and fragment follow Go exactly; an authority (`//host`) is kept with its
//! host lowercased and its default port dropped, without Go's validation of hosts and ports.

use smd_value::Value;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Fragment,
}

/// Go's `Ref.String()` of a `$ref` string, or Go's parse error.
pub(crate) fn normalize(raw: &str) -> Result<String, String> {
    let (before, fragment) = match raw.split_once('#') {
        Some((before, fragment)) => (before, fragment),
        None => (raw, ""),
    };
    let mut url = parse(before).map_err(|e| format!("parse {}: {e}", quote(before)))?;
    if !fragment.is_empty() {
        url.fragment = unescape(fragment).map_err(|e| format!("parse {}: {e}", quote(raw)))?;
    }
    url.path = fold_slashes(&url.path);
    Ok(url.to_text())
}

/// The name `schemaconv` gives a reference: what follows its last `/` (Go's `path.Split`).
pub(crate) fn last_segment(reference: &str) -> &str {
    match reference.rfind('/') {
        Some(i) => reference.get(i + 1..).unwrap_or_default(),
        None => reference,
    }
}

fn quote(s: &str) -> String {
    Value::from(s).to_string()
}

#[derive(Default)]
struct Url {
    scheme: String,
    opaque: String,
    authority: Option<String>,
    omit_host: bool,
    path: Vec<u8>,
    force_query: bool,
    raw_query: String,
    fragment: Vec<u8>,
}

fn parse(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = b"*".to_vec();
        return Ok(url);
    }
    let (scheme, mut rest) = scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = rest.get(..rest.len() - 1).unwrap_or_default();
    } else if let Some((r, q)) = rest.split_once('?') {
        rest = r;
        url.raw_query = q.to_owned();
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_owned();
            return Ok(url);
        }
        let segment = rest.split('/').next().unwrap_or_default();
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let after = rest.get(2..).unwrap_or_default();
        let (authority, remainder) = match after.find('/') {
            Some(i) => (
                after.get(..i).unwrap_or_default(),
                after.get(i..).unwrap_or_default(),
            ),
            None => (after, ""),
        };
        url.authority = Some(normalize_authority(&url.scheme, authority));
        rest = remainder;
    } else if !url.scheme.is_empty() && rest.starts_with('/') {
        url.omit_host = true;
    }
    url.path = unescape(rest)?;
    Ok(url)
}

/// Go's `getScheme`.
fn scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i == 0 => return Ok(("", raw)),
            b'0'..=b'9' | b'+' | b'-' | b'.' => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => {
                return Ok((
                    raw.get(..i).unwrap_or_default(),
                    raw.get(i + 1..).unwrap_or_default(),
                ));
            }
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn normalize_authority(scheme: &str, authority: &str) -> String {
    let (user, host) = match authority.rfind('@') {
        Some(i) => (
            authority.get(..=i).unwrap_or_default(),
            authority.get(i + 1..).unwrap_or_default(),
        ),
        None => ("", authority),
    };
    let mut host = host.to_ascii_lowercase();
    if (scheme == "http" && host.ends_with(":80")) || (scheme == "https" && host.ends_with(":443"))
    {
        if let Some(i) = host.rfind(':') {
            host.truncate(i);
        }
    }
    format!("{user}{host}")
}

fn fold_slashes(path: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(path.len());
    for &b in path {
        if !(b == b'/' && out.last() == Some(&b'/')) {
            out.push(b);
        }
    }
    out
}

impl Url {
    /// Go's `URL.String()` (with no raw path or raw fragment, as normalization leaves them).
    fn to_text(&self) -> String {
        let mut out = String::new();
        if !self.scheme.is_empty() {
            out.push_str(&self.scheme);
            out.push(':');
        }
        if !self.opaque.is_empty() {
            out.push_str(&self.opaque);
        } else {
            let host = self.authority.as_deref().unwrap_or_default();
            if !self.scheme.is_empty() || !host.is_empty() {
                let omitted = self.omit_host && host.is_empty();
                if !omitted && (!host.is_empty() || !self.path.is_empty()) {
                    out.push_str("//");
                }
                out.push_str(host);
            }
            let path = if self.path == b"*" {
                "*".to_owned()
            } else {
                escape(&self.path, Mode::Path)
            };
            if !path.is_empty() && !path.starts_with('/') && !host.is_empty() {
                out.push('/');
            }
            if out.is_empty() && path.split('/').next().unwrap_or_default().contains(':') {
                out.push_str("./");
            }
            out.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            out.push('?');
            out.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            out.push('#');
            out.push_str(&escape(&self.fragment, Mode::Fragment));
        }
        out
    }
}

/// Go's `unescape` for a path or a fragment: `%XX` decoded, anything else kept.
fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = |j: usize| bytes.get(j).and_then(|c| (*c as char).to_digit(16));
            match (hex(i + 1), hex(i + 2)) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                }
                _ => {
                    let bad = String::from_utf8_lossy(
                        bytes.get(i..(i + 3).min(bytes.len())).unwrap_or_default(),
                    )
                    .into_owned();
                    return Err(format!("invalid URL escape {}", quote(&bad)));
                }
            }
        } else {
            out.push(b);
            i += 1;
        }
    }
    Ok(out)
}

fn escape(bytes: &[u8], mode: Mode) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(bytes.len());
    for &c in bytes {
        if should_escape(c, mode) {
            out.push('%');
            out.push(char::from(HEX[usize::from(c >> 4)]));
            out.push(char::from(HEX[usize::from(c & 15)]));
        } else {
            out.push(char::from(c));
        }
    }
    out
}

/// Go's `shouldEscape` for paths and fragments.
fn should_escape(c: u8, mode: Mode) -> bool {
    match c {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            mode == Mode::Path && c == b'?'
        }
        b'!' | b'(' | b')' | b'*' => mode != Mode::Fragment,
        _ => true,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn go_texts() {
        // Observed from Go (kube-openapi spec.Ref, go-openapi/jsonreference v1.0.0).
        for (raw, want) in [
            (
                "#/definitions/io.k8s.api.core.v1.Pod",
                "#/definitions/io.k8s.api.core.v1.Pod",
            ),
            ("#/definitions/a b", "#/definitions/a%20b"),
            ("#/definitions/a%20b", "#/definitions/a%20b"),
            ("#/definitions/ü", "#/definitions/%C3%BC"),
            ("#/definitions/a\u{1}b", "#/definitions/a%01b"),
            ("#//definitions//s", "#//definitions//s"),
            (
                "HTTP://Example.COM:80/a//b.json#/definitions/s",
                "http://example.com/a/b.json#/definitions/s",
            ),
            ("#", ""),
            ("", ""),
        ] {
            assert_eq!(normalize(raw).unwrap(), want, "{raw}");
        }
        assert_eq!(
            normalize("#/definitions/a%zzb").unwrap_err(),
            "parse \"#/definitions/a%zzb\": invalid URL escape \"%zz\""
        );
        assert_eq!(last_segment("#/definitions/s?x=1"), "s?x=1");
        assert_eq!(last_segment("#abc"), "#abc");
    }
}
