//! The Updater: Server-Side Apply and Update for a manager, with the ownership of every
//! field tracked per manager and API version (Go's `merge` package).
//!
//! * [`Updater::update`] (create, update, patch) never conflicts: the manager takes every
//!   field it changes, from whoever owned it.
//! * [`Updater::apply`] merges the configuration into the live object, owns exactly the
//!   configuration's fields, prunes the fields it applied last time and no longer sets
//!   (unless someone else owns them), and is refused with [`Conflicts`] when it would change a
//!   field another manager owns — unless forced, which takes the fields.
//!
//! Each manager's fields are read in its own API version; a [`Converter`] converts objects
//! between versions (field sets are never converted).
//!
//! ```
//! use std::sync::Arc;
//! use smd::fieldpath::{yaml, ManagedFields};
//! use smd::merge::{Identity, Updater};
//! use smd::typed::TypedValue;
//!
//! let updater = Updater::new(Identity);
//! let live = TypedValue::deduced(yaml::from_str("{replicas: 1}").unwrap());
//! let mine = TypedValue::deduced(yaml::from_str("{replicas: 3}").unwrap());
//! // A controller created the object with `replicas`: an apply that changes it conflicts.
//! let managers = updater
//!     .update(&live.empty(), &live, "v1", &ManagedFields::new(), "controller")
//!     .unwrap();
//! let err = updater.apply(&live, &mine, "v1", &managers, "me", false).unwrap_err();
//! assert_eq!(err.to_string(), r#"conflict with "controller": .replicas"#);
//! ```

mod conflict;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use smd_fieldpath::{ExcludeFilter, Filter, ManagedFields, Set, VersionedSet};

use crate::typed::{self, Comparison, TypedValue, ensure_named_fields_are_members};

pub use conflict::{Conflict, Conflicts};

/// Converts objects between API versions.
pub trait Converter {
    /// `object` at `version`; borrowed when it needs no conversion.
    fn convert<'a>(
        &self,
        object: &'a TypedValue,
        version: &str,
    ) -> Result<Cow<'a, TypedValue>, ConversionError>;
}

/// A conversion failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ConversionError {
    /// What went wrong.
    pub message: String,
    /// The version is not served any more: managers at it are dropped, not failed on.
    pub missing_version: bool,
}

/// The converter of a single-version world: every object is already at every version.
#[derive(Debug, Clone, Copy, Default)]
pub struct Identity;

impl Converter for Identity {
    fn convert<'a>(
        &self,
        object: &'a TypedValue,
        _version: &str,
    ) -> Result<Cow<'a, TypedValue>, ConversionError> {
        Ok(Cow::Borrowed(object))
    }
}

/// Fields left out of ownership, per API version (Go's `IgnoredFields` or `IgnoreFilter`;
/// Go refuses both at once, which this type cannot express).
#[derive(Default)]
pub enum Ignore {
    /// Nothing is ignored.
    #[default]
    Nothing,
    /// These fields and everything below them. Every version an apply or update uses needs
    /// an entry (an empty set ignores nothing); a missing one fails the call.
    Fields(HashMap<String, Set>),
    /// What these filters take out.
    Filters(HashMap<String, Box<dyn Filter + Send + Sync>>),
}

impl std::fmt::Debug for Ignore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ignore::Nothing => f.write_str("Nothing"),
            Ignore::Fields(sets) => f.debug_tuple("Fields").field(sets).finish(),
            Ignore::Filters(filters) => {
                let mut versions: Vec<&String> = filters.keys().collect();
                versions.sort();
                f.debug_tuple("Filters").field(&versions).finish()
            }
        }
    }
}

impl Ignore {
    fn comparison(&self, mut c: Comparison, version: &str) -> Comparison {
        match self {
            Ignore::Nothing => {}
            Ignore::Fields(sets) => {
                if let Some(set) = sets.get(version) {
                    c.exclude_fields(set);
                }
            }
            Ignore::Filters(filters) => {
                if let Some(filter) = filters.get(version) {
                    c.filter_fields(filter.as_ref());
                }
            }
        }
        c
    }

    /// The part of an applier's or updater's new set that it owns. Ignored fields without
    /// an entry for `version` are refused: Go dereferences the missing set and panics.
    fn set(&self, set: Set, version: &str) -> Result<Set, Error> {
        match self {
            Ignore::Nothing => Ok(set),
            Ignore::Fields(sets) => match sets.get(version) {
                Some(excluded) => Ok(ExcludeFilter::new(excluded.clone()).filter(&set)),
                None => {
                    let mut configured: Vec<&String> = sets.keys().collect();
                    configured.sort();
                    Err(Error::Failed(format!(
                        "no ignored fields are configured for version {version:?} (only for \
                         {configured:?})"
                    )))
                }
            },
            Ignore::Filters(filters) => Ok(match filters.get(version) {
                Some(filter) => filter.filter(&set),
                None => set,
            }),
        }
    }
}

/// Why an apply or update failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The apply would change fields other managers own.
    #[error("{0}")]
    Conflicts(Conflicts),
    /// Anything else, in Go's words (`failed to merge config: …`).
    #[error("{0}")]
    Failed(String),
}

fn failed(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Failed(format!("{context}: {e}"))
}

/// Applies and updates objects for managers.
#[derive(Debug)]
pub struct Updater<C> {
    converter: C,
    ignore: Ignore,
    return_input_on_noop: bool,
}

impl<C: Converter> Updater<C> {
    /// An updater converting with `converter`, ignoring nothing.
    pub fn new(converter: C) -> Updater<C> {
        Updater {
            converter,
            ignore: Ignore::Nothing,
            return_input_on_noop: false,
        }
    }

    /// This updater, ignoring `ignore`.
    pub fn with_ignore(mut self, ignore: Ignore) -> Updater<C> {
        self.ignore = ignore;
        self
    }

    /// This updater, returning the object of an apply that changes nothing instead of `None`.
    pub fn with_return_input_on_noop(mut self, yes: bool) -> Updater<C> {
        self.return_input_on_noop = yes;
        self
    }

    /// The converter.
    pub fn converter(&self) -> &C {
        &self.converter
    }

    /// `manager` changes `live` into `new` at `version` (a create, update or patch): it owns
    /// every field it changed, taken from anyone who owned it. Returns the managers after.
    pub fn update(
        &self,
        live: &TypedValue,
        new: &TypedValue,
        version: &str,
        managers: &ManagedFields,
        manager: &str,
    ) -> Result<ManagedFields, Error> {
        let mut managers = self.reconcile(live, managers)?;
        let compare = self
            .take_changes(live, new, version, &mut managers, manager, true, true)?
            .unwrap_or_default();
        let set = match managers.get(manager).map(VersionedSet::set) {
            Some(prior) if !prior.is_bare() => prior
                .difference(&compare.removed)
                .union(&compare.modified)
                .union(&compare.added),
            // Nothing owned before (every create): nothing to take away, and a union with a
            // bare set is the other set, structurally.
            _ => compare.modified.union_owned(compare.added),
        };
        let set = self.ignore.set(set, version)?;
        if set.is_empty() {
            managers.remove(manager);
        } else {
            managers.insert(manager, VersionedSet::new(set, version, false));
        }
        Ok(managers)
    }

    /// `manager` applies `config` to `live` at `version`. Returns the new object (`None`
    /// when nothing changes, unless the updater returns its input on no-ops) and the managers
    /// after. Refused with [`Error::Conflicts`] when, without `force`, it would change a field
    /// another manager owns; a refused apply changes nothing.
    pub fn apply(
        &self,
        live: &TypedValue,
        config: &TypedValue,
        version: &str,
        managers: &ManagedFields,
        manager: &str,
        force: bool,
    ) -> Result<(Option<TypedValue>, ManagedFields), Error> {
        let mut managers = self.reconcile(live, managers)?;
        let merged = live
            .merge(config)
            .map_err(|e| failed("failed to merge config", e))?;
        let last = managers.get(manager).cloned();
        let set = config
            .to_field_set()
            .map_err(|e| failed("failed to get field set", e))?;
        let set = self.ignore.set(set, version)?;
        managers.insert(manager, VersionedSet::new(set, version, true));
        let merged = self
            .prune(merged, &managers, manager, last.as_ref())
            .map_err(|e| failed("failed to prune fields", e))?;
        self.take_changes(live, &merged, version, &mut managers, manager, force, false)?;
        if !self.return_input_on_noop && live.value() == merged.value() {
            return Ok((None, managers));
        }
        Ok((Some(merged), managers))
    }

    /// Go's `update`: compares old and new in each manager's version; the changes conflict
    /// with what other managers own (refused unless `force`; forced, they lose those fields),
    /// and removed fields leave everyone. Managers left with nothing are dropped. Returns the
    /// comparison at `version` when `wanted`.
    ///
    /// With no other manager and the comparison not wanted, nothing is compared (an apply that
    /// creates the object, or whose applier is alone): the comparison would only be read for
    /// its error, and old and new are both typed values of one schema (checked, or merged from
    /// checked ones), which compare without error. Debug builds compare anyway and check.
    #[allow(
        clippy::too_many_arguments,
        reason = "one private step of apply and update"
    )]
    fn take_changes(
        &self,
        old: &TypedValue,
        new: &TypedValue,
        version: &str,
        managers: &mut ManagedFields,
        workflow: &str,
        force: bool,
        wanted: bool,
    ) -> Result<Option<Comparison>, Error> {
        // No other manager: no conflict to find and nothing to take from anyone.
        let alone = managers.iter().all(|(name, _)| name == workflow);
        if alone && !wanted {
            debug_assert!(
                old.compare(new).is_ok(),
                "typed values that fail to compare"
            );
            drop_empty(managers);
            return Ok(None);
        }
        let compare = old
            .compare(new)
            .map_err(|e| failed("failed to compare objects", e))?;
        if alone {
            drop_empty(managers);
            return Ok(Some(self.ignore.comparison(compare, version)));
        }
        let mut versions: HashMap<String, Comparison> = HashMap::new();
        versions.insert(version.to_owned(), self.ignore.comparison(compare, version));
        let mut conflicts = ManagedFields::new();
        let mut removed: BTreeMap<String, Set> = BTreeMap::new();
        let names: Vec<String> = managers.iter().map(|(m, _)| m.to_owned()).collect();
        for name in names {
            if name == workflow {
                continue;
            }
            let Some(owned) = managers.get(&name).cloned() else {
                continue;
            };
            let at = owned.api_version();
            if !versions.contains_key(at) {
                let old_at = match self.converter.convert(old, at) {
                    Ok(o) => o,
                    Err(e) if e.missing_version => {
                        managers.remove(&name);
                        continue;
                    }
                    Err(e) => return Err(failed("failed to convert old object", e)),
                };
                let new_at = match self.converter.convert(new, at) {
                    Ok(n) => n,
                    Err(e) if e.missing_version => {
                        managers.remove(&name);
                        continue;
                    }
                    Err(e) => return Err(failed("failed to convert new object", e)),
                };
                let c = old_at
                    .compare(&new_at)
                    .map_err(|e| failed("failed to compare objects", e))?;
                versions.insert(at.to_owned(), self.ignore.comparison(c, at));
            }
            let Some(c) = versions.get(at) else { continue };
            let conflict = owned.set().intersection(&c.modified.union(&c.added));
            if !conflict.is_empty() {
                conflicts.insert(name.clone(), VersionedSet::new(conflict, at, false));
            }
            if !c.removed.is_empty() {
                removed.insert(name, c.removed.clone());
            }
        }
        if !force && !conflicts.is_empty() {
            return Err(Error::Conflicts(Conflicts::from_managers(&conflicts)));
        }
        for (name, conflict) in conflicts.iter() {
            take(managers, name, conflict.set());
        }
        for (name, gone) in &removed {
            take(managers, name, gone);
        }
        drop_empty(managers);
        Ok(Some(versions.remove(version).unwrap_or_default()))
    }

    /// Removes from the merged object what `applier` applied last time and applies no more,
    /// keeping what any manager still owns and what it never applied.
    fn prune(
        &self,
        merged: TypedValue,
        managers: &ManagedFields,
        applier: &str,
        last: Option<&VersionedSet>,
    ) -> Result<TypedValue, Error> {
        let Some(last) = last.filter(|l| !l.set().is_empty()) else {
            return Ok(merged);
        };
        let version = last.api_version();
        let at_last = match self.converter.convert(&merged, version) {
            Ok(m) => m.into_owned(),
            Err(e) if e.missing_version => return Ok(merged),
            Err(e) => {
                return Err(failed(
                    "failed to convert merged object to last applied version",
                    e,
                ));
            }
        };
        let last_named = ensure_named_fields_are_members(last.set(), &at_last);
        let pruned = at_last.remove_items(&last_named);
        let mut memo = MergedFields::default();
        let pruned = self
            .add_back_owned(&at_last, pruned, version, managers, &mut memo)
            .map_err(|e| failed("failed add back owned items", e))?;
        let pruned = self
            .add_back_dangling(&at_last, &pruned, last, &last_named, memo)
            .map_err(|e| failed("failed add back dangling items", e))?;
        let target = managers
            .get(applier)
            .map(|m| m.api_version().to_owned())
            .unwrap_or_default();
        self.converter
            .convert(&pruned, &target)
            .map(Cow::into_owned)
            .map_err(|e| Error::Failed(e.message))
    }

    /// Puts back into `pruned` whatever any manager owns, version by version (the pruned
    /// version first). `memo` keeps what was learnt of `merged` itself (unconverted).
    fn add_back_owned(
        &self,
        merged: &TypedValue,
        mut pruned: TypedValue,
        pruned_version: &str,
        managers: &ManagedFields,
        memo: &mut MergedFields,
    ) -> Result<TypedValue, Error> {
        let mut owned: BTreeMap<&str, Set> = BTreeMap::new();
        for (_, m) in managers.iter() {
            let entry = owned.entry(m.api_version()).or_default();
            *entry = entry.union(m.set());
        }
        // Whether `current` is still `merged` itself (no version converted it yet).
        let mut current: Cow<'_, TypedValue> = Cow::Borrowed(merged);
        let first = owned.remove(pruned_version).map(|s| (pruned_version, s));
        for (version, set) in first.into_iter().chain(owned) {
            let merged_at = match self.converter.convert(&current, version) {
                Ok(m) => m,
                Err(e) if e.missing_version => continue,
                Err(e) => {
                    return Err(Error::Failed(format!(
                        "failed to convert merged object at version {version}: {e}"
                    )));
                }
            };
            let is_merged = matches!((&current, &merged_at), (Cow::Borrowed(_), Cow::Borrowed(_)));
            let merged_at = merged_at.into_owned();
            let pruned_at = match self.converter.convert(&pruned, version) {
                Ok(p) => p.into_owned(),
                Err(e) if e.missing_version => {
                    current = Cow::Owned(merged_at);
                    continue;
                }
                Err(e) => {
                    return Err(Error::Failed(format!(
                        "failed to convert pruned object at version {version}: {e}"
                    )));
                }
            };
            let merged_set = merged_at.to_field_set().map_err(|e| {
                Error::Failed(format!(
                    "failed to create field set from merged object at version {version}: {e}"
                ))
            })?;
            let pruned_set = pruned_at.to_field_set().map_err(|e| {
                Error::Failed(format!(
                    "failed to create field set from pruned object at version {version}: {e}"
                ))
            })?;
            let ensure = |s: &Set| ensure_named_fields_are_members(s, &merged_at);
            let keep = ensure(&pruned_set).union(&ensure(&set));
            let merged_named = ensure(&merged_set);
            let unowned = merged_named.difference(&keep);
            pruned = merged_at.remove_items(&unowned);
            memo.pruned_set = None;
            if is_merged {
                // Usually only leaves of maps go (the live object's managedFields): then the
                // pruned object's set is the merged one's without them, not read again.
                if removes_only_leaves(&merged_set, &unowned, merged.value()) {
                    let pruned_set = merged_set.difference(&unowned);
                    debug_assert_eq!(Some(&pruned_set), pruned.to_field_set().ok().as_ref());
                    memo.pruned_set = Some(pruned_set);
                }
                memo.merged_named = Some(merged_named);
                current = Cow::Borrowed(merged);
            } else {
                current = Cow::Owned(merged_at);
            }
        }
        Ok(pruned)
    }

    /// Puts back what the prune removed but `last` never applied (`last_named`: its set with
    /// the named fields made members, typed by `merged`).
    fn add_back_dangling(
        &self,
        merged: &TypedValue,
        pruned: &TypedValue,
        last: &VersionedSet,
        last_named: &Set,
        memo: MergedFields,
    ) -> Result<TypedValue, Error> {
        let pruned_at = match self.converter.convert(pruned, last.api_version()) {
            Ok(p) => p,
            Err(e) if e.missing_version => return Ok(merged.clone()),
            Err(e) => {
                return Err(failed(
                    "failed to convert pruned object to last applied version",
                    e,
                ));
            }
        };
        let pruned_failed = |e| {
            failed(
                "failed to create field set from pruned object in last applied version",
                e,
            )
        };
        let merged_failed = |e| {
            failed(
                "failed to create field set from merged object in last applied version",
                e,
            )
        };
        let ensure = |s: &Set| ensure_named_fields_are_members(s, merged);
        // The same data has the same fields: nothing is gone. (The merged object's set was read
        // without error, as Go's second reading here then finds too.)
        if memo.merged_named.is_some() && pruned_at.value().same_as(merged.value()) {
            return Ok(merged.remove_items(&Set::new()));
        }
        // Go reads the pruned object's set first, whose error then wins.
        let pruned_set = match (memo.pruned_set, &pruned_at) {
            (Some(known), Cow::Borrowed(_)) => known,
            _ => pruned_at.to_field_set().map_err(pruned_failed)?,
        };
        let merged_named = match memo.merged_named {
            Some(named) => named,
            None => ensure(&merged.to_field_set().map_err(merged_failed)?),
        };
        let gone = merged_named
            .difference(&ensure(&pruned_set))
            .intersection(last_named);
        Ok(merged.remove_items(&gone))
    }

    /// Each manager's set adjusted to schema changes (in its version); managers at versions
    /// that no longer exist are dropped.
    fn reconcile(
        &self,
        live: &TypedValue,
        managers: &ManagedFields,
    ) -> Result<ManagedFields, Error> {
        let mut out = ManagedFields::new();
        for (name, owned) in managers.iter() {
            let at = match self.converter.convert(live, owned.api_version()) {
                Ok(at) => at,
                Err(e) if e.missing_version => continue,
                Err(e) => return Err(Error::Failed(e.message)),
            };
            let reconciled = typed::reconcile_field_set_with_schema(owned.set(), &at)
                .map_err(|e| Error::Failed(e.to_string()))?;
            let entry = match reconciled {
                Some(set) => VersionedSet::new(set, owned.api_version(), owned.applied()),
                None => owned.clone(),
            };
            out.insert(name, entry);
        }
        Ok(out)
    }
}

/// What [`Updater::add_back_owned`] learnt of the merged object itself (at a version that
/// needed no conversion) for [`Updater::add_back_dangling`].
#[derive(Default)]
struct MergedFields {
    /// Its field set (read without error) with its named fields made members.
    merged_named: Option<Set>,
    /// The field set of the pruned object add_back_owned returned, when known without
    /// reading it.
    pruned_set: Option<Set>,
}

/// Whether removing `gone` from `value` (whose field set is `fields`) only deletes entries of
/// maps that keep at least one other entry, each a leaf of `fields` (a member with nothing
/// below it). The value's set then loses exactly `gone`: nothing else changes shape (no map
/// becomes null, no list item loses a key).
fn removes_only_leaves(fields: &Set, gone: &Set, value: &smd_fieldpath::Value) -> bool {
    let smd_fieldpath::Value::Map(map) = value else {
        return false;
    };
    let members = gone.members();
    if !members.is_empty() {
        if map.len() <= members.len() {
            return false;
        }
        let leaf = |m: &smd_fieldpath::PathElement| {
            m.as_field().is_some() && fields.has_member(m) && fields.child(m).is_none()
        };
        if !members.iter().all(leaf) {
            return false;
        }
    }
    gone.children().all(|(element, below)| {
        let key = element.as_field().and_then(|name| name.as_str());
        match (key.and_then(|k| map.get(k)), fields.child(element)) {
            (Some(v), Some(fields)) => removes_only_leaves(fields, below, v),
            _ => false,
        }
    })
}

/// Drops the managers left with nothing.
fn drop_empty(managers: &mut ManagedFields) {
    let empty: Vec<String> = managers
        .iter()
        .filter(|(_, s)| s.set().is_empty())
        .map(|(m, _)| m.to_owned())
        .collect();
    for name in empty {
        managers.remove(&name);
    }
}

/// `name` loses `gone` (keeping its version and applied flag).
fn take(managers: &mut ManagedFields, name: &str, gone: &Set) {
    if let Some(m) = managers.get(name) {
        let left = VersionedSet::new(m.set().difference(gone), m.api_version(), m.applied());
        managers.insert(name, left);
    }
}
