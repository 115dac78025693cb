//! Path elements in ordered collections: a list's items are indexed by their path element in
//! a B-tree under Go's total order of path elements, so looking an item up costs O(log n) and
//! a list of 10,000 keyed items is never scanned once per item.

use std::cmp::Ordering;

use smd_fieldpath::PathElement;

/// A path element ordered (and equal) as Go orders path elements.
#[derive(Clone, Debug)]
pub(crate) struct Ordered(pub(crate) PathElement);

impl PartialEq for Ordered {
    fn eq(&self, other: &Ordered) -> bool {
        self.0.compare(&other.0) == Ordering::Equal
    }
}

impl Eq for Ordered {}

impl PartialOrd for Ordered {
    fn partial_cmp(&self, other: &Ordered) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ordered {
    fn cmp(&self, other: &Ordered) -> Ordering {
        self.0.compare(&other.0)
    }
}
