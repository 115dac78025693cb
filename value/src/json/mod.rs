//! JSON as Go's structured-merge-diff reads and writes it (json-iterator in its
//! standard-library-compatible configuration): the reader behind `value.FromJSON` and the
//! `fieldsV1` parser, with the same acceptance and the same error text, and the writer with its
//! two string escapers and its float text.
//!
//! [`Value::from_json`](crate::Value::from_json) and [`Value::to_json`](crate::Value::to_json)
//! are the whole-document forms. The parts here are for readers and writers built on the same
//! iterator, as smd-fieldpath's `fieldsV1` codec is: Go's `fieldsV1` parser drives json-iterator
//! token by token, and its acceptance, its errors and the partial set it leaves depend on which
//! operation reads each token, so a port calls [`Reader`]'s operations in Go's order.
//!
//! ```
//! use smd_value::json::Reader;
//! let mut reader = Reader::new(br#"{"a": 1, "b": [true]}"#);
//! let mut keys = Vec::new();
//! reader.read_map_cb(|reader, key| {
//!     keys.push(key.into_owned());
//!     reader.skip();
//!     true
//! });
//! assert_eq!(keys, [b"a".to_vec(), b"b".to_vec()]);
//! assert!(reader.expect_end().is_ok());
//! ```

mod read;
mod write;

pub use read::{Reader, SET_FROM_JSON_BUFFER};
pub use write::{stream_result, write_int, write_key_string, write_value, write_value_stream};
