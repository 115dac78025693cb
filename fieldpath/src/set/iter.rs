//! Walking a set's member paths in Go's order.

use super::Set;
use crate::element::PathElement;
use crate::path::Path;

/// The member paths of a [`Set`]: at each node its members first, then each child node.
#[derive(Debug)]
pub struct Paths<'a> {
    /// One frame per node being walked: the node, the next member and the next child to visit.
    stack: Vec<(&'a Set, usize, usize)>,
    prefix: Vec<PathElement>,
}

impl<'a> Paths<'a> {
    pub(super) fn new(set: &'a Set) -> Paths<'a> {
        Paths {
            stack: vec![(set, 0, 0)],
            prefix: Vec::new(),
        }
    }
}

impl Iterator for Paths<'_> {
    type Item = Path;

    fn next(&mut self) -> Option<Path> {
        loop {
            let (node, member, child) = self.stack.last_mut()?;
            let node: &Set = node;
            if let Some(element) = node.members.get(*member) {
                *member += 1;
                let mut path = Path::from(self.prefix.as_slice());
                path.push(element.clone());
                return Some(path);
            }
            if let Some((element, set)) = node.children.get(*child) {
                *child += 1;
                self.prefix.push(element.clone());
                self.stack.push((set, 0, 0));
                continue;
            }
            self.stack.pop();
            self.prefix.pop();
        }
    }
}
