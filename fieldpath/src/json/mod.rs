//! JSON as Go's structured-merge-diff reads and writes it (json-iterator in its
//! standard-library-compatible configuration): the reader behind `value.FromJSON` and the
//! `fieldsV1` parser, with the same acceptance and the same error text, and the writer with its
//! two string escapers and its float text.

pub(crate) mod read;
pub(crate) mod write;
