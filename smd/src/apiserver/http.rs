//! The HTTP shape of a request and of the API server's answer, as a client sends and reads
//! them: no sockets, the same fields.

use smd_fieldpath::Value;

/// The largest request body the API server reads (`MaxRequestBodyBytes`, 3 MiB); a longer one
/// is refused with 413.
pub const MAX_REQUEST_BODY_BYTES: usize = 3 * 1024 * 1024;

/// The content type of a server-side apply.
pub const APPLY_PATCH: &str = "application/apply-patch+yaml";
/// The content type of a JSON merge patch (RFC 7386).
pub const MERGE_PATCH: &str = "application/merge-patch+json";
/// The content type of a JSON patch (RFC 6902).
pub const JSON_PATCH: &str = "application/json-patch+json";
/// The content type of a strategic merge patch (built-in kinds only).
pub const STRATEGIC_MERGE_PATCH: &str = "application/strategic-merge-patch+json";

/// Every patch content type the API server knows.
pub const PATCH_TYPES: &[&str] = &[JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH];

/// One request to the API server: what a client puts on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    pub method: String,
    /// The URL's path: `/api/v1/namespaces/default/configmaps/web`,
    /// `/apis/apps/v1/namespaces/default/deployments/web/scale`.
    pub path: String,
    /// The query parameters, in order (`fieldManager`, `force`, `dryRun`, `fieldValidation`).
    pub query: Vec<(String, String)>,
    /// The `Content-Type` header (`application/json` when empty).
    pub content_type: String,
    /// The body's bytes.
    pub body: Vec<u8>,
    /// The `User-Agent` header, whose product names the manager of a request without
    /// `fieldManager`.
    pub user_agent: String,
}

impl Request {
    /// A request with no query, no body and no User-Agent.
    pub fn new(method: impl Into<String>, path: impl Into<String>) -> Request {
        Request {
            method: method.into(),
            path: path.into(),
            query: Vec::new(),
            content_type: String::new(),
            body: Vec::new(),
            user_agent: String::new(),
        }
    }

    /// This request with the query parameter `name=value` added.
    pub fn with_query(mut self, name: impl Into<String>, value: impl Into<String>) -> Request {
        self.query.push((name.into(), value.into()));
        self
    }

    /// This request with `body`, sent as `content_type`.
    pub fn with_body(
        mut self,
        content_type: impl Into<String>,
        body: impl Into<Vec<u8>>,
    ) -> Request {
        self.content_type = content_type.into();
        self.body = body.into();
        self
    }

    /// This request with `value` as its JSON body (`application/json`, or `content_type` when
    /// given as a patch type).
    pub fn with_json(self, content_type: &str, value: &Value) -> Request {
        let text = value.to_json().unwrap_or_else(|_| value.to_string());
        let content_type = if content_type.is_empty() {
            "application/json"
        } else {
            content_type
        };
        self.with_body(content_type, text)
    }

    /// This request sent by `user_agent`.
    pub fn with_user_agent(mut self, user_agent: impl Into<String>) -> Request {
        self.user_agent = user_agent.into();
        self
    }

    /// The value of the query parameter `name` (the first one given, as Go's `url.Values`
    /// reads it), or `""`.
    pub fn query_value(&self, name: &str) -> &str {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// Every value given for the query parameter `name`, in order.
    pub fn query_values(&self, name: &str) -> Vec<&str> {
        self.query
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// The API server's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The HTTP status code.
    pub code: u16,
    /// The object (stored, or what a dry run would store), or a `meta/v1` `Status` with
    /// `status`, `message`, `reason`, `details` and `code`.
    pub body: Value,
    /// The warnings' texts (`unknown field "spec.foo"`), in order; [`Response::warning_headers`]
    /// gives the `Warning` headers the server would send for them.
    pub warnings: Vec<String>,
}

/// The server's limits on `Warning` headers: the runes of all texts together, then of each text
/// once the total is exceeded (k8s.io/apiserver's warning recorder).
const WARNING_TOTAL_RUNES: usize = 4 * 1024;
const WARNING_ITEM_RUNES: usize = 256;

impl Response {
    /// Whether the code is a success (2xx).
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.code)
    }

    /// A refusal's `reason` (`Conflict`, `NotFound`, ...), if the body is a Status with one.
    pub fn reason(&self) -> Option<&str> {
        self.status_field("reason")
    }

    /// A refusal's `message`, if the body is a Status with one.
    pub fn message(&self) -> Option<&str> {
        self.status_field("message")
    }

    /// The `Warning` header values the server sends for [`Response::warnings`], in order:
    /// `299 - "text"` with `"` and `\` escaped, each text once, texts holding a control
    /// character left out (the server refuses to write them), and every text cut to 256
    /// characters once all of them together exceed 4096, as k8s.io/apiserver does.
    pub fn warning_headers(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut kept: Vec<&str> = Vec::new();
        let mut headers = Vec::new();
        let mut written = 0;
        let mut truncating = false;
        for text in &self.warnings {
            if text.is_empty() || !seen.insert(text.as_str()) {
                continue;
            }
            kept.push(text);
            let runes = text.chars().count();
            if truncating {
                if let Some(h) = warning_header(text, WARNING_ITEM_RUNES) {
                    headers.push(h);
                }
            } else if written + runes <= WARNING_TOTAL_RUNES {
                written += runes;
                if let Some(h) = warning_header(text, usize::MAX) {
                    headers.push(h);
                }
            } else {
                // Past the limit the server starts over, cutting every text so far.
                truncating = true;
                headers = kept
                    .iter()
                    .filter_map(|t| warning_header(t, WARNING_ITEM_RUNES))
                    .collect();
            }
        }
        headers
    }

    fn status_field(&self, key: &str) -> Option<&str> {
        let map = self.body.as_map()?;
        if map.get("kind").and_then(Value::as_str) != Some("Status") {
            return None;
        }
        map.get(key).and_then(Value::as_str)
    }
}

/// One `Warning` header (code 299, agent `-`) for the first `max_runes` characters of `text`, or
/// none when the text holds a control character.
fn warning_header(text: &str, max_runes: usize) -> Option<String> {
    let mut out = String::from("299 - \"");
    for c in text.chars().take(max_runes) {
        if c.is_control() {
            return None;
        }
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(texts: &[&str]) -> Vec<String> {
        Response {
            code: 200,
            body: Value::Null,
            warnings: texts.iter().map(|t| t.to_string()).collect(),
        }
        .warning_headers()
    }

    #[test]
    fn warning_headers_quote_dedupe_and_skip_control_characters() {
        // The form a real kube-apiserver 1.37.2 sent (conformance/apiserver/goldens).
        assert_eq!(
            headers(&[r#"unknown field "extra""#]),
            [r#"299 - "unknown field \"extra\"""#]
        );
        assert_eq!(headers(&[r"a\b", "", r"a\b"]), [r#"299 - "a\\b""#]);
        assert_eq!(headers(&["bad\u{7}bell", "ok"]), [r#"299 - "ok""#]);
    }

    #[test]
    fn warning_headers_past_the_total_are_cut() {
        let long = "x".repeat(3000);
        let other = "y".repeat(3000);
        let got = headers(&[&long, &other, "z"]);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], format!("299 - \"{}\"", "x".repeat(256)));
        assert_eq!(got[1], format!("299 - \"{}\"", "y".repeat(256)));
        assert_eq!(got[2], "299 - \"z\"");
        assert_eq!(headers(&[&long]), [format!("299 - \"{long}\"")]);
    }
}
