//! Temporary (branch h2 only): declares the leaf modules so they compile on their own; the
//! lead writes the real module.
#![allow(dead_code)]
pub(crate) mod formats;
pub(crate) mod pattern;
