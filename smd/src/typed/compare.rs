//! What changes between two values of one type (Go's `Compare`): the fields added, modified
//! and removed.
//!
//! Leaves (scalars, atomic lists and maps, and containers that are empty or null on both
//! sides) are compared by value. A container that appears or disappears is itself added or
//! removed, with everything in it: that is why an updater owns container paths (`.metadata`,
//! `.list[name="b"]`) that an applier does not. An item that appears several times on a side
//! is compared as a whole.

use std::collections::BTreeMap;
use std::fmt;

use smd_fieldpath::{Filter, Map, Name, PathElement, Set, Value};
use smd_schema::{ElementRelationship, ListView, MapView, Schema, TypeRef};

use super::atom::{self, Deduced, Part, Trail};
use super::element_set::{self, Ordered};
use super::error::ValidationErrors;
use super::set_builder::SetBuilder;

/// The fields that change from one value to another.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Fields present only in the first value.
    pub removed: Set,
    /// Fields present in both, with different values.
    pub modified: Set,
    /// Fields present only in the second value.
    pub added: Set,
}

impl Comparison {
    /// Whether nothing changes.
    pub fn is_same(&self) -> bool {
        self.removed.is_empty() && self.modified.is_empty() && self.added.is_empty()
    }

    /// The comparison without `fields` and everything below them (Go's `ExcludeFields`).
    pub fn exclude_fields(&mut self, fields: &Set) {
        if fields.is_empty() {
            return;
        }
        self.removed = self.removed.recursive_difference(fields);
        self.modified = self.modified.recursive_difference(fields);
        self.added = self.added.recursive_difference(fields);
    }

    /// The comparison with `filter` applied to each part (Go's `FilterFields`).
    pub fn filter_fields(&mut self, filter: &dyn Filter) {
        self.removed = filter.filter(&self.removed);
        self.modified = filter.filter(&self.modified);
        self.added = filter.filter(&self.added);
    }
}

impl fmt::Display for Comparison {
    /// Go's `Comparison.String`: a section per non-empty part, modified, added, then removed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (title, set) in [
            ("Modified", &self.modified),
            ("Added", &self.added),
            ("Removed", &self.removed),
        ] {
            if !set.is_empty() {
                writeln!(f, "- {title} Fields:\n{set}")?;
            }
        }
        Ok(())
    }
}

pub(crate) fn compare(
    schema: &Schema,
    tr: &TypeRef,
    lhs: &Value,
    rhs: &Value,
    known: Known,
) -> Result<Comparison, ValidationErrors> {
    let mut w = Walker {
        schema,
        known,
        trail: Trail::new(),
        added: SetBuilder::new(),
        modified: SetBuilder::new(),
        removed: SetBuilder::new(),
    };
    w.node(tr, Some(lhs), Some(rhs));
    let Walker {
        trail,
        added,
        modified,
        removed,
        ..
    } = w;
    trail.finish(()).map(|()| Comparison {
        added: added.finish(),
        modified: modified.finish(),
        removed: removed.finish(),
    })
}

/// What the caller knows of the two values, which lets the walk take shortcuts that give
/// Go's answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Known {
    /// Equal subtrees change nothing and hold no error (one side was checked): skip them.
    pub(crate) skip_equal: bool,
    /// The left side was checked without duplicates: no list holds an item twice.
    pub(crate) lhs_unique: bool,
    /// The same of the right side.
    pub(crate) rhs_unique: bool,
}

struct Walker<'s> {
    schema: &'s Schema,
    known: Known,
    trail: Trail,
    added: SetBuilder,
    modified: SetBuilder,
    removed: SetBuilder,
}

/// The list items of one side sharing a path element, in order.
type Group<'v> = Vec<&'v Value>;

impl Walker<'_> {
    fn error(&mut self, message: String) {
        self.trail.error(message);
    }

    fn node(&mut self, tr: &TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) {
        if lhs.is_none() && rhs.is_none() {
            self.error("at least one of lhs and rhs must be provided".to_owned());
            return;
        }
        // Maps are left to `map`, which skips their equal entries one by one: a map compared
        // whole here would be compared again, entry by entry, wherever it differs.
        if self.known.skip_equal && lhs.is_some() && !both_maps(lhs, rhs) && lhs == rhs {
            return;
        }
        self.walk(tr, lhs, rhs);
    }

    fn walk(&mut self, tr: &TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) {
        let Some(resolved) = self.trail.resolve(self.schema, tr) else {
            return;
        };
        let (first, part) = atom::sides(resolved, lhs, rhs);
        if let Some(first) = first {
            self.handle(tr, first, lhs, rhs);
        }
        let leaf = self.handle(tr, part, lhs, rhs);
        if !leaf {
            if lhs.is_none() {
                self.added.insert_here(self.trail.path.last());
            } else if rhs.is_none() {
                self.removed.insert_here(self.trail.path.last());
            }
        }
    }

    /// Down one level of the value (to `pe`, whose sides are `lhs` and `rhs`), and of the
    /// three sets. Below a value one side lacks, only the other side's set can change: fields
    /// are added only where the right side has a value, removed only where the left side has
    /// one, modified only where both have.
    fn enter(&mut self, pe: PathElement, lhs: Option<&Value>, rhs: Option<&Value>) {
        self.trail.path.push(pe);
        self.added.descend_if(rhs.is_some());
        self.modified.descend_if(lhs.is_some() && rhs.is_some());
        self.removed.descend_if(lhs.is_some());
    }

    /// Back up one level.
    fn leave(&mut self) {
        if let Some(pe) = self.trail.path.pop() {
            self.added.ascend(&pe);
            self.modified.ascend(&pe);
            self.removed.ascend(&pe);
        }
    }

    /// Handles one part for the node; true when the node was a leaf.
    fn handle(
        &mut self,
        tr: &TypeRef,
        part: Deduced<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> bool {
        match part.part() {
            None => {
                self.error(atom::invalid_atom(tr));
                false
            }
            Some(Part::Scalar(t)) => {
                if self.trail.refuse_scalars(t, lhs, rhs) {
                    return false;
                }
                self.leaf(lhs, rhs);
                true
            }
            Some(Part::List(list)) => self.list(&list, lhs, rhs),
            Some(Part::Map(map)) => self.map(&map, lhs, rhs),
        }
    }

    fn leaf(&mut self, lhs: Option<&Value>, rhs: Option<&Value>) {
        let here = self.trail.path.last();
        match (lhs, rhs) {
            (None, _) => self.added.insert_here(here),
            (_, None) => self.removed.insert_here(here),
            (Some(l), Some(r)) if l != r => self.modified.insert_here(here),
            _ => {}
        }
    }

    fn list(&mut self, list: &ListView<'_>, lhs: Option<&Value>, rhs: Option<&Value>) -> bool {
        let (l, r) = (atom::as_items(lhs), atom::as_items(rhs));
        let empty = l.is_none_or(<[Value]>::is_empty) && r.is_none_or(<[Value]>::is_empty);
        if *list.element_relationship() == ElementRelationship::Atomic || empty {
            self.leaf(lhs, rhs);
            return true;
        }
        self.items(list, l.unwrap_or_default(), r.unwrap_or_default());
        false
    }

    fn items(&mut self, list: &ListView<'_>, lhs: &[Value], rhs: &[Value]) {
        // One side without items and the other without duplicates: every item is added (or
        // removed) on its own, in its order; no grouping is needed.
        let one_side = match (lhs.is_empty(), rhs.is_empty()) {
            (true, _) if self.known.rhs_unique => Some((rhs, false)),
            (_, true) if self.known.lhs_unique => Some((lhs, true)),
            _ => None,
        };
        if let Some((items, left)) = one_side {
            // Each item will be a member of the one side's set, and a child node when it has
            // content.
            let children = items.iter().filter(|i| atom::has_content(i)).count();
            match left {
                true => self.removed.reserve(items.len(), children),
                false => self.added.reserve(items.len(), children),
            }
            for (i, item) in items.iter().enumerate() {
                match atom::list_item_element(self.schema, list, item) {
                    Ok(pe) if left => self.item(list, pe, Some(item), None),
                    Ok(pe) => self.item(list, pe, None, Some(item)),
                    Err(e) => self.error(format!("element {i}: {e}")),
                }
            }
            return;
        }
        // Both sides' items in the same order, once each (two versions of one list, usually):
        // each pairs with the item at its position.
        if let (Some(left), Some(right)) = (
            element_set::elements(self.schema, list, lhs),
            element_set::elements(self.schema, list, rhs),
        ) && element_set::aligned(&left, &right, self.known.lhs_unique)
        {
            for ((pe, l), r) in left.into_iter().zip(lhs).zip(rhs) {
                if !(self.known.skip_equal && l == r) {
                    self.item(list, pe, Some(l), Some(r));
                }
            }
            return;
        }
        let mut order: Vec<PathElement> = Vec::with_capacity(lhs.len().max(rhs.len()));
        let mut left: BTreeMap<Ordered, Group<'_>> = BTreeMap::new();
        let mut right: BTreeMap<Ordered, Group<'_>> = BTreeMap::new();
        for (side, items) in [(0, lhs), (1, rhs)] {
            for (i, item) in items.iter().enumerate() {
                let pe = match atom::list_item_element(self.schema, list, item) {
                    Ok(pe) => pe,
                    Err(e) => {
                        self.error(format!("element {i}: {e}"));
                        continue;
                    }
                };
                let groups = if side == 0 { &mut left } else { &mut right };
                match groups.get_mut(&Ordered(pe.clone())) {
                    Some(group) => group.push(item),
                    None => {
                        if side == 0 || !left.contains_key(&Ordered(pe.clone())) {
                            order.push(pe.clone());
                        }
                        let groups = if side == 0 { &mut left } else { &mut right };
                        groups.insert(Ordered(pe), vec![item]);
                    }
                }
            }
        }
        for pe in order {
            let key = Ordered(pe);
            let l = left.get(&key).map_or(&[][..], Vec::as_slice);
            let r = right.get(&key).map_or(&[][..], Vec::as_slice);
            let pe = key.0;
            match (l.len(), r.len()) {
                (0..=1, 0..=1) => self.item(list, pe, l.first().copied(), r.first().copied()),
                (2.., 2..) => {
                    if l.len() != r.len() || l.iter().zip(r).any(|(a, b)| a != b) {
                        self.insert_item(pe, Part3::Modified);
                    }
                }
                (2.., _) => {
                    if let Some(first) = r.first() {
                        self.item(list, pe.clone(), None, Some(first));
                    }
                    self.insert_item(pe, Part3::Removed);
                }
                (_, _) => {
                    if let Some(first) = l.first() {
                        self.item(list, pe.clone(), Some(first), None);
                    }
                    self.insert_item(pe, Part3::Added);
                }
            }
        }
    }

    fn insert_item(&mut self, pe: PathElement, part: Part3) {
        let set = match part {
            Part3::Added => &mut self.added,
            Part3::Modified => &mut self.modified,
            Part3::Removed => &mut self.removed,
        };
        set.insert_below(pe);
    }

    fn item(
        &mut self,
        list: &ListView<'_>,
        pe: PathElement,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) {
        self.enter(pe, lhs, rhs);
        self.node(list.element_type(), lhs, rhs);
        self.leave();
    }

    fn map(&mut self, map: &MapView<'_>, lhs: Option<&Value>, rhs: Option<&Value>) -> bool {
        let (l, r) = (atom::as_entries(lhs), atom::as_entries(rhs));
        let empty = l.is_none_or(|m| m.is_empty()) && r.is_none_or(|m| m.is_empty());
        if map.is_atomic() || empty {
            self.leaf(lhs, rhs);
            return true;
        }
        let field_type = |key: &str| match map.find_field(key) {
            Some(f) => f.type_ref(),
            None => map.definition().element_type_ref(),
        };
        // A map only one side has: each of its entries will be a member of that side's set,
        // and a child node when it has content.
        let one_side = |m: &Map| (m.len(), m.values().filter(|v| atom::has_content(v)).count());
        match (l.filter(|l| !l.is_empty()), r.filter(|r| !r.is_empty())) {
            (None, Some(r)) => {
                let (members, children) = one_side(r);
                self.added.reserve(members, children);
            }
            (Some(l), None) => {
                let (members, children) = one_side(l);
                self.removed.reserve(members, children);
            }
            _ => {}
        }
        let (mut hint, mut shared) = (0, 0);
        if let Some(l) = l {
            for (key, lv) in l.iter() {
                let rv = r.and_then(|r| r.get_near(key, &mut hint));
                shared += usize::from(rv.is_some());
                if self.known.skip_equal && rv == Some(lv) {
                    continue;
                }
                let (tr, depth) = (field_type(key), self.trail.path.len());
                if atom::quiet_scalar_pair(self.schema, tr, depth, Some(lv), rv).is_some() {
                    // The leaf's part, without the walk's levels.
                    match rv {
                        None => self
                            .removed
                            .insert_below(PathElement::Field(Name::from(key))),
                        Some(rv) if rv != lv => self
                            .modified
                            .insert_below(PathElement::Field(Name::from(key))),
                        Some(_) => {}
                    }
                    continue;
                }
                self.enter(PathElement::Field(Name::from(key)), Some(lv), rv);
                self.walk(tr, Some(lv), rv);
                self.leave();
            }
        }
        if let Some(r) = r.filter(|r| r.len() > shared) {
            for (key, rv) in r.iter() {
                if l.is_some_and(|l| l.contains_key(key)) {
                    continue;
                }
                let (tr, depth) = (field_type(key), self.trail.path.len());
                if atom::quiet_scalar_pair(self.schema, tr, depth, None, Some(rv)).is_some() {
                    self.added.insert_below(PathElement::Field(Name::from(key)));
                    continue;
                }
                self.enter(PathElement::Field(Name::from(key)), None, Some(rv));
                self.node(tr, None, Some(rv));
                self.leave();
            }
        }
        false
    }
}

/// Whether both sides are maps.
pub(super) fn both_maps(lhs: Option<&Value>, rhs: Option<&Value>) -> bool {
    matches!((lhs, rhs), (Some(Value::Map(_)), Some(Value::Map(_))))
}

#[derive(Clone, Copy)]
enum Part3 {
    Added,
    Modified,
    Removed,
}
