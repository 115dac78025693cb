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

/// Smaller lists are checked pairwise; from this many distinct elements on, by a B-tree.
const PAIRWISE: usize = 16;

/// The distinct path elements of a list's items seen so far, answering as a B-tree of
/// [`Ordered`] elements answers (what Go's sorted sets answer while the order is total) but
/// without allocating per element for short lists: while the order is total and the list
/// short, a pairwise scan gives the same answers; once it is not (a NaN, an int beyond 2^53
/// with a float) or the list grows, the elements go into the B-tree in the order they came,
/// which builds the very tree the original insertions would have built.
#[derive(Default)]
pub(crate) struct Seen {
    few: smallvec::SmallVec<[PathElement; 4]>,
    fragility: smd_fieldpath::Fragility,
    tree: Option<std::collections::BTreeSet<Ordered>>,
}

impl Seen {
    /// Adds `pe`; false when an equal element was there already.
    pub(crate) fn insert(&mut self, pe: &PathElement) -> bool {
        if let Some(tree) = self.tree_with(pe) {
            return tree.insert(Ordered(pe.clone()));
        }
        if self.contains_few(pe) {
            return false;
        }
        self.few.push(pe.clone());
        true
    }

    /// Whether an element equal to `pe` is there.
    pub(crate) fn contains(&mut self, pe: &PathElement) -> bool {
        match self.tree_with(pe) {
            Some(tree) => tree.contains(&Ordered(pe.clone())),
            None => self.contains_few(pe),
        }
    }

    /// Whether nothing was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.few.is_empty() && self.tree.as_ref().is_none_or(|t| t.is_empty())
    }

    fn contains_few(&self, pe: &PathElement) -> bool {
        self.few.iter().any(|e| e.compare(pe) == Ordering::Equal)
    }

    /// The B-tree, made now if looking `pe` up needs it.
    fn tree_with(&mut self, pe: &PathElement) -> Option<&mut std::collections::BTreeSet<Ordered>> {
        if self.tree.is_none() {
            self.fragility.add(pe);
            if !self.fragility.is_fragile() && self.few.len() < PAIRWISE {
                return None;
            }
            // One insertion at a time, in arrival order: `collect` builds a B-tree in bulk from
            // sorted input, which, when the order is not total, is not the same tree.
            let mut tree = std::collections::BTreeSet::new();
            for pe in self.few.drain(..) {
                tree.insert(Ordered(pe));
            }
            self.tree = Some(tree);
        }
        self.tree.as_mut()
    }
}

/// Whether two lists' items pair up by position: the same elements in the same order, none
/// twice, in an order that is total (so that equal is what a B-tree's lookups find). Go's
/// grouping of the items by element then pairs item `i` with item `i`, which a walk can do
/// without building the groups. `left_unique`: the left side is known to hold no duplicates.
pub(crate) fn aligned(left: &[PathElement], right: &[PathElement], left_unique: bool) -> bool {
    if left.len() != right.len() {
        return false;
    }
    let mut fragility = smd_fieldpath::Fragility::default();
    for (l, r) in left.iter().zip(right) {
        if l.compare(r) != Ordering::Equal {
            return false;
        }
        fragility.add(l);
        fragility.add(r);
    }
    if fragility.is_fragile() {
        return false;
    }
    let mut seen = Seen::default();
    left_unique || left.iter().all(|pe| seen.insert(pe))
}

/// The path elements of a list's items, or `None` when any item has none (the caller's
/// general walk then reports why).
pub(crate) fn elements(
    schema: &smd_schema::Schema,
    list: &smd_schema::ListView<'_>,
    items: &[smd_fieldpath::Value],
) -> Option<Vec<PathElement>> {
    items
        .iter()
        .map(|item| super::atom::list_item_element(schema, list, item).ok())
        .collect()
}
