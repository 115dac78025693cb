//! smd: Kubernetes Server-Side Apply as a library. The typed and merge layers arrive later; for
//! now this crate re-exports the field-path layer.

#![deny(missing_docs)]

pub use smd_fieldpath as fieldpath;
