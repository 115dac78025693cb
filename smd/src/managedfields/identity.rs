//! Manager identity: the key the field manager files each manager's set under
//! (`BuildManagerIdentifier`, `IN/managedfields.go:134-159`).
//!
//! The key is the Go JSON encoding of the entry's manager, operation, apiVersion and
//! subresource, in that order, empty ones left out, and with no apiVersion for `Apply`:
//! `{"manager":"m","operation":"Update","apiVersion":"apps/v1","subresource":"status"}`,
//! `{"manager":"m","operation":"Apply"}`. So one name under Apply and under Update is two
//! managers, Update managers of two apiVersions or subresources are distinct, and an Apply
//! manager keeps one entry across apiVersions. Sorting and grouping compare these strings
//! byte-wise, which is not the order of the names (`"m!"` sorts before `"m"`).

use std::fmt;

use smd_fieldpath::value::gojson::write_string;

/// `Apply` or `Update`: how a manager last wrote its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// Server-side apply.
    Apply,
    /// Create, update or a non-apply patch.
    Update,
}

impl Operation {
    /// The wire text: `Apply` or `Update`.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }

    /// The operation a wire text names, exactly (`apply` is not one).
    pub fn from_wire(text: &str) -> Option<Operation> {
        match text {
            "Apply" => Some(Operation::Apply),
            "Update" => Some(Operation::Update),
            _ => None,
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who a manager is: the parts of an entry its identity is made of.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ManagerId {
    /// The manager's name (`kubectl`).
    pub manager: String,
    /// `Apply` or `Update` as written (an identity read back keeps whatever text it had).
    pub operation: String,
    /// The apiVersion; always empty for `Apply`.
    pub api_version: String,
    /// The subresource (`status`, `scale`), empty for the main resource.
    pub subresource: String,
}

impl ManagerId {
    /// The identity of a manager writing with `operation` at `api_version` through
    /// `subresource` (the apiVersion is dropped for `Apply`).
    pub fn new(
        manager: impl Into<String>,
        operation: Operation,
        api_version: impl Into<String>,
        subresource: impl Into<String>,
    ) -> ManagerId {
        ManagerId {
            manager: manager.into(),
            operation: operation.as_str().to_owned(),
            api_version: if operation == Operation::Apply {
                String::new()
            } else {
                api_version.into()
            },
            subresource: subresource.into(),
        }
    }

    /// The key: Go's `json.Marshal` of the entry's identifying fields.
    ///
    /// ```
    /// use smd::managedfields::{ManagerId, Operation};
    /// let id = ManagerId::new("hpa<1>", Operation::Update, "autoscaling/v1", "scale");
    /// assert_eq!(
    ///     id.key(),
    ///     r#"{"manager":"hpa\u003c1\u003e","operation":"Update","apiVersion":"autoscaling/v1","subresource":"scale"}"#
    /// );
    /// ```
    pub fn key(&self) -> String {
        let mut out = String::with_capacity(64);
        out.push('{');
        let mut field = |name: &str, value: &str| {
            if value.is_empty() {
                return;
            }
            if out.len() > 1 {
                out.push(',');
            }
            write_string(&mut out, name);
            out.push(':');
            write_string(&mut out, value);
        };
        field("manager", &self.manager);
        field("operation", &self.operation);
        field("apiVersion", &self.api_version);
        field("subresource", &self.subresource);
        out.push('}');
        out
    }

    /// Reads a key back (Go's `json.Unmarshal` of it into an entry); `None` when it is not a
    /// JSON object of strings.
    pub fn from_key(key: &str) -> Option<ManagerId> {
        let serde_json::Value::Object(map) = serde_json::from_str(key).ok()? else {
            return None;
        };
        let mut id = ManagerId::default();
        for (k, v) in map {
            let slot = match k.as_str() {
                "manager" => &mut id.manager,
                "operation" => &mut id.operation,
                "apiVersion" => &mut id.api_version,
                "subresource" => &mut id.subresource,
                _ => continue,
            };
            match v {
                serde_json::Value::String(s) => *slot = s,
                serde_json::Value::Null => {}
                _ => return None,
            }
        }
        Some(id)
    }

    /// How the API server names this manager in a conflict (`printManager`,
    /// `IN/conflict.go:73-89`): the quoted name, ` with subresource "s"` when there is one,
    /// and ` using <apiVersion>` for `Update` managers only.
    pub fn describe(&self) -> String {
        let mut out = quote(&self.manager);
        if !self.subresource.is_empty() {
            out.push_str(" with subresource ");
            out.push_str(&quote(&self.subresource));
        }
        if self.operation == Operation::Update.as_str() {
            out.push_str(" using ");
            out.push_str(&self.api_version);
        }
        out
    }
}

/// Go's `%q` of a string (`strconv.Quote`).
pub(crate) fn quote(s: &str) -> String {
    smd_fieldpath::Value::from(s).to_string()
}

/// How the API server names the manager filed under `key` in a conflict: [`ManagerId::describe`],
/// or the quoted key when it does not read back.
pub(crate) fn describe_key(key: &str) -> String {
    ManagerId::from_key(key).map_or_else(|| quote(key), |id| id.describe())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn keys_as_go_marshals_them() {
        // IN/managedfields_test.go:298 (TestBuildManagerIdentifier) pins these shapes.
        assert_eq!(
            ManagerId::new("m", Operation::Update, "apps/v1", "").key(),
            r#"{"manager":"m","operation":"Update","apiVersion":"apps/v1"}"#
        );
        assert_eq!(
            ManagerId::new("m", Operation::Apply, "apps/v1", "scale").key(),
            r#"{"manager":"m","operation":"Apply","subresource":"scale"}"#
        );
        // An empty name is a valid identity (IN/managedfields.go:134-159 checks nothing).
        assert_eq!(
            ManagerId::new("", Operation::Update, "v1", "").key(),
            r#"{"operation":"Update","apiVersion":"v1"}"#
        );
    }

    #[test]
    fn keys_sort_bytewise() {
        // `"` (0x22) follows the name: "m!" < "m" < "m2"; no name sorts after every name.
        let key = |m: &str| ManagerId::new(m, Operation::Update, "v1", "").key();
        assert!(key("m!") < key("m"));
        assert!(key("a b") < key("a"));
        assert!(key("m") < key("m2"));
        assert!(key("zzz") < key(""));
    }

    #[test]
    fn round_trip_and_describe() {
        let id = ManagerId::new("autoscaler", Operation::Update, "apps/v1", "scale");
        assert_eq!(ManagerId::from_key(&id.key()), Some(id.clone()));
        // IN/conflict.go:73-89.
        assert_eq!(
            id.describe(),
            r#""autoscaler" with subresource "scale" using apps/v1"#
        );
        assert_eq!(
            ManagerId::new("kubectl", Operation::Apply, "v1", "").describe(),
            r#""kubectl""#
        );
        assert_eq!(describe_key("not json"), r#""not json""#);
    }
}
