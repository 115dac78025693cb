//! smd: Kubernetes Server-Side Apply as a library.
//!
//! * [`fieldpath`]: values, paths, field sets and their `fieldsV1` wire format;
//! * [`typed`]: values paired with their schema type: validate, field sets, compare, merge,
//!   remove and extract, reconcile;
//! * [`merge`]: the Updater: apply and update per manager, with conflicts;
//! * [`managedfields`]: the API server's layer: whole objects, `metadata.managedFields`,
//!   manager identity and times, the cap of Update managers, reset fields, scale;
//! * [`extract`]: the applied configuration a manager owns in an object, ready to change and
//!   apply again (apimachinery's `ExtractInto`, for any kind, custom resources included);
//! * [`builtin`]: built-in objects as the API server decodes and defaults them;
//! * [`patch`]: the PATCH types: JSON merge patch, JSON patch, strategic merge patch;
//! * [`validation`]: what the registry refuses with 422 `Invalid`, in its words;
//! * [`apiserver`]: an in-memory API server answering HTTP-shaped requests as a real one.

#![deny(missing_docs)]

pub use smd_fieldpath as fieldpath;

pub mod apiserver;
pub mod builtin;
pub mod customresource;
pub mod managedfields;
pub mod merge;
pub mod patch;
pub mod report;
pub mod typed;
pub mod validation;

pub use managedfields::{ExtractError, extract};
