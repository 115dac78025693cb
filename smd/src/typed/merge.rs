//! Merging a configuration into a live value (Go's `Merge` with its keep-the-right-side rule).
//!
//! At every leaf the right side wins when it is there (a null too). Granular maps merge entry
//! by entry; an empty or null right side keeps a non-empty left map (removal is the prune's
//! business, not the merge's). Associative lists merge item by item in Go's order: items only
//! on the left stay where they were, shared and new items follow the right side's order.

use std::collections::{BTreeMap, BTreeSet};

use smd_fieldpath::{Map, Name, PathElement, Value};
use smd_schema::{ElementRelationship, ListView, MapView, Schema, TypeRef};

use super::atom::{self, Deduced, Part, Trail};
use super::element_set::{self, Ordered};
use super::error::ValidationErrors;

pub(crate) fn merge(
    schema: &Schema,
    tr: &TypeRef,
    lhs: &Value,
    rhs: &Value,
    skip_equal: bool,
    rhs_checked: bool,
) -> Result<Value, ValidationErrors> {
    let mut w = Walker {
        schema,
        skip_equal,
        rhs_checked,
        trail: Trail::new(),
    };
    let out = w.node(tr, Some(lhs), Some(rhs));
    w.trail.finish(out.unwrap_or_default())
}

struct Walker<'s> {
    schema: &'s Schema,
    /// Equal subtrees merge to the right side's (one side was checked, without duplicates).
    skip_equal: bool,
    /// The right side was checked, without duplicates: a part only it has, whose lists all
    /// name their items, merges to itself (the walk of it would find no error and rebuild the
    /// same value; a positional list's items cannot be merged, which Go reports).
    rhs_checked: bool,
    trail: Trail,
}

impl Walker<'_> {
    fn error(&mut self, message: String) {
        self.trail.error(message);
    }

    /// The merge of the node; `None` when it produces nothing.
    fn node(&mut self, tr: &TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
        if lhs.is_none() && rhs.is_none() {
            self.error("at least one of lhs and rhs must be provided".to_owned());
            return None;
        }
        // (`map` checks its entries before walking them, so that an equal entry is compared
        // once; an equal map kept whole here keeps the right side's, shared.)
        if self.skip_equal && lhs.is_some() && lhs == rhs {
            return rhs.cloned();
        }
        self.walk(tr, lhs, rhs)
    }

    fn walk(&mut self, tr: &TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
        if self.rhs_checked && lhs.is_none() && self.schema.names_list_items(tr) {
            return rhs.cloned();
        }
        let resolved = self.trail.resolve(self.schema, tr)?;
        let (first, part) = atom::sides(resolved, lhs, rhs);
        if let Some(first) = first {
            // Handled for its errors only: the result is the right side's.
            self.handle(tr, first, lhs, rhs);
        }
        self.handle(tr, part, lhs, rhs)
    }

    fn handle(
        &mut self,
        tr: &TypeRef,
        part: Deduced<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Option<Value> {
        match part.part() {
            None => {
                self.error(atom::invalid_atom(tr));
                None
            }
            Some(Part::Scalar(t)) => {
                if self.trail.refuse_scalars(t, lhs, rhs) {
                    return None;
                }
                leaf(lhs, rhs)
            }
            Some(Part::List(list)) => self.list(&list, lhs, rhs),
            Some(Part::Map(map)) => self.map(&map, lhs, rhs),
        }
    }

    fn list(
        &mut self,
        list: &ListView<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Option<Value> {
        let (l, r) = (atom::as_items(lhs), atom::as_items(rhs));
        let empty = l.is_none_or(<[Value]>::is_empty) && r.is_none_or(<[Value]>::is_empty);
        if *list.element_relationship() == ElementRelationship::Atomic || empty {
            return leaf(lhs, rhs);
        }
        self.items(list, l.unwrap_or_default(), r.unwrap_or_default())
    }

    /// Names every item of a side: (element, item) in order, and element → the item (a
    /// null in place of an item that appears several times on the left).
    fn index<'v>(
        &mut self,
        list: &ListView<'_>,
        items: &'v [Value],
        allow_duplicates: bool,
    ) -> (Vec<PathElement>, BTreeMap<Ordered, Option<&'v Value>>) {
        let mut elements = Vec::with_capacity(items.len());
        let mut observed: BTreeMap<Ordered, Option<&'v Value>> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            let pe = match atom::list_item_element(self.schema, list, item) {
                Ok(pe) => pe,
                Err(e) => {
                    self.error(format!("element {i}: {e}"));
                    continue;
                }
            };
            match observed.get_mut(&Ordered(pe.clone())) {
                Some(_) if !allow_duplicates => {
                    self.error(format!("duplicate entries for key {pe}"));
                    continue;
                }
                Some(seen) => *seen = None,
                None => {
                    observed.insert(Ordered(pe.clone()), Some(item));
                }
            }
            elements.push(pe);
        }
        (elements, observed)
    }

    fn items(&mut self, list: &ListView<'_>, lhs: &[Value], rhs: &[Value]) -> Option<Value> {
        // Both sides' items in the same order, once each: the order below keeps them so, each
        // item merged with the one at its position.
        if let (Some(left), Some(right)) = (
            element_set::elements(self.schema, list, lhs),
            element_set::elements(self.schema, list, rhs),
        ) && element_set::aligned(&left, &right, false)
        {
            let errors = self.trail.errors.len();
            let mut out = Vec::with_capacity(lhs.len());
            for ((pe, l), r) in left.iter().zip(lhs).zip(rhs) {
                out.extend(self.item(list, pe, Some(l), Some(r)));
            }
            self.trail.errors.truncate(errors);
            return (!out.is_empty()).then_some(Value::List(out));
        }
        let before = self.trail.errors.len();
        let (right, right_items) = self.index(list, rhs, false);
        let (left, left_items) = self.index(list, lhs, true);
        if self.trail.errors.len() > before {
            return None;
        }
        // An item duplicated on the left merges as a null: the right side's item replaces all
        // its copies.
        const DUPLICATED: &Value = &Value::Null;
        let left_item = |pe: &PathElement| {
            left_items
                .get(&Ordered(pe.clone()))
                .map(|item| item.unwrap_or(DUPLICATED))
        };
        let in_right = |pe: &PathElement| right_items.contains_key(&Ordered(pe.clone()));
        let right_item =
            |pe: &PathElement| right_items.get(&Ordered(pe.clone())).copied().flatten();

        let mut shared = right
            .iter()
            .filter(|pe| left_items.contains_key(&Ordered((*pe).clone())));
        let mut next_shared = shared.next();
        let mut merged: BTreeSet<Ordered> = BTreeSet::new();
        let mut out = Vec::with_capacity(lhs.len().max(rhs.len()));
        let (mut li, mut ri) = (0, 0);
        // Errors inside list items are dropped, as Go drops them.
        let errors = self.trail.errors.len();
        while li < left.len() || ri < right.len() {
            if li < left.len() && ri < right.len() {
                let pe = &left[li];
                if pe.compare(&right[ri]).is_eq() {
                    merged.insert(Ordered(pe.clone()));
                    let merged_item = self.item(list, pe, left_item(pe), right_item(pe));
                    out.extend(merged_item);
                    li += 1;
                    ri += 1;
                    next_shared = shared.next();
                    continue;
                }
                if in_right(pe) && next_shared.is_some_and(|s| s.compare(pe).is_ne()) {
                    li += 1;
                    continue;
                }
            }
            if li < left.len() {
                let pe = &left[li];
                if !in_right(pe) {
                    let merged_item = self.item(list, pe, lhs.get(li), None);
                    out.extend(merged_item);
                    li += 1;
                    continue;
                } else if merged.contains(&Ordered(pe.clone())) {
                    li += 1;
                }
            }
            if ri < right.len() {
                let pe = &right[ri];
                merged.insert(Ordered(pe.clone()));
                let merged_item = self.item(list, pe, left_item(pe), right_item(pe));
                out.extend(merged_item);
                ri += 1;
                if next_shared.is_some_and(|s| s.compare(pe).is_eq()) {
                    next_shared = shared.next();
                }
            }
        }
        self.trail.errors.truncate(errors);
        (!out.is_empty()).then_some(Value::List(out))
    }

    fn item(
        &mut self,
        list: &ListView<'_>,
        pe: &PathElement,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Option<Value> {
        self.trail.path.push(pe.clone());
        let out = self.node(list.element_type(), lhs, rhs);
        self.trail.path.pop();
        out
    }

    fn map(
        &mut self,
        map: &MapView<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Option<Value> {
        let (l, r) = (atom::as_entries(lhs), atom::as_entries(rhs));
        let empty = l.is_none_or(|m| m.is_empty()) && r.is_none_or(|m| m.is_empty());
        if map.is_atomic() || empty {
            return leaf(lhs, rhs);
        }
        let field_type = |key: &str| match map.find_field(key) {
            Some(f) => f.type_ref(),
            None => map.definition().element_type_ref(),
        };
        // The keys of both sides are unique, and those of the right side are pushed only when
        // the left lacks them: every key of `out` is new to it.
        let mut out = Map::with_capacity(l.map_or(0, Map::len).max(r.map_or(0, Map::len)));
        let (mut hint, mut shared) = (0, 0);
        if let Some(l) = l {
            for (key, lv) in l.iter() {
                let rv = r.and_then(|r| r.get_near(key, &mut hint));
                shared += usize::from(rv.is_some());
                if let Some(rv) = rv.filter(|rv| self.skip_equal && *rv == lv) {
                    out.push_unique(key, rv.clone());
                    continue;
                }
                let (tr, depth) = (field_type(key), self.trail.path.len());
                if atom::quiet_scalar_pair(self.schema, tr, depth, Some(lv), rv).is_some() {
                    out.push_unique(key, leaf(Some(lv), rv).unwrap_or_default());
                    continue;
                }
                self.trail.path.push(PathElement::Field(Name::from(key)));
                if let Some(v) = self.walk(tr, Some(lv), rv) {
                    out.push_unique(key, v);
                }
                self.trail.path.pop();
            }
        }
        if let Some(r) = r.filter(|r| r.len() > shared) {
            for (key, rv) in r.iter() {
                if l.is_some_and(|l| l.contains_key(key)) {
                    continue;
                }
                let (tr, depth) = (field_type(key), self.trail.path.len());
                if atom::quiet_scalar_pair(self.schema, tr, depth, None, Some(rv)).is_some() {
                    out.push_unique(key, rv.clone());
                    continue;
                }
                self.trail.path.push(PathElement::Field(Name::from(key)));
                if let Some(v) = self.node(tr, None, Some(rv)) {
                    out.push_unique(key, v);
                }
                self.trail.path.pop();
            }
        }
        (!out.is_empty()).then_some(Value::Map(out))
    }
}

/// Go's keep-the-right-side rule at a leaf.
fn leaf(lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    rhs.or(lhs).cloned()
}
