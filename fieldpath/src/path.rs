//! Paths: a sequence of [`PathElement`]s from the root of an object to one of its fields.
//!
//! A path's text is the concatenation of its elements' texts, as Go prints it in conflict
//! messages: `.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]`.
//!
//! ```
//! use smd_fieldpath::{Path, PathElement, Value};
//! let path = Path::from_iter([
//!     PathElement::field("spec"),
//!     PathElement::field("containers"),
//!     PathElement::key([("name", Value::from("nginx"))]),
//!     PathElement::field("image"),
//! ]);
//! assert_eq!(path.to_string(), r#".spec.containers[name="nginx"].image"#);
//! ```

use crate::element::PathElement;
use smallvec::SmallVec;
use std::cmp::Ordering;
use std::fmt;
use std::ops::Deref;

/// A path into an object. The empty path is the object itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path(SmallVec<[PathElement; 4]>);

impl Path {
    /// The empty path.
    pub fn new() -> Path {
        Path::default()
    }

    /// Appends an element.
    pub fn push(&mut self, element: PathElement) {
        self.0.push(element);
    }

    /// Removes the last element.
    pub fn pop(&mut self) -> Option<PathElement> {
        self.0.pop()
    }

    /// The elements.
    pub fn elements(&self) -> &[PathElement] {
        &self.0
    }

    /// Go's `Path.Compare`: element by element, a prefix first.
    pub fn compare(&self, other: &Path) -> Ordering {
        compare_paths(&self.0, &other.0)
    }
}

/// Element-by-element order of two paths, a prefix first.
pub(crate) fn compare_paths(a: &[PathElement], b: &[PathElement]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let order = x.compare(y);
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

impl Deref for Path {
    type Target = [PathElement];
    fn deref(&self) -> &[PathElement] {
        &self.0
    }
}

impl FromIterator<PathElement> for Path {
    fn from_iter<I: IntoIterator<Item = PathElement>>(iter: I) -> Path {
        Path(iter.into_iter().collect())
    }
}

impl From<&[PathElement]> for Path {
    fn from(elements: &[PathElement]) -> Path {
        Path(elements.iter().cloned().collect())
    }
}

impl From<Vec<PathElement>> for Path {
    fn from(elements: Vec<PathElement>) -> Path {
        Path(SmallVec::from_vec(elements))
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|element| write!(f, "{element}"))
    }
}
