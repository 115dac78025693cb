//! smd: Kubernetes Server-Side Apply as a library.
//!
//! * [`fieldpath`]: values, paths, field sets and their `fieldsV1` wire format;
//! * [`typed`]: values paired with their schema type: validate, field sets, compare, merge,
//!   remove and extract, reconcile;
//! * [`merge`]: the Updater: apply and update per manager, with conflicts.

#![deny(missing_docs)]

pub use smd_fieldpath as fieldpath;

pub mod merge;
pub mod typed;
