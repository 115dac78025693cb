//! Set algebra: linear merges of the sorted members and children of two nodes.
//!
//! The semantics are Go's, including the parts that surprise: [`Set::difference`] only cancels
//! members at the same depth (`{.a.b} − {.a}` is `{.a.b}`), [`Set::recursive_difference`] also
//! drops everything below a member of the other set, and [`Set::intersection`] keeps only paths
//! that are members of both (`{.a.b} ∩ {.a}` is empty).

use super::build::with_members;
use super::{Child, NodeBuilder, Repeat, Set};
use crate::element::PathElement;
use std::cmp::Ordering;
use std::sync::Arc;

impl Set {
    /// Every path in either set.
    pub fn union(&self, other: &Set) -> Set {
        Set {
            members: merge_members(&self.members, &other.members, Keep::Either),
            children: union_children(&self.children, &other.children),
        }
    }

    /// [`Set::union`] of two owned sets: when one is bare (see [`Set::is_bare`]) the other is
    /// the union, given back as it is instead of copied node by node.
    ///
    /// ```
    /// use smd_fieldpath::{PathElement, Set};
    /// let mut spec = Set::new();
    /// spec.insert(&[PathElement::field("spec")]);
    /// assert_eq!(Set::new().union_owned(spec.clone()), spec);
    /// ```
    pub fn union_owned(self, other: Set) -> Set {
        match (self.is_bare(), other.is_bare()) {
            (true, _) => other,
            (_, true) => self,
            _ => self.union(&other),
        }
    }

    /// The paths that are members of both sets.
    pub fn intersection(&self, other: &Set) -> Set {
        let mut children = Vec::new();
        for_each_pair(&self.children, &other.children, |pair| {
            if let Pair::Both((element, a), (_, b)) = pair {
                let both = a.intersection(b);
                if !both.is_empty() {
                    children.push((element.clone(), Arc::new(both)));
                }
            }
        });
        Set {
            members: merge_members(&self.members, &other.members, Keep::Both),
            children,
        }
    }

    /// The paths of this set that are not members of `other` at the same place. A member of
    /// `other` does not remove the paths below it; see [`Set::recursive_difference`].
    pub fn difference(&self, other: &Set) -> Set {
        let mut children = Vec::new();
        for_each_pair(&self.children, &other.children, |pair| match pair {
            Pair::Left(child) => children.push(child.clone()),
            Pair::Both((element, a), (_, b)) => {
                let rest = a.difference(b);
                if !rest.is_empty() {
                    children.push((element.clone(), Arc::new(rest)));
                }
            }
            Pair::Right(_) => {}
        });
        Set {
            members: merge_members(&self.members, &other.members, Keep::LeftOnly),
            children,
        }
    }

    /// Like [`Set::difference`], and also without every path that lies below a member of
    /// `other`: removing `.spec` removes `.spec.replicas` too.
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let mut children = Vec::new();
        for_each_pair(&self.children, &other.children, |pair| match pair {
            Pair::Left(child) => {
                if !other.has_member(&child.0) {
                    children.push(child.clone());
                }
            }
            Pair::Both((element, a), (_, b)) => {
                if !other.has_member(element) {
                    let rest = a.recursive_difference(b);
                    if !rest.is_empty() {
                        children.push((element.clone(), Arc::new(rest)));
                    }
                }
            }
            Pair::Right(_) => {}
        });
        Set {
            members: merge_members(&self.members, &other.members, Keep::LeftOnly),
            children,
        }
    }

    /// The members that have nothing below them: a member that is also a child node is dropped.
    /// Child nodes are kept, with their own leaves.
    pub fn leaves(&self) -> Set {
        self.changed_leaves().unwrap_or_else(|| self.clone())
    }

    /// Each member with whether it is also a child node (one merge walk over both sorted lists).
    fn members_marking_parents(&self) -> impl Iterator<Item = (&PathElement, bool)> {
        let mut children = self.children.iter().peekable();
        self.members.iter().map(move |member| {
            while let Some((element, _)) = children.peek() {
                match member.compare(element) {
                    Ordering::Less => break,
                    Ordering::Equal => return (member, true),
                    Ordering::Greater => {
                        children.next();
                    }
                }
            }
            (member, false)
        })
    }

    /// The leaves of this node, or `None` when they are the node itself, so that unchanged
    /// subtrees are shared rather than rebuilt.
    fn changed_leaves(&self) -> Option<Set> {
        let children = changed_children(&self.children, |_, set| set.changed_leaves());
        if children.is_none() && !self.members_marking_parents().any(|(_, parent)| parent) {
            return None;
        }
        let members = self
            .members_marking_parents()
            .filter(|(_, parent)| !parent)
            .map(|(member, _)| member.clone())
            .collect();
        Some(Set {
            members,
            children: children.unwrap_or_else(|| self.children.clone()),
        })
    }
}

/// `children` with each one `change` returns a new node for replaced, in order; `None` when it
/// changes none, so that a caller shares unchanged nodes instead of copying them.
fn changed_children(
    children: &[Child],
    mut change: impl FnMut(&PathElement, &Set) -> Option<Set>,
) -> Option<Vec<Child>> {
    let mut out: Option<Vec<Child>> = None;
    for (at, (element, child)) in children.iter().enumerate() {
        match change(element, child) {
            Some(changed) => out
                .get_or_insert_with(|| children[..at].to_vec())
                .push((element.clone(), Arc::new(changed))),
            None => {
                if let Some(out) = &mut out {
                    out.push((element.clone(), child.clone()));
                }
            }
        }
    }
    out
}

/// Which members of two sorted sequences a merge keeps.
#[derive(Clone, Copy, PartialEq)]
enum Keep {
    Either,
    Both,
    LeftOnly,
}

/// Merges two sorted member lists; where both have an element, the left one is kept.
fn merge_members(left: &[PathElement], right: &[PathElement], keep: Keep) -> Vec<PathElement> {
    let mut out = Vec::with_capacity(match keep {
        Keep::Either => left.len() + right.len(),
        Keep::Both => left.len().min(right.len()),
        Keep::LeftOnly => left.len(),
    });
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        match left[i].compare(&right[j]) {
            Ordering::Less => {
                if keep != Keep::Both {
                    out.push(left[i].clone());
                }
                i += 1;
            }
            Ordering::Greater => {
                if keep == Keep::Either {
                    out.push(right[j].clone());
                }
                j += 1;
            }
            Ordering::Equal => {
                if keep != Keep::LeftOnly {
                    out.push(left[i].clone());
                }
                i += 1;
                j += 1;
            }
        }
    }
    if keep != Keep::Both {
        out.extend_from_slice(&left[i..]);
    }
    if keep == Keep::Either {
        out.extend_from_slice(&right[j..]);
    }
    out
}

fn union_children(left: &[Child], right: &[Child]) -> Vec<Child> {
    let mut out = Vec::with_capacity(left.len().max(right.len()));
    for_each_pair(left, right, |pair| match pair {
        Pair::Left(child) | Pair::Right(child) => out.push(child.clone()),
        Pair::Both((element, a), (_, b)) => {
            let merged = if Arc::ptr_eq(a, b) {
                a.clone()
            } else {
                Arc::new(a.union(b))
            };
            out.push((element.clone(), merged));
        }
    });
    out
}

/// Where a child node of a merge comes from.
enum Pair<'a> {
    Left(&'a Child),
    Right(&'a Child),
    Both(&'a Child, &'a Child),
}

/// Walks two sorted child lists together, in order.
fn for_each_pair<'a>(left: &'a [Child], right: &'a [Child], mut f: impl FnMut(Pair<'a>)) {
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        match left[i].0.compare(&right[j].0) {
            Ordering::Less => {
                f(Pair::Left(&left[i]));
                i += 1;
            }
            Ordering::Greater => {
                f(Pair::Right(&right[j]));
                j += 1;
            }
            Ordering::Equal => {
                f(Pair::Both(&left[i], &right[j]));
                i += 1;
                j += 1;
            }
        }
    }
    left[i..].iter().for_each(|c| f(Pair::Left(c)));
    right[j..].iter().for_each(|c| f(Pair::Right(c)));
}

impl Set {
    /// A copy of this set where, at every node, each child element that `visit` promotes is
    /// also a member. `ctx` travels down the trie: `visit(ctx, element)` says whether
    /// `element` is promoted and gives the context of the child node at `element`. This is the shape of Go's `EnsureNamedFieldsAreMembers`,
    /// whose context is the schema type at the node (the schema lives above this crate).
    ///
    /// ```
    /// use smd_fieldpath::{PathElement, Set};
    /// let mut set = Set::new();
    /// set.insert(&[PathElement::field("spec"), PathElement::field("replicas")]);
    /// let all = set.promote_children(0, &|depth, _| (true, depth + 1));
    /// assert!(all.has(&[PathElement::field("spec")]));
    /// ```
    pub fn promote_children<C>(
        &self,
        ctx: C,
        visit: &impl Fn(&C, &PathElement) -> (bool, C),
    ) -> Set {
        self.promoted(ctx, visit).unwrap_or_else(|| self.clone())
    }

    /// [`Set::promote_children`], or `None` where nothing changes, so that unchanged subtrees
    /// are shared rather than copied.
    fn promoted<C>(&self, ctx: C, visit: &impl Fn(&C, &PathElement) -> (bool, C)) -> Option<Set> {
        let mut promoted = smallvec::SmallVec::new();
        let children = changed_children(&self.children, |element, child| {
            let (promote, below) = visit(&ctx, element);
            if promote {
                promoted.push(element.clone());
            }
            child.promoted(below, visit)
        });
        // At once: one by one, each would shift the members after it.
        let members = match promoted.is_empty() {
            true => None,
            false => with_members(&self.members, promoted),
        };
        if children.is_none() && members.is_none() {
            return None;
        }
        Some(Set {
            members: members.unwrap_or_else(|| self.members.clone()),
            children: children.unwrap_or_else(|| self.children.clone()),
        })
    }
}

impl Set {
    /// A node from its members and child nodes, in any order: members are sorted and
    /// deduplicated, children sorted, and two children at one element united. Building a set
    /// bottom-up this way costs a sort per node instead of a walk from the root per path.
    ///
    /// ```
    /// use smd_fieldpath::{PathElement, Set};
    /// let mut spec = Set::new();
    /// spec.insert(&[PathElement::field("replicas")]);
    /// let set = Set::from_parts(vec![PathElement::field("kind")], vec![(PathElement::field("spec"), spec)]);
    /// assert!(set.has(&[PathElement::field("spec"), PathElement::field("replicas")]));
    /// assert!(set.has(&[PathElement::field("kind")]));
    /// ```
    pub fn from_parts(members: Vec<PathElement>, children: Vec<(PathElement, Set)>) -> Set {
        let children = children
            .into_iter()
            .map(|(e, s)| (e, Arc::new(s)))
            .collect();
        NodeBuilder::from_arrivals(members, children).finish(Repeat::Unite)
    }

    /// [`Set::from_parts`] with child nodes that are already shared.
    pub fn from_shared_parts(
        members: Vec<PathElement>,
        children: Vec<(PathElement, Arc<Set>)>,
    ) -> Set {
        NodeBuilder::from_arrivals(members, children).finish(Repeat::Unite)
    }
}
