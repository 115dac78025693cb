//! Building one node of a set from its elements in arrival order, leaving what Go's one-by-one
//! insertion leaves, in O(n log n) instead of Go's O(n²) when the input is not in Go's order.
//!
//! Go inserts each element into a sorted slice at the place its binary search finds (dropping
//! it when the element found there compares equal). When the order of a node's elements is
//! total, that leaves the elements sorted, each first arrival kept among equal ones: a stable
//! sort and a pass over runs of equal elements give the same node at once. The order is not
//! total when a value is NaN or an int beyond 2^53 meets a float (see [`Fragility`]); then
//! where an element lands depends on what arrived before it and on the exact probes of Go's
//! binary search, so such a node is replayed one element at a time, probe for probe, over a
//! [`Chunked`] sequence whose insertions cost O(√n) rather than a shift of the whole slice.

use super::{Child, Set, go_search_by};
use crate::element::PathElement;
use crate::value::Value;
use std::cmp::Ordering;
use std::sync::Arc;

/// What Go does when an element that is already a child arrives again.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Repeat {
    /// `fieldsV1` reading (`readIterV1`): the later subtree replaces the earlier one; the element
    /// kept is the first. An element greater than the last one is appended without a search.
    Replace,
    /// Inserting paths (`Set.Insert`, the typed walks): the subtrees are united.
    Unite,
}

/// A node's elements in arrival order.
#[derive(Debug, Default)]
pub(crate) struct NodeBuilder {
    members: Vec<PathElement>,
    children: Vec<Child>,
    fragility: Fragility,
}

impl NodeBuilder {
    /// Whether nothing has arrived.
    pub(crate) fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.is_empty()
    }

    /// A builder with room for `members` members and `children` child nodes.
    pub(crate) fn with_capacity(members: usize, children: usize) -> NodeBuilder {
        NodeBuilder {
            members: Vec::with_capacity(members),
            children: Vec::with_capacity(children),
            fragility: Fragility::default(),
        }
    }

    /// A node whose elements arrived as `members` and `children`, each in order.
    pub(crate) fn from_arrivals(members: Vec<PathElement>, children: Vec<Child>) -> NodeBuilder {
        let mut fragility = Fragility::default();
        members.iter().for_each(|e| fragility.add(e));
        children.iter().for_each(|(e, _)| fragility.add(e));
        NodeBuilder {
            members,
            children,
            fragility,
        }
    }

    /// [`NodeBuilder::from_arrivals`] for elements read from JSON text, which cannot make
    /// Go's order partial: every number there is a finite float (no NaN, no int at all).
    pub(crate) fn from_json_arrivals(
        members: Vec<PathElement>,
        children: Vec<Child>,
    ) -> NodeBuilder {
        let builder = NodeBuilder {
            members,
            children,
            fragility: Fragility::default(),
        };
        debug_assert!(
            !NodeBuilder::from_arrivals(builder.members.clone(), builder.children.clone())
                .fragility
                .is_fragile()
        );
        builder
    }

    /// `element` is a member of the node.
    pub(crate) fn member(&mut self, element: PathElement) {
        self.fragility.add(&element);
        self.members.push(element);
    }

    /// `set` lies below `element`.
    pub(crate) fn child(&mut self, element: PathElement, set: Set) {
        self.fragility.add(&element);
        self.children.push((element, Arc::new(set)));
    }

    /// The node Go's insertions would leave.
    pub(crate) fn finish(self, repeat: Repeat) -> Set {
        if self.fragility.is_fragile() {
            return replay(self.members, self.children, repeat);
        }
        let mut members = self.members;
        // Stable: among equal elements the first to arrive stays first, and dedup keeps it.
        if !members.is_sorted_by(|a, b| a.compare(b) == Ordering::Less) {
            members.sort_by(|a, b| a.compare(b));
            members.dedup_by(|later, kept| later.compare(kept) == Ordering::Equal);
        }
        let mut children = self.children;
        if !children.is_sorted_by(|a, b| a.0.compare(&b.0) == Ordering::Less) {
            // Stable too: equal elements meet their earlier arrivals in order.
            children.sort_by(|a, b| a.0.compare(&b.0));
            children.dedup_by(|later, kept| {
                if later.0.compare(&kept.0) != Ordering::Equal {
                    return false;
                }
                kept.1 = match repeat {
                    Repeat::Replace => later.1.clone(),
                    Repeat::Unite => Arc::new(kept.1.union(&later.1)),
                };
                true
            });
        }
        Set { members, children }
    }
}

/// Go's insertions, one element at a time in arrival order, each placed by Go's probes.
fn replay(members: Vec<PathElement>, children: Vec<Child>, repeat: Repeat) -> Set {
    let mut placed: Chunked<PathElement> = Chunked::new(members.len());
    for element in members {
        let at = match appended(repeat, placed.last(), &element) {
            true => Err(placed.len()),
            false => go_search_by(placed.len(), |i| {
                placed
                    .get(i)
                    .map_or(Ordering::Greater, |m| m.compare(&element))
            }),
        };
        if let Err(at) = at {
            placed.insert(at, element);
        }
    }
    let mut nodes: Chunked<Child> = Chunked::new(children.len());
    for (element, set) in children {
        let at = match appended(repeat, nodes.last().map(|(e, _)| e), &element) {
            true => Err(nodes.len()),
            false => go_search_by(nodes.len(), |i| {
                nodes
                    .get(i)
                    .map_or(Ordering::Greater, |(e, _)| e.compare(&element))
            }),
        };
        match at {
            Ok(at) => {
                if let Some((_, existing)) = nodes.get_mut(at) {
                    *existing = match repeat {
                        Repeat::Replace => set,
                        // Go descends into the child it found and inserts there.
                        Repeat::Unite => Arc::new(existing.union(&set)),
                    };
                }
            }
            Err(at) => nodes.insert(at, (element, set)),
        }
    }
    Set {
        members: placed.into_vec(),
        children: nodes.into_vec(),
    }
}

/// The members `existing` with `arrivals` inserted as [`insert_members`] inserts them, or
/// `None` when every arrival is a member already; made in one allocation when the order is
/// total.
pub(crate) fn with_members(
    existing: &[PathElement],
    mut arrivals: smallvec::SmallVec<[PathElement; 8]>,
) -> Option<Vec<PathElement>> {
    let mut fragility = Fragility::default();
    existing
        .iter()
        .chain(&arrivals)
        .for_each(|e| fragility.add(e));
    if fragility.is_fragile() {
        let mut members = existing.to_vec();
        insert_members(&mut members, arrivals.into_vec());
        return (members.len() != existing.len()).then_some(members);
    }
    arrivals.sort_by(|a, b| a.compare(b));
    arrivals.dedup_by(|later, kept| later.compare(kept) == Ordering::Equal);
    // Which arrivals are new: both sorted, one merge walk.
    let mut new = 0;
    let mut members = existing.iter().peekable();
    for arrival in &arrivals {
        while members
            .next_if(|m| m.compare(arrival) == Ordering::Less)
            .is_some()
        {}
        if members
            .peek()
            .is_none_or(|m| m.compare(arrival) != Ordering::Equal)
        {
            new += 1;
        }
    }
    (new > 0).then(|| merge_sorted(existing.iter().cloned(), arrivals, existing.len() + new))
}

/// Sorted `members` and sorted, distinct `arrivals` merged into one sorted vector of
/// `capacity`; an arrival equal to a member is dropped (the member was there first).
fn merge_sorted(
    members: impl Iterator<Item = PathElement>,
    arrivals: impl IntoIterator<Item = PathElement>,
    capacity: usize,
) -> Vec<PathElement> {
    let mut out = Vec::with_capacity(capacity);
    let mut arrivals = arrivals.into_iter().peekable();
    for member in members {
        while let Some(arrival) = arrivals.next_if(|a| a.compare(&member) == Ordering::Less) {
            out.push(arrival);
        }
        while arrivals
            .next_if(|a| a.compare(&member) == Ordering::Equal)
            .is_some()
        {}
        out.push(member);
    }
    out.extend(arrivals);
    out
}

/// Inserts `arrivals`, in order, into the sorted `members` of a node, as Go's `Insert` one by one
/// would: at once by a merge when the order is total, replayed otherwise.
pub(crate) fn insert_members(members: &mut Vec<PathElement>, mut arrivals: Vec<PathElement>) {
    let mut fragility = Fragility::default();
    members
        .iter()
        .chain(&arrivals)
        .for_each(|e| fragility.add(e));
    if fragility.is_fragile() {
        let mut placed = Chunked::from_vec(std::mem::take(members));
        for element in arrivals {
            let at = go_search_by(placed.len(), |i| {
                placed
                    .get(i)
                    .map_or(Ordering::Greater, |m| m.compare(&element))
            });
            if let Err(at) = at {
                placed.insert(at, element);
            }
        }
        *members = placed.into_vec();
        return;
    }
    arrivals.sort_by(|a, b| a.compare(b));
    arrivals.dedup_by(|later, kept| later.compare(kept) == Ordering::Equal);
    let capacity = members.len() + arrivals.len();
    *members = merge_sorted(std::mem::take(members).into_iter(), arrivals, capacity);
}

/// Whether Go's `fieldsV1` reader appends `element` without a search: it does when the last
/// element so far is less than it.
fn appended(repeat: Repeat, last: Option<&PathElement>, element: &PathElement) -> bool {
    repeat == Repeat::Replace && last.is_none_or(|last| last.compare(element) == Ordering::Less)
}

/// Which numbers a node's elements hold, as far as they can break the totality of Go's order:
/// NaN compares equal to every number, and an int beyond 2^53 compared with a float is
/// converted and may then equal a float that also equals a different int. Without NaN, and
/// without both such ints and floats, every comparison is exact and the order is total.
#[derive(Debug, Default, Clone, Copy)]
pub struct Fragility {
    nan: bool,
    big_int: bool,
    float: bool,
}

impl Fragility {
    /// `element` joins the elements watched.
    pub fn add(&mut self, element: &PathElement) {
        match element {
            PathElement::Value(v) => self.add_value(v),
            PathElement::Key(key) => key.fields().iter().for_each(|f| self.add_value(&f.value)),
            PathElement::Field(_) | PathElement::Index(_) => {}
        }
    }

    fn add_value(&mut self, value: &Value) {
        const EXACT: u64 = 1 << 53;
        match value {
            Value::Float(f) => {
                self.float = true;
                self.nan |= f.is_nan();
            }
            Value::Int(i) => self.big_int |= i.unsigned_abs() > EXACT,
            Value::List(items) => items.iter().for_each(|v| self.add_value(v)),
            Value::Map(map) => map.values().for_each(|v| self.add_value(v)),
            Value::String(_) | Value::Bool(_) | Value::Null => {}
        }
    }

    /// Whether Go's order is not total over the elements added: a NaN, or an int beyond 2^53
    /// with a float, is among them.
    pub fn is_fragile(&self) -> bool {
        self.nan || (self.big_int && self.float)
    }
}

/// A sequence that inserts at any position in O(√n): items live in chunks of at most `cap`
/// items, with each chunk's starting position kept, so reaching position `i` is a binary search
/// over the chunks and an insertion shifts one chunk and the starts after it.
#[derive(Debug)]
struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    /// The position of each chunk's first item; strictly increasing (only a lone first chunk
    /// may be empty).
    starts: Vec<usize>,
    len: usize,
    cap: usize,
}

impl<T> Chunked<T> {
    /// Room for about `expected` items: chunks of about √expected keep both the shift inside a
    /// chunk and the update of the starts near √expected.
    fn new(expected: usize) -> Chunked<T> {
        Chunked {
            chunks: vec![Vec::new()],
            starts: vec![0],
            len: 0,
            cap: (2 * expected.isqrt()).max(16),
        }
    }

    /// The sequence `items`, in chunks half full.
    fn from_vec(items: Vec<T>) -> Chunked<T> {
        let mut chunked = Chunked::new(items.len());
        let size = (chunked.cap / 2).max(1);
        let mut rest = items.into_iter().peekable();
        chunked.chunks.clear();
        chunked.starts.clear();
        while rest.peek().is_some() {
            chunked.starts.push(chunked.len);
            let chunk: Vec<T> = rest.by_ref().take(size).collect();
            chunked.len += chunk.len();
            chunked.chunks.push(chunk);
        }
        if chunked.chunks.is_empty() {
            chunked.chunks.push(Vec::new());
            chunked.starts.push(0);
        }
        chunked
    }

    fn len(&self) -> usize {
        self.len
    }

    /// The chunk holding position `i` (the last chunk for `i == len`), and the offset in it.
    fn locate(&self, i: usize) -> (usize, usize) {
        let chunk = self
            .starts
            .partition_point(|&start| start <= i)
            .saturating_sub(1);
        let start = self.starts.get(chunk).copied().unwrap_or(0);
        (chunk, i.saturating_sub(start))
    }

    fn get(&self, i: usize) -> Option<&T> {
        let (chunk, offset) = self.locate(i);
        self.chunks.get(chunk)?.get(offset)
    }

    fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        let (chunk, offset) = self.locate(i);
        self.chunks.get_mut(chunk)?.get_mut(offset)
    }

    fn last(&self) -> Option<&T> {
        self.chunks.last()?.last()
    }

    /// Inserts `item` at position `i` (at most `len`).
    fn insert(&mut self, i: usize, item: T) {
        let (chunk, offset) = self.locate(i);
        let Some(items) = self.chunks.get_mut(chunk) else {
            return;
        };
        let offset = offset.min(items.len());
        crate::count_work(items.len() - offset);
        items.insert(offset, item);
        self.len += 1;
        let later = self.starts.get_mut(chunk + 1..).unwrap_or_default();
        crate::count_work(later.len());
        later.iter_mut().for_each(|start| *start += 1);
        if items.len() > self.cap {
            let half = items.len() / 2;
            let upper = items.split_off(half);
            let start = self.starts.get(chunk).copied().unwrap_or(0) + half;
            crate::count_work(self.chunks.len() - chunk);
            self.chunks.insert(chunk + 1, upper);
            self.starts.insert(chunk + 1, start);
        }
    }

    fn into_vec(self) -> Vec<T> {
        let mut out = Vec::with_capacity(self.len);
        self.chunks.into_iter().for_each(|chunk| out.extend(chunk));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_inserts_where_a_vec_would() {
        let mut chunked = Chunked::new(10);
        let mut plain = Vec::new();
        // A deterministic spread of positions: front, back and middle.
        for n in 0..500usize {
            let at = (n * 7919) % (plain.len() + 1);
            chunked.insert(at, n);
            plain.insert(at, n);
            assert_eq!(chunked.len(), plain.len());
        }
        for (i, item) in plain.iter().enumerate() {
            assert_eq!(chunked.get(i), Some(item));
        }
        assert_eq!(chunked.get(plain.len()), None);
        assert_eq!(chunked.last(), plain.last());
        assert_eq!(chunked.into_vec(), plain.clone());
        let mut seeded = Chunked::from_vec(plain.clone());
        seeded.insert(0, 9999);
        seeded.insert(250, 9998);
        plain.insert(0, 9999);
        plain.insert(250, 9998);
        assert_eq!(seeded.get(250), Some(&9998));
        assert_eq!(seeded.into_vec(), plain);
        assert_eq!(
            Chunked::<u8>::from_vec(Vec::new()).into_vec(),
            Vec::<u8>::new()
        );
    }

    #[test]
    fn inserting_members_at_once_is_inserting_them_one_by_one() {
        let f = |name: &str| PathElement::field(name);
        let v = |x: Value| PathElement::Value(Arc::new(x));
        let cases: Vec<(Vec<PathElement>, Vec<PathElement>)> = vec![
            (
                vec![f("b"), f("d")],
                vec![f("e"), f("a"), f("d"), f("c"), f("a")],
            ),
            (
                vec![],
                vec![v(Value::Int(2)), v(Value::Float(2.0)), v(Value::Int(1))],
            ),
            (
                vec![v(Value::Int((1 << 53) + 1)), v(Value::Int((1 << 53) + 3))],
                vec![v(Value::Float(9007199254740992.0)), v(Value::Int(1 << 53))],
            ),
            (
                vec![v(Value::Int(1)), v(Value::Int(3))],
                vec![v(Value::Float(f64::NAN)), v(Value::Int(2))],
            ),
        ];
        for (members, arrivals) in cases {
            let mut one_by_one = Set {
                members: members.clone(),
                children: Vec::new(),
            };
            arrivals.iter().for_each(|a| one_by_one.insert_member(a));
            let mut at_once = members;
            insert_members(&mut at_once, arrivals);
            assert_eq!(format!("{at_once:?}"), format!("{:?}", one_by_one.members));
        }
    }

    #[test]
    fn fragility_needs_nan_or_big_ints_meeting_floats() {
        let fragile = |values: &[Value]| {
            let mut f = Fragility::default();
            for v in values {
                f.add(&PathElement::Value(Arc::new(v.clone())));
            }
            f.is_fragile()
        };
        let big = Value::Int((1 << 53) + 1);
        assert!(!fragile(&[big.clone(), Value::Int(3)]));
        assert!(!fragile(&[Value::Int(1 << 53), Value::Float(0.5)]));
        assert!(fragile(&[big.clone(), Value::Float(0.5)]));
        assert!(fragile(&[Value::List(vec![big]), Value::Float(0.5)]));
        assert!(fragile(&[Value::Float(f64::NAN)]));
    }

    #[test]
    fn promoting_children_before_many_members_costs_n_log_n() {
        // n members `z…` and n children `a…`, all promoted: one by one, each promoted element
        // would shift the n members after it (n² = 4·10⁸ here, against a bound of 4.6·10⁶).
        let n = 20_000;
        let members: Vec<PathElement> = (0..n)
            .map(|i| PathElement::field(format!("z{i:06}")))
            .collect();
        let children: Vec<(PathElement, Set)> = (0..n)
            .map(|i| {
                let mut below = Set::new();
                below.insert(&[PathElement::field("x")]);
                (PathElement::field(format!("a{i:06}")), below)
            })
            .collect();
        let set = Set::from_parts(members, children);
        crate::work::take();
        let promoted = set.promote_children((), &|_, _| (true, ()));
        let work = crate::work::take();
        let bound = 16 * n as u64 * (n as f64).log2() as u64;
        assert!(
            work <= bound,
            "promoting {n} children took {work} units (bound {bound})"
        );
        assert_eq!(promoted.members().len(), 2 * n);
        assert!(
            promoted
                .members()
                .windows(2)
                .all(|w| w[0].compare(&w[1]) == Ordering::Less)
        );
    }
}
