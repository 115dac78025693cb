//! Shared rendering: objects as `kubectl get -o yaml` prints them, JSON, and colors.

use std::io::IsTerminal;

use clap::ValueEnum;
use smd::fieldpath::Value;

/// When to color the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum ColorChoice {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    pub(crate) fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

/// ANSI styles, or none.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Paint {
    pub(crate) on: bool,
}

impl Paint {
    fn wrap(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
    pub(crate) fn red(self, text: &str) -> String {
        self.wrap("31", text)
    }
    pub(crate) fn green(self, text: &str) -> String {
        self.wrap("32", text)
    }
    pub(crate) fn yellow(self, text: &str) -> String {
        self.wrap("33", text)
    }
    pub(crate) fn cyan(self, text: &str) -> String {
        self.wrap("36", text)
    }
    pub(crate) fn bold(self, text: &str) -> String {
        self.wrap("1", text)
    }
    pub(crate) fn dim(self, text: &str) -> String {
        self.wrap("2", text)
    }
    /// `text` in the color of SGR parameter `code` (one of [`crate::terminal`]'s own codes).
    pub(crate) fn code(self, code: &str, text: &str) -> String {
        self.wrap(code, text)
    }
}

/// `value` with every map's keys sorted, as the API server's JSON and kubectl's YAML show them.
pub(crate) fn sorted(value: &Value) -> Value {
    smd::fieldpath::yaml::sorted(value)
}

/// `object` without `metadata.managedFields` (as `kubectl get` hides them).
pub(crate) fn without_managed_fields(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(meta) = object
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
    {
        meta.remove("managedFields");
    }
    object
}

/// The YAML of an object, keys sorted.
pub(crate) fn yaml(object: &Value) -> String {
    smd::fieldpath::yaml::to_string_sorted(object)
}

/// A value on one line, as JSON (for values in reports: `5`, `"nginx:1.27"`, `{"a":1}`).
pub(crate) fn inline(value: &Value) -> String {
    serde_json::to_string(&to_json(value)).unwrap_or_default()
}

/// A value as JSON, keys sorted.
pub(crate) fn to_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Int(i) => serde_json::Value::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or_else(
            || serde_json::Value::String(f.to_string()),
            serde_json::Value::Number,
        ),
        Value::String(s) => serde_json::Value::String(s.clone()),
        Value::List(items) => serde_json::Value::Array(items.iter().map(to_json).collect()),
        Value::Map(m) => {
            // Go's encoding/json sorts keys by bytes (kubectl's YAML order is yaml.v2's).
            let mut entries: Vec<(&str, &Value)> = m.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            serde_json::Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), to_json(v)))
                    .collect(),
            )
        }
    }
}
