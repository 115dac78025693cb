//! Sets of paths: what a manager owns.
//!
//! A [`Set`] is a trie. Each node has *members* (the paths that end there) and *children* (the
//! nodes one element further down), both kept sorted by [`PathElement`] order, so a `fieldsV1`
//! document is one in-order walk and union, intersection and difference are linear merges of
//! sorted sequences. Being a child node does not make a path a member: `.spec.replicas` in a set
//! does not put `.spec` in it.
//!
//! Child nodes are shared between sets (reference-counted, copied on write), as Go shares them:
//! the union of two sets reuses every subtree that only one of them has.
//!
//! ```
//! use smd_fieldpath::{Path, PathElement, Set};
//! let replicas = Path::from_iter([PathElement::field("spec"), PathElement::field("replicas")]);
//! let mut set = Set::new();
//! set.insert(&replicas);
//! assert!(set.has(&replicas));
//! assert!(!set.has(&[PathElement::field("spec")]));
//! assert_eq!(set.to_fields_v1().unwrap(), br#"{"f:spec":{"f:replicas":{}}}"#);
//! ```

mod algebra;
mod build;
mod iter;

use crate::element::PathElement;
use std::fmt;
use std::sync::Arc;

pub use build::Fragility;
pub(crate) use build::{NodeBuilder, Repeat};
pub use iter::Paths;

/// A child node: its element and the node, shared between sets.
type Child = (PathElement, Arc<Set>);

/// A set of paths.
#[derive(Clone, Debug, Default)]
pub struct Set {
    members: Vec<PathElement>,
    children: Vec<(PathElement, Arc<Set>)>,
}

impl Set {
    /// The empty set.
    pub fn new() -> Set {
        Set::default()
    }

    /// Adds `path`. The empty path is never a member: no one owns a whole object.
    pub fn insert(&mut self, path: &[PathElement]) {
        let Some((last, prefix)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for element in prefix {
            node = node.descend(element);
        }
        node.insert_member(last);
    }

    /// Adds the member `element` to this node.
    pub(crate) fn insert_member(&mut self, element: &PathElement) {
        if let Err(at) = go_search(&self.members, |m| m.compare(element)) {
            crate::count_work(self.members.len().saturating_sub(at));
            self.members.insert(at, element.clone());
        }
    }

    /// The child node for `element`, created empty if it does not exist.
    pub(crate) fn descend(&mut self, element: &PathElement) -> &mut Set {
        let at = match go_search(&self.children, |(e, _)| e.compare(element)) {
            Ok(at) => at,
            Err(at) => {
                crate::count_work(self.children.len().saturating_sub(at));
                self.children
                    .insert(at, (element.clone(), Arc::new(Set::new())));
                at
            }
        };
        Arc::make_mut(&mut self.children[at].1)
    }

    /// Whether `path` is a member. The empty path never is.
    pub fn has(&self, path: &[PathElement]) -> bool {
        let Some((last, prefix)) = path.split_last() else {
            return false;
        };
        let mut node = self;
        for element in prefix {
            match node.child(element) {
                Some(child) => node = child,
                None => return false,
            }
        }
        node.has_member(last)
    }

    /// Whether `element` is a member of this node.
    pub fn has_member(&self, element: &PathElement) -> bool {
        go_search(&self.members, |m| m.compare(element)).is_ok()
    }

    /// The child node for `element`, if there is one.
    pub fn child(&self, element: &PathElement) -> Option<&Set> {
        go_search(&self.children, |(e, _)| e.compare(element))
            .ok()
            .map(|at| &*self.children[at].1)
    }

    /// The paths under `element`, without it: Go's `WithPrefix`. Empty if there are none.
    pub fn with_prefix(&self, element: &PathElement) -> Set {
        self.child(element).cloned().unwrap_or_default()
    }

    /// The members of this node, sorted.
    pub fn members(&self) -> &[PathElement] {
        &self.members
    }

    /// The child nodes of this node, sorted by element.
    pub fn children(&self) -> impl ExactSizeIterator<Item = (&PathElement, &Set)> {
        self.children.iter().map(|(e, s)| (e, &**s))
    }

    /// The number of members, in this node and below (child nodes themselves do not count).
    pub fn size(&self) -> usize {
        self.members.len() + self.children.iter().map(|(_, s)| s.size()).sum::<usize>()
    }

    /// Whether the set has no member anywhere (it may still have empty child nodes).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.iter().all(|(_, s)| s.is_empty())
    }

    /// Whether the set has neither a member nor a child node, not even an empty one: every
    /// operation with it gives the other operand's structure.
    pub fn is_bare(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    /// Every member path, in Go's order: a node's members first, then each child node in turn.
    pub fn iter(&self) -> Paths<'_> {
        Paths::new(self)
    }
}

impl PartialEq for Set {
    /// Structural equality, as Go's `Set.Equals`: empty child nodes count.
    fn eq(&self, other: &Set) -> bool {
        self.members == other.members
            && self.children.len() == other.children.len()
            && self
                .children
                .iter()
                .zip(&other.children)
                .all(|((ea, sa), (eb, sb))| ea == eb && (Arc::ptr_eq(sa, sb) || sa == sb))
    }
}

impl fmt::Display for Set {
    /// Go's `Set.String`: one path per line, in iteration order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, path) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{path}")?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Set {
    type Item = crate::Path;
    type IntoIter = Paths<'a>;
    fn into_iter(self) -> Paths<'a> {
        self.iter()
    }
}

impl<P: AsRef<[PathElement]>> FromIterator<P> for Set {
    fn from_iter<I: IntoIterator<Item = P>>(paths: I) -> Set {
        let mut set = Set::new();
        for path in paths {
            set.insert(path.as_ref());
        }
        set
    }
}

impl AsRef<[PathElement]> for crate::Path {
    fn as_ref(&self) -> &[PathElement] {
        self
    }
}

/// Go's `slices.BinarySearchFunc`, probe for probe: the first position whose item is not less
/// than the target, and whether that item compares equal. Not `binary_search_by`, which may
/// return any equal item and probes in another order: with a NaN value, which compares equal
/// to every number, the two find different elements (Go merges `v:NaN` into the first number
/// of a node).
fn go_search<T>(items: &[T], compare: impl Fn(&T) -> std::cmp::Ordering) -> Result<usize, usize> {
    go_search_by(items.len(), |i| {
        items.get(i).map_or(std::cmp::Ordering::Greater, &compare)
    })
}

/// [`go_search`] over positions `0..len`, `probe(i)` comparing the item at `i` with the target.
fn go_search_by(len: usize, probe: impl Fn(usize) -> std::cmp::Ordering) -> Result<usize, usize> {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if probe(mid) == std::cmp::Ordering::Less {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if lo < len && probe(lo) == std::cmp::Ordering::Equal {
        Ok(lo)
    } else {
        Err(lo)
    }
}
