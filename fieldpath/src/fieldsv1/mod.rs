//! The `fieldsV1` wire format: the bytes the API server stores in
//! `metadata.managedFields[].fieldsV1`.
//!
//! A set is a JSON object per trie node. Its keys are serialized path elements (`f:name`,
//! `k:{"name":"a"}`, `v:80`, `i:3`) in [`crate::PathElement`] order — not string order — and a
//! member that also has children carries a `"."` key first. The writer reproduces Go's bytes
//! exactly, including its two string escapers (field names raw, string values HTML-escaped) and
//! its float text. The reader accepts and refuses what Go does, with Go's leniency: unknown
//! element kinds are dropped, `null` values are members, duplicate keys merge.

mod element;
mod fast;
mod read;
mod write;
