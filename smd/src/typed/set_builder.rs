//! Building a field set bottom-up while a walk goes down and up a value: each level of the
//! walk collects the members and child nodes of one node, and becomes a node of the set when
//! the walk leaves it. Inserting a path costs nothing more than pushing its last element,
//! where inserting into a finished set would walk from the root each time.

use std::sync::Arc;

use smd_fieldpath::{PathElement, Set};

#[derive(Default)]
struct Level {
    members: Vec<PathElement>,
    children: Vec<(PathElement, Arc<Set>)>,
}

/// A set under construction, one level per level of the walk.
pub(crate) struct SetBuilder {
    levels: Vec<Level>,
    /// Levels of the walk below the last of `levels` that can add nothing to this set (a
    /// comparison's removed fields below a value only the right side has): they are counted,
    /// not built. Always the deepest, as what one side lacks it lacks below too.
    parked: usize,
}

impl SetBuilder {
    pub(crate) fn new() -> SetBuilder {
        // Room for the levels of most objects: the stack is not grown level by level.
        let mut levels = Vec::with_capacity(16);
        levels.push(Level::default());
        SetBuilder { levels, parked: 0 }
    }

    /// The walk goes one level down.
    pub(crate) fn descend(&mut self) {
        self.descend_if(true);
    }

    /// The walk goes one level down, to a node where this set gets a member or a child node
    /// only when `open`; a closed level, and every level below it, is only counted. Nothing
    /// may be inserted while the current level is closed.
    pub(crate) fn descend_if(&mut self, open: bool) {
        if open && self.parked == 0 {
            self.levels.push(Level::default());
        } else {
            self.parked += 1;
        }
    }

    /// The walk comes back up from the node at `element`.
    pub(crate) fn ascend(&mut self, element: &PathElement) {
        if self.parked > 0 {
            self.parked -= 1;
            return;
        }
        let Some(level) = self.levels.pop() else {
            return;
        };
        if level.members.is_empty() && level.children.is_empty() {
            return;
        }
        if let Some(parent) = self.levels.last_mut() {
            parent.children.push((
                element.clone(),
                Arc::new(Set::from_shared_parts(level.members, level.children)),
            ));
        }
    }

    /// The current node expects about `members` members and `children` child nodes.
    pub(crate) fn reserve(&mut self, members: usize, children: usize) {
        if self.parked > 0 {
            return;
        }
        if let Some(level) = self.levels.last_mut() {
            level.members.reserve(members);
            level.children.reserve(children);
        }
    }

    /// The path of the current node (whose last element is `element`) is a member; the root
    /// (no element) never is.
    pub(crate) fn insert_here(&mut self, element: Option<&PathElement>) {
        debug_assert_eq!(self.parked, 0, "a member from a closed level");
        if self.parked > 0 {
            return;
        }
        let n = self.levels.len();
        if let (Some(element), true) = (element, n >= 2) {
            self.levels[n - 2].members.push(element.clone());
        }
    }

    /// The path one `element` below the current node is a member.
    pub(crate) fn insert_below(&mut self, element: PathElement) {
        debug_assert_eq!(self.parked, 0, "a member of a closed level");
        if self.parked > 0 {
            return;
        }
        if let Some(level) = self.levels.last_mut() {
            level.members.push(element);
        }
    }

    /// The set, once the walk is back at the root.
    pub(crate) fn finish(mut self) -> Set {
        let root = self.levels.swap_remove(0);
        Set::from_shared_parts(root.members, root.children)
    }
}
