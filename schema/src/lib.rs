//! Schemas of Kubernetes Server-Side Apply: named types (maps with fields, lists, scalars,
//! untyped), element relationships and list keys.
//!
//! This crate is still empty: the schema model, SMD's schema YAML and the OpenAPI/CRD conversion
//! arrive with the schema work (see `docs/ARCHITECTURE.md`).

#![deny(missing_docs)]
