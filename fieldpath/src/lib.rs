//! Values, field paths, field sets and the `fieldsV1` wire format of Kubernetes Server-Side Apply.
//!
//! This is the bottom layer of smd, the Rust implementation of structured-merge-diff:
//! [`Value`] is a dynamic object value with Go's equality, order and text; a [`PathElement`]
//! names one step into a value (a field, a keyed list item, a set member or a list index); a
//! [`Set`] is a set of paths, the unit of field ownership, and reads and writes the exact
//! `fieldsV1` bytes the API server stores in `metadata.managedFields`.

#![deny(missing_docs)]

mod error;
mod json;
pub mod value;
pub mod yaml;

pub use error::{Error, ErrorKind, Location, Result};
pub use value::{Kind, Map, Value};
