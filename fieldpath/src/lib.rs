//! Values, field paths, field sets and the `fieldsV1` wire format of Kubernetes Server-Side Apply.
//!
//! This is the bottom layer of smd, the Rust implementation of structured-merge-diff:
//! [`Value`] is a dynamic object value with Go's equality, order and text; a [`PathElement`]
//! names one step into a value (a field, a keyed list item, a set member or a list index); a
//! [`Set`] is a set of paths, the unit of field ownership, and reads and writes the exact
//! `fieldsV1` bytes the API server stores in `metadata.managedFields`.

#![deny(missing_docs)]

mod control;
mod element;
mod error;
mod fieldsv1;
mod filter;
mod from_value;
mod json;
mod managers;
mod name;
mod path;
mod set;
pub mod value;
pub mod yaml;

pub use control::is_terminal_control;
pub use element::{Key, KeyField, PathElement};
pub use error::{Error, ErrorKind, Location, Result};
pub use filter::{ElementPattern, ExcludeFilter, Filter, IncludeFilter, SetMatcher};
pub use managers::{ManagedFields, VersionedSet};
pub use name::Name;
pub use path::Path;
pub use set::{Paths, Set};

/// How deeply any input may nest (maps and lists in values, levels of a `fieldsV1` document)
/// before a reader refuses it with an [`ErrorKind::Limit`] error.
///
/// Go's readers allow more (json-iterator stops at 10,000 levels), but every walk in smd recurses
/// once per level, and a thousand levels is far beyond any Kubernetes object; the bound keeps a
/// hostile document from overflowing the stack.
pub const MAX_DEPTH: usize = 1000;
pub use value::{Kind, Map, Value};

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
