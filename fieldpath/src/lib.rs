//! Field paths, field sets and the `fieldsV1` wire format of Kubernetes Server-Side Apply.
//!
//! The layer of smd, the Rust implementation of structured-merge-diff, above the values of
//! `smd-value` (re-exported here: [`Value`], [`Map`], [`yaml`], [`value`]): a [`PathElement`]
//! names one step into a value (a field, a keyed list item, a set member or a list index); a
//! [`Path`] is a sequence of them; a [`Set`] is a set of paths, the unit of field ownership, and
//! reads and writes the exact `fieldsV1` bytes the API server stores in
//! `metadata.managedFields`.
//!
//! ```
//! use smd_fieldpath::{PathElement, Set, Value};
//! let set = Set::from_fields_v1(br#"{"f:spec":{"f:replicas":{}}}"#)?;
//! let replicas = [PathElement::field("spec"), PathElement::field("replicas")];
//! assert!(set.has(&replicas));
//! assert_eq!(set.to_fields_v1()?, br#"{"f:spec":{"f:replicas":{}}}"#);
//! let live = Value::from_json(r#"{"spec":{"replicas":3}}"#)?;
//! assert_eq!(Set::from_value(&live).to_fields_v1()?, set.to_fields_v1()?);
//! # Ok::<(), smd_fieldpath::Error>(())
//! ```

#![deny(missing_docs)]

mod element;
mod error;
mod fieldsv1;
mod filter;
mod from_value;
mod managers;
mod name;
mod path;
mod set;

pub use element::{Key, KeyField, PathElement};
pub use error::{Error, ErrorKind, Result};
pub use filter::{ElementPattern, ExcludeFilter, Filter, IncludeFilter, SetMatcher};
pub use managers::{ManagedFields, VersionedSet};
pub use name::Name;
pub use path::Path;
pub use set::{Fragility, Paths, Set};

// The value concept lives in smd-value; these keep `smd_fieldpath::Value`,
// `smd_fieldpath::yaml::from_str` and the like working for the crates above.
pub use smd_value::{Kind, Location, MAX_DEPTH, Map, Value, is_terminal_control, value, yaml};

/// Counts `units` of work in unit tests; nothing otherwise.
#[inline(always)]
pub(crate) fn count_work(units: usize) {
    #[cfg(test)]
    work::add(units);
    #[cfg(not(test))]
    let _ = units;
}

/// Work the set builders do, counted in unit tests so that a scaling bound can be checked
/// without a clock: one unit per element comparison and per element shifted by an insertion.
#[cfg(test)]
pub(crate) mod work {
    use std::cell::Cell;

    thread_local! {
        static UNITS: Cell<u64> = const { Cell::new(0) };
    }

    pub(crate) fn add(units: usize) {
        UNITS.with(|u| u.set(u.get().saturating_add(units as u64)));
    }

    /// The units counted on this thread since the last call.
    pub(crate) fn take() -> u64 {
        UNITS.with(|u| u.replace(0))
    }
}
