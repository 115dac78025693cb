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
    /// The `Warning` headers' texts (`unknown field "spec.foo"`), in order.
    pub warnings: Vec<String>,
}

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

    fn status_field(&self, key: &str) -> Option<&str> {
        let map = self.body.as_map()?;
        if map.get("kind").and_then(Value::as_str) != Some("Status") {
            return None;
        }
        map.get(key).and_then(Value::as_str)
    }
}
