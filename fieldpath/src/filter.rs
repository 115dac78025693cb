//! Filters: keep or drop parts of a set, as the API server does with fields it resets.
//!
//! An [`ExcludeFilter`] removes a set of paths and everything below them. An [`IncludeFilter`]
//! keeps only the paths that match one of its prefix patterns, where a pattern element may be
//! [`ElementPattern::Any`]; a member that is an ancestor of a pattern's path is kept too (Go's
//! behaviour: a filter for `.spec.containers[*].resources` keeps a member `.spec`).
//!
//! ```
//! use smd_fieldpath::{ElementPattern, Filter, IncludeFilter, PathElement, Set, SetMatcher};
//! let set: Set = [
//!     vec![PathElement::field("spec"), PathElement::field("replicas")],
//!     vec![PathElement::field("status"), PathElement::field("replicas")],
//! ].into_iter().collect();
//! let spec_only = IncludeFilter::new([SetMatcher::prefix([ElementPattern::Element(PathElement::field("spec"))])]);
//! assert_eq!(spec_only.filter(&set).to_string(), ".spec.replicas");
//! ```

use crate::element::PathElement;
use crate::set::Set;
use std::cmp::Ordering;

/// Something that narrows a set.
pub trait Filter {
    /// The part of `set` this filter lets through.
    fn filter(&self, set: &Set) -> Set;
}

/// Removes the paths of a set, and everything below them.
#[derive(Clone, Debug, Default)]
pub struct ExcludeFilter {
    excluded: Set,
}

impl ExcludeFilter {
    /// A filter that removes `excluded` and what lies below its members.
    pub fn new(excluded: Set) -> ExcludeFilter {
        ExcludeFilter { excluded }
    }
}

impl Filter for ExcludeFilter {
    fn filter(&self, set: &Set) -> Set {
        set.recursive_difference(&self.excluded)
    }
}

/// Keeps the paths that match one of its patterns.
#[derive(Clone, Debug)]
pub struct IncludeFilter {
    matcher: SetMatcher,
}

impl IncludeFilter {
    /// A filter that keeps what any of `matchers` matches; with none, it keeps everything.
    pub fn new(matchers: impl IntoIterator<Item = SetMatcher>) -> IncludeFilter {
        let matcher = matchers
            .into_iter()
            .reduce(|a, b| a.merge(&b))
            .unwrap_or_else(SetMatcher::any);
        IncludeFilter { matcher }
    }
}

impl Filter for IncludeFilter {
    fn filter(&self, set: &Set) -> Set {
        set.filter_include(&self.matcher)
    }
}

/// One element of a pattern: any element, or one in particular.
#[derive(Clone, Debug)]
pub enum ElementPattern {
    /// Matches every element.
    Any,
    /// Matches elements equal to this one.
    Element(PathElement),
}

impl ElementPattern {
    fn matches(&self, element: &PathElement) -> bool {
        match self {
            ElementPattern::Any => true,
            ElementPattern::Element(e) => e == element,
        }
    }

    /// `Any` first, then elements in their order.
    fn compare(&self, other: &ElementPattern) -> Ordering {
        match (self, other) {
            (ElementPattern::Any, ElementPattern::Any) => Ordering::Equal,
            (ElementPattern::Any, _) => Ordering::Less,
            (_, ElementPattern::Any) => Ordering::Greater,
            (ElementPattern::Element(a), ElementPattern::Element(b)) => a.compare(b),
        }
    }
}

/// A tree of patterns matching sets of paths.
#[derive(Clone, Debug)]
pub struct SetMatcher {
    /// Matches everything from here down.
    any: bool,
    /// Sorted by pattern, `Any` first.
    members: Vec<(ElementPattern, SetMatcher)>,
}

impl SetMatcher {
    /// Matches every set.
    pub fn any() -> SetMatcher {
        SetMatcher {
            any: true,
            members: Vec::new(),
        }
    }

    /// Matches the paths that start with `prefix` (and, as a filter, their ancestors).
    pub fn prefix(prefix: impl IntoIterator<Item = ElementPattern>) -> SetMatcher {
        let patterns: Vec<ElementPattern> = prefix.into_iter().collect();
        patterns
            .into_iter()
            .rev()
            .fold(SetMatcher::any(), |child, pattern| SetMatcher {
                any: false,
                members: vec![(pattern, child)],
            })
    }

    /// Matches what either matcher matches.
    pub fn merge(&self, other: &SetMatcher) -> SetMatcher {
        if self.any || other.any {
            return SetMatcher::any();
        }
        let mut members = self.members.clone();
        for (pattern, child) in &other.members {
            let found = go_find(&self.members, pattern);
            match found {
                Some(at) => members[at].1 = members[at].1.merge(child),
                None => members.push((pattern.clone(), child.clone())),
            }
        }
        sort_patterns(&mut members);
        SetMatcher {
            any: false,
            members,
        }
    }
}

/// Go's `sortedMemberMatcher.Find`: `sort.Find` with the comparison the wrong way round
/// (`s[i].Compare(p)`), and a wildcard never equal to a wildcard. It finds a pattern only in
/// some positions; what it misses is appended as a second member, and the first one wins.
fn go_find(members: &[(ElementPattern, SetMatcher)], pattern: &ElementPattern) -> Option<usize> {
    let cmp = |i: usize| match (&members[i].0, pattern) {
        (ElementPattern::Any, ElementPattern::Element(_)) => Ordering::Less,
        (_, ElementPattern::Any) => Ordering::Greater,
        (ElementPattern::Element(a), ElementPattern::Element(b)) => a.compare(b),
    };
    let (mut lo, mut hi) = (0, members.len());
    while lo < hi {
        let h = lo + (hi - lo) / 2;
        if cmp(h) == Ordering::Greater {
            lo = h + 1;
        } else {
            hi = h;
        }
    }
    (lo < members.len() && cmp(lo) == Ordering::Equal).then_some(lo)
}

/// Sorts patterns without relying on the order being total (a NaN value in an element makes it
/// not), so it can never panic.
fn sort_patterns(members: &mut [(ElementPattern, SetMatcher)]) {
    for i in 1..members.len() {
        let mut j = i;
        while j > 0 && members[j - 1].0.compare(&members[j].0) == Ordering::Greater {
            members.swap(j - 1, j);
            j -= 1;
        }
    }
}

impl Set {
    /// The members and subtrees of this set that `matcher` matches (Go's
    /// `FilterIncludeMatches`).
    pub fn filter_include(&self, matcher: &SetMatcher) -> Set {
        if matcher.any {
            return self.clone();
        }
        let mut out = Set::new();
        for member in self.members() {
            if matcher.members.iter().any(|(p, _)| p.matches(member)) {
                out.insert_member(member);
            }
        }
        for (element, child) in self.children() {
            let Some((_, pattern_child)) = matcher.members.iter().find(|(p, _)| p.matches(element))
            else {
                continue;
            };
            let kept = child.filter_include(pattern_child);
            if kept.size() > 0 {
                *out.descend(element) = kept;
            }
        }
        out
    }
}
