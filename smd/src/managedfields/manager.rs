//! The field manager of one endpoint (`NewDefaultFieldManager`, `MF/fieldmanager.go:36-42`,
//! and its outer shell `IN/fieldmanager.go`): decodes the live object's managedFields, runs
//! the chain of managers, and stores the result.

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

use super::cap::MAX_UPDATE_MANAGERS;
use super::conflict::ConflictError;
use super::entry::{Entry, Stored, entries_or_none, set_entries, set_entry_values, stored_or_none};
use super::error::Error;
use super::managed::Managed;
use super::object::{group_version, new_object};
use super::pipeline::Failure;
use super::reset::ResetFields;
use super::time::Timestamp;
use super::types::{TypeResolver, VersionConverter};
use crate::merge::Updater;

/// The API server's field manager for one kind and subresource: applies and updates objects
/// and keeps their `metadata.managedFields` as Kubernetes does.
///
/// The chain, outermost first (`IN/fieldmanager.go:57-75`): the kind check, the
/// `last-applied-configuration` updater and manager (for `kubectl`), `before-first-apply`
/// for objects with no managedFields, the cap of Update managers (`ancient-changes`), the
/// manager's identity (name, operation, apiVersion, subresource), times, the strip of
/// metadata no one owns, and the merge with the endpoint's reset fields ignored.
///
/// Times come from the `now` each call is given. What the API server does around the field
/// manager is not done: defaulting, conversion between versions, admission, the reset of
/// ignored fields' values by the strategy, and the manager-name checks
/// ([`validate_manager`](super::validate_manager)).
#[derive(Debug)]
pub struct FieldManager {
    pub(super) types: TypeResolver,
    pub(super) kind: GroupVersionKind,
    pub(super) group_version: String,
    pub(super) subresource: String,
    pub(super) updater: Updater<VersionConverter>,
    pub(super) max_update_managers: usize,
    /// Whether an apply's merged object of a built-in kind is decoded and defaulted.
    pub(super) builtin_decoding: bool,
}

impl FieldManager {
    /// The field manager of the endpoint serving `kind` (its main resource, nothing reset),
    /// typing objects with `types`.
    pub fn new(types: TypeResolver, kind: GroupVersionKind) -> FieldManager {
        let updater = Updater::new(VersionConverter {
            types: types.clone(),
        });
        FieldManager {
            group_version: group_version(&kind),
            types,
            kind,
            subresource: String::new(),
            updater,
            max_update_managers: MAX_UPDATE_MANAGERS,
            builtin_decoding: false,
        }
    }

    /// The field manager of a built-in endpoint of Kubernetes 1.37: the embedded schema, and
    /// the reset fields of `kind` through `subresource` (empty for the main resource) from the
    /// registry strategies ([`ResetFields::kubernetes`]). For `scale`, pass the kind of the
    /// Scale object (`autoscaling/v1` `Scale`), which resets nothing.
    pub fn kubernetes(kind: GroupVersionKind, subresource: &str) -> FieldManager {
        let reset = ResetFields::kubernetes(&kind.group, &kind.kind, subresource);
        FieldManager::new(TypeResolver::kubernetes(), kind)
            .with_subresource(subresource)
            .with_reset_fields(&reset)
    }

    /// This field manager for `subresource` (`status`, `scale`): its managers are distinct
    /// from the main resource's, and an update keeps the live object's managedFields whatever
    /// the request holds.
    pub fn with_subresource(mut self, subresource: impl Into<String>) -> FieldManager {
        self.subresource = subresource.into();
        self
    }

    /// This field manager, ignoring `reset` (the fields the endpoint's strategy resets):
    /// no one owns them and no apply conflicts on them.
    pub fn with_reset_fields(mut self, reset: &ResetFields) -> FieldManager {
        self.updater = Updater::new(VersionConverter {
            types: self.types.clone(),
        })
        .with_ignore(reset.to_ignore());
        self
    }

    /// This field manager, passing the merged object of an apply of a built-in kind through
    /// [`crate::builtin::decode`] (its Go type's round trip and the scheme's defaults), as the
    /// API server's field manager does (`toVersioned`, `Default`, `toUnversioned`:
    /// apimachinery v0.37.2 `managedfields/internal/structuredmerge.go:165-181`). Off by
    /// default: Go's test field manager, which the Go-library goldens record, does neither.
    /// Custom resources are never decoded (the kind is not built in).
    pub fn with_builtin_decoding(mut self) -> FieldManager {
        self.builtin_decoding = true;
        self
    }

    /// The kind served.
    pub fn kind(&self) -> &GroupVersionKind {
        &self.kind
    }

    /// The subresource served, empty for the main resource.
    pub fn subresource(&self) -> &str {
        &self.subresource
    }

    /// The live object of a create: `apiVersion` and `kind` alone; with
    /// [`FieldManager::with_builtin_decoding`], a built-in kind's Go zero value as the server's
    /// `New()` encodes it (`spec: {}`, `status: {}`, ...), whose present maps an Update
    /// manager does not own.
    pub fn new_object(&self) -> Value {
        self.zero_object(&self.kind)
    }

    /// The empty object of `kind` the API server's `creater.New` gives.
    pub(super) fn zero_object(&self, kind: &GroupVersionKind) -> Value {
        let empty = new_object(kind);
        if self.builtin_decoding
            && crate::builtin::is_builtin(kind)
            && let Ok(zero) = crate::builtin::round_trip(kind, &empty)
        {
            return zero.object;
        }
        empty
    }

    /// `manager` applies `applied` to `live` (server-side apply; `force` takes conflicting
    /// fields): the object as the API server would store it, managedFields included (before
    /// defaulting). For a create, pass [`FieldManager::new_object`] as `live`.
    pub fn apply(
        &self,
        live: &Value,
        applied: &Value,
        manager: &str,
        force: bool,
        now: Timestamp,
    ) -> Result<Value, Error> {
        ensure_map(live, "live")?;
        ensure_map(applied, "applied")?;
        let managed = Managed::decode_stored(stored_or_none(live).unwrap_or_default())
            .map_err(Error::ManagedFields)?;
        let (mut object, managed) = self
            .chain_apply(live, applied, managed, manager, force, now)
            .map_err(|f| match f {
                Failure::Conflicts(c) => Error::Conflict(ConflictError::new(&c)),
                Failure::Error(e) => e,
            })?;
        store(&mut object, &managed, live)?;
        Ok(object)
    }

    /// `manager` changes `live` into `new` (a create, update or non-apply patch; for a create
    /// pass [`FieldManager::new_object`] as `live`): `new` with the managedFields the API
    /// server would store. `new` may carry managedFields of its own: on the main resource
    /// they replace the live ones when they decode to at least one entry, and an empty list
    /// (or one empty entry) resets them (`IN/fieldmanager.go:77-108`).
    pub fn update(
        &self,
        live: &Value,
        mut new: Value,
        manager: &str,
        now: Timestamp,
    ) -> Result<Value, Error> {
        ensure_map(live, "live")?;
        ensure_map(&new, "new")?;
        let managed = self.decode_live_or_new(live, &new);
        set_entries(&mut new, None).map_err(|e| Error::internal(e.to_string()))?;
        let (mut object, managed) = self.chain_update(live, new, managed, manager, now)?;
        store(&mut object, &managed, live)?;
        Ok(object)
    }

    /// [`FieldManager::update`] as the API server's create, update and patch handlers call
    /// it: a failure is never the request's; `new` then keeps the live object's managedFields
    /// (`UpdateNoErrors`, `IN/fieldmanager.go:145-168`).
    pub fn update_no_errors(
        &self,
        live: &Value,
        new: Value,
        manager: &str,
        now: Timestamp,
    ) -> Value {
        match self.update(live, new.clone(), manager, now) {
            Ok(object) => object,
            Err(_) => {
                let mut new = new;
                // Only a `new` that is not a map fails here, and it has nothing to keep.
                let _ = set_entries(&mut new, entries_or_none(live).as_deref());
                new
            }
        }
    }

    /// `decodeLiveOrNew` (`IN/fieldmanager.go:77-108`).
    fn decode_live_or_new(&self, live: &Value, new: &Value) -> Managed {
        let from_live =
            || Managed::decode_stored(stored_or_none(live).unwrap_or_default()).unwrap_or_default();
        if !self.subresource.is_empty() {
            return from_live();
        }
        let requested = stored_or_none(new);
        if is_reset(requested.as_deref()) {
            return Managed::new();
        }
        match Managed::decode_stored(requested.unwrap_or_default()) {
            Ok(managed) if !managed.is_empty() => managed,
            _ => from_live(),
        }
    }
}

/// An empty list, or exactly one empty entry (`isResetManagedFields`, `IN/fieldmanager.go:173-183`).
fn is_reset(entries: Option<&[Stored]>) -> bool {
    match entries {
        Some([]) => true,
        Some([one]) => one.set.is_none() && one.entry == Entry::default(),
        _ => false,
    }
}

fn ensure_map(object: &Value, what: &str) -> Result<(), Error> {
    match object {
        Value::Map(_) => Ok(()),
        _ => Err(Error::BadRequest(format!("the {what} object is not a map"))),
    }
}

/// `EncodeObjectManagedFields`: the entries, or no key when no manager is left. A manager's
/// `fieldsV1` value in `live` is kept where it is already what its set writes.
fn store(object: &mut Value, managed: &Managed, live: &Value) -> Result<(), Error> {
    if let Some((key, path)) = managed.too_deep() {
        let manager = super::ManagerId::from_key(key).unwrap_or_default().manager;
        let mut text = path.to_string();
        if text.len() > 120 {
            let cut = (0..=117)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            text.truncate(cut);
            text.push('…');
        }
        return Err(Error::Limit(format!(
            "the managedFields of manager {manager:?} would name a field {} levels deep ({text}), \
             more than the {} that keep the stored object within the {} levels smd reads \
             (smd's limit, not the API server's)",
            path.len(),
            super::MAX_MANAGED_PATH,
            smd_fieldpath::MAX_DEPTH,
        )));
    }
    let previous = live
        .as_map()
        .and_then(|m| m.get("metadata"))
        .and_then(Value::as_map)
        .and_then(|m| m.get("managedFields"));
    let previous = match previous {
        Some(Value::List(items)) => items.as_slice(),
        _ => &[],
    };
    let items = managed.encode_values(previous).map_err(|e| {
        Error::internal(format!(
            "failed to encode managed fields: failed to convert back managed fields to API: {e}"
        ))
    })?;
    set_entry_values(object, items)
        .map_err(|e| Error::internal(format!("failed to encode managed fields: {e}")))
}
