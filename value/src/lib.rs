//! The values Kubernetes objects are made of, and their JSON and YAML text as Kubernetes reads
//! and writes them.
//!
//! This is the bottom layer of smd, the Rust implementation of structured-merge-diff, and the
//! counterpart of Go's `value` package: [`Value`] is a dynamic object value (null, bool, int64,
//! float64, string, list, map in insertion order) with Go's equality, order and text;
//! [`Value::from_json`] reads JSON with json-iterator's acceptance and error text, [`yaml`] reads
//! YAML 1.1 as go-yaml v2 resolves it and writes it as `kubectl get -o yaml` does. Field paths
//! and sets are built on it in `smd-fieldpath`; schemas read their documents through it.
//!
//! ```
//! use smd_value::{Value, yaml};
//! let value = yaml::from_str("replicas: 3\nenabled: yes\n")?;
//! assert_eq!(value, Value::from_json(r#"{"replicas": 3.0, "enabled": true}"#)?);
//! assert_eq!(value.to_json()?, r#"{"enabled":true,"replicas":3}"#);
//! # Ok::<(), smd_value::Error>(())
//! ```

#![deny(missing_docs)]

mod control;
mod error;
pub mod json;
pub mod value;
pub mod yaml;

pub use control::{escape_controls, is_terminal_control, push_escaped};
pub use error::{Error, ErrorKind, Location, Result};
pub use value::{Kind, Map, MapKey, Value};

/// How deeply any input may nest (maps and lists in values, levels of a `fieldsV1` document)
/// before a reader refuses it with an [`ErrorKind::Limit`] error.
///
/// Go's readers allow more (json-iterator stops at 10,000 levels), but every walk in smd recurses
/// once per level, and a thousand levels is far beyond any Kubernetes object; the bound keeps a
/// hostile document from overflowing the stack.
pub const MAX_DEPTH: usize = 1000;
