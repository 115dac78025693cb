//! The requests of a cluster read: discovery, one object's GET, a collection's paged list,
//! and the server's answers made objects. Every request is a GET; names are percent-encoded
//! into their path segment, so no manifest can aim a read elsewhere.

use std::collections::BTreeMap;

use smd::fieldpath::Value;
use smd::managedfields::normalize_numbers;

use super::super::objects::{Object, Origin};
use super::Wanted;

/// Objects per page of a list: bounds what one answer holds in memory.
const LIST_PAGE: usize = 100;

/// One object to read, placed.
#[derive(Debug, Clone)]
pub(super) struct Read {
    /// The wanted identity's place in the answers.
    pub(super) index: usize,
    /// Its collection's path (`/apis/apps/v1/namespaces/NS/deployments`).
    pub(super) collection: String,
    /// Its name, as the URL carries it.
    pub(super) segment: String,
    /// How messages and the object's origin name it.
    pub(super) origin: String,
    pub(super) wanted: Wanted,
}

/// What a read task gives back: answers, and the reads to make one by one (a list refused).
#[derive(Debug)]
pub(super) struct Done {
    pub(super) answers: Vec<(usize, Result<Option<Object>, String>)>,
    pub(super) retry: Vec<Read>,
}

/// A kind as discovery serves it.
#[derive(Debug, Clone)]
pub(super) struct Served {
    pub(super) plural: String,
    pub(super) namespaced: bool,
}

/// What discovery says of one group-version: its kinds, or why it cannot be read.
pub(super) type GroupVersion = Result<BTreeMap<String, Served>, String>;

/// `group/version`, or `version` for the core group.
pub(super) fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// The discovery path of a group-version, and the root of its resources' paths.
pub(super) fn api_root(group: &str, version: &str) -> String {
    let (group, version) = (escape_segment(group), escape_segment(version));
    if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    }
}

/// `text` as one path segment, every byte outside RFC 3986's unreserved set and `:@`
/// percent-encoded; none for the segments a URL cannot carry (`.`, `..`) and for an empty name.
pub(super) fn segment(text: &str) -> Option<String> {
    match text {
        "" | "." | ".." => None,
        _ => Some(escape_segment(text)),
    }
}

pub(super) fn escape_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The client, and the most bytes one answer may take (`--max-document-size`).
#[derive(Clone)]
pub(super) struct Reader {
    pub(super) client: kube::Client,
    pub(super) limit: usize,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// Why a GET gave no answer.
#[derive(Debug)]
pub(super) enum Failed {
    /// The server's refusal: its code, reason and message.
    Status {
        code: u16,
        reason: String,
        message: String,
    },
    /// No answer from the server (connection, TLS, credentials, an answer too large).
    Other(String),
}

/// A GET of `path`: the answer's text, read up to the reader's limit.
pub(super) async fn get(client: &Reader, path: &str) -> Result<String, Failed> {
    use http_body_util::BodyExt;
    let request = http::Request::get(path)
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(Vec::new()))
        .map_err(|e| Failed::Other(e.to_string()))?;
    let response = client
        .client
        .send(request)
        .await
        .map_err(|e| Failed::Other(error_chain(&e)))?;
    let status = response.status();
    let body = http_body_util::Limited::new(response.into_body(), client.limit);
    let bytes = body
        .collect()
        .await
        .map_err(|e| {
            Failed::Other(format!(
                "the answer to GET {path} is broken off or larger than {} bytes \
                 (--max-document-size): {e}",
                client.limit
            ))
        })?
        .to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if status.is_success() {
        return Ok(text);
    }
    // The server's Status carries its reason and message; anything else is shown as it came.
    let parsed: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let field = |key: &str| parsed[key].as_str().map(str::to_owned);
    Err(Failed::Status {
        code: status.as_u16(),
        reason: field("reason")
            .unwrap_or_else(|| status.canonical_reason().unwrap_or_default().to_owned()),
        message: field("message").unwrap_or(text),
    })
}

/// The kinds a discovery document serves (subresources left out).
pub(super) async fn discovery(client: &Reader, path: &str) -> GroupVersion {
    let text = get(client, path)
        .await
        .map_err(|e| format!("discovery of {path}: {}", described(&e)))?;
    let list: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("discovery of {path}: not an APIResourceList: {e}"))?;
    let mut kinds = BTreeMap::new();
    for resource in list["resources"].as_array().into_iter().flatten() {
        let (Some(name), Some(kind)) = (resource["name"].as_str(), resource["kind"].as_str())
        else {
            continue;
        };
        if name.contains('/') {
            continue;
        }
        kinds.entry(kind.to_owned()).or_insert(Served {
            plural: name.to_owned(),
            namespaced: resource["namespaced"].as_bool().unwrap_or(false),
        });
    }
    Ok(kinds)
}

/// One object: `Ok(None)` for a 404, the server's message for another refusal.
pub(super) async fn read_one(
    client: &Reader,
    path: &str,
    read: &Read,
) -> Result<Option<Object>, String> {
    let text = match get(client, path).await {
        Ok(text) => text,
        Err(Failed::Status { code: 404, .. }) => return Ok(None),
        Err(e) => {
            return Err(format!(
                "reading its live object from {}: {}",
                read.origin,
                described(&e)
            ));
        }
    };
    let value = one_value(&text).map_err(|e| format!("{}: {e}", read.origin))?;
    Ok(Some(object(value, read)))
}

/// The objects of `reads` (one collection) from its list, page by page until every one is
/// found or the list ends (then the others do not exist); a refused or broken list leaves the
/// reads not yet answered to be made one by one.
pub(super) async fn list(client: &Reader, reads: Vec<Read>) -> Done {
    let collection = reads
        .first()
        .map(|r| r.collection.clone())
        .unwrap_or_default();
    let mut pending: BTreeMap<String, Vec<Read>> = BTreeMap::new();
    for read in reads {
        pending
            .entry(read.wanted.name.clone())
            .or_default()
            .push(read);
    }
    let mut answers = Vec::new();
    let mut token = String::new();
    loop {
        let mut path = format!("{collection}?limit={LIST_PAGE}");
        if !token.is_empty() {
            path.push_str("&continue=");
            path.push_str(&escape_segment(&token));
        }
        let page = match get(client, &path).await.map(|t| one_value(&t)) {
            Ok(Ok(page)) => page,
            _ => {
                return Done {
                    answers,
                    retry: pending.into_values().flatten().collect(),
                };
            }
        };
        let items = page
            .as_map()
            .and_then(|m| m.get("items"))
            .and_then(Value::as_list)
            .unwrap_or_default();
        for item in items {
            let name = item
                .as_map()
                .and_then(|m| m.get("metadata"))
                .and_then(Value::as_map)
                .and_then(|m| m.get("name"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            for read in pending.remove(name).into_iter().flatten() {
                answers.push((read.index, Ok(Some(object(item.clone(), &read)))));
            }
        }
        token = page
            .as_map()
            .and_then(|m| m.get("metadata"))
            .and_then(Value::as_map)
            .and_then(|m| m.get("continue"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if pending.is_empty() || token.is_empty() {
            break;
        }
    }
    answers.extend(pending.into_values().flatten().map(|r| (r.index, Ok(None))));
    Done {
        answers,
        retry: Vec::new(),
    }
}

/// The one JSON value of a server's answer.
pub(super) fn one_value(text: &str) -> Result<Value, String> {
    let mut values = super::super::objects::values(text.as_bytes())
        .map_err(|e| format!("the server's answer is not an object: {e}"))?;
    match (values.pop(), values.is_empty()) {
        (Some(value), true) => Ok(value),
        _ => Err("the server's answer is not one object".to_owned()),
    }
}

/// A read object, numbers as JSON decoding makes them, with its apiVersion and kind (a list's
/// items of a built-in kind carry neither; a GET's do, and kubectl shows both).
pub(super) fn object(mut value: Value, read: &Read) -> Object {
    normalize_numbers(&mut value);
    if let Some(map) = value.as_map_mut() {
        if !map.contains_key("apiVersion") {
            let gv = group_version(&read.wanted.group, &read.wanted.version);
            map.insert("apiVersion", Value::from(gv.as_str()));
        }
        if !map.contains_key("kind") {
            map.insert("kind", Value::from(read.wanted.kind.as_str()));
        }
    }
    Object {
        origin: Origin {
            file: read.origin.clone(),
            document: 0,
            line: 0,
            item: None,
        },
        value,
    }
}

/// An error as the user needs it: the server's status and message, or the cause.
pub(super) fn described(e: &Failed) -> String {
    let text = match e {
        Failed::Status {
            code,
            reason,
            message,
        } => format!("{code} {reason}: {message}"),
        Failed::Other(cause) => cause.clone(),
    };
    super::super::terminal::escape(&text).into_owned()
}

/// An error with its causes, as one line.
pub(super) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn segments_cannot_leave_their_place() {
        assert_eq!(segment("web-1.a"), Some("web-1.a".to_owned()));
        assert_eq!(segment("system:x@y"), Some("system:x@y".to_owned()));
        assert_eq!(segment("a/b?c#d%"), Some("a%2Fb%3Fc%23d%25".to_owned()));
        assert_eq!(segment(".."), None);
        assert_eq!(segment(""), None);
        assert_eq!(segment("."), None);
        assert_eq!(api_root("", "v1"), "/api/v1");
        assert_eq!(api_root("apps", "v1"), "/apis/apps/v1");
    }
}
