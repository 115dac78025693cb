//! The chain of managers `NewDefaultFieldManager` composes (`IN/fieldmanager.go:57-75`), one
//! function per layer, outermost first:
//!
//! ```text
//! versionCheck → lastAppliedUpdater → lastAppliedManager → skipNonApplied → capManagers
//!   → buildManagerInfo → managedFieldsUpdater → stripMeta → structuredMerge
//! ```

use std::sync::OnceLock;

use smd_fieldpath::{ManagedFields, PathElement, Set, Value, VersionedSet};

use super::cap::cap_update_managers;
use super::entry::{entries_or_none, set_entries};
use super::error::Error;
use super::identity::{ManagerId, Operation};
use super::last_applied::{KUBECTL, build_last_applied, has_last_applied, set_last_applied};
use super::managed::Managed;
use super::manager::FieldManager;
use super::object::{describe, group_version, gvk_of, nested_str};
use super::time::Timestamp;
use crate::merge::{self, Conflicts};

/// The manager `skipNonApplied` files a live object's fields under before its first apply.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";

/// The name the inner chain runs an update under (`managedFieldsUpdater`).
const CURRENT_OPERATION: &str = "current-operation";

/// Why the chain stopped: conflicts stay data until the outer shell words them.
pub(crate) enum Failure {
    Conflicts(Conflicts),
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Error(e)
    }
}

type Applied = Result<(Value, Managed), Failure>;

impl FieldManager {
    /// versionCheck (`IN/versioncheck.go:47-52`) and lastAppliedUpdater
    /// (`IN/lastappliedupdater.go:47-69`).
    pub(super) fn chain_apply(
        &self,
        live: &Value,
        applied: &Value,
        managed: Managed,
        manager: &str,
        force: bool,
        now: Timestamp,
    ) -> Applied {
        let gvk = gvk_of(applied);
        if gvk != self.kind {
            return Err(Error::BadRequest(format!("invalid object type: {gvk}")).into());
        }
        let (mut object, managed) =
            self.last_applied_manager(live, applied, managed, manager, force, now)?;
        if manager == KUBECTL && has_last_applied(&object) {
            let value = build_last_applied(applied).map_err(|e| {
                Error::internal(format!(
                    "failed to build last-applied annotation: couldn't encode object into last \
                     applied annotation: {e}"
                ))
            })?;
            set_last_applied(&mut object, value);
        }
        Ok((object, managed))
    }

    /// lastAppliedManager (`IN/lastappliedmanager.go:59-89`): `kubectl`'s conflicts on fields
    /// its annotation still matches are forgiven by applying again with force.
    fn last_applied_manager(
        &self,
        live: &Value,
        applied: &Value,
        managed: Managed,
        manager: &str,
        force: bool,
        now: Timestamp,
    ) -> Applied {
        let first = self.skip_non_applied(live, applied, managed.clone(), manager, force, now);
        if manager != KUBECTL {
            return first;
        }
        let Err(Failure::Conflicts(conflicts)) = first else {
            return first;
        };
        let Some(allowed) = self.allowed_by_last_applied(live) else {
            return Err(Failure::Conflicts(conflicts));
        };
        let outside: Vec<merge::Conflict> = conflicts
            .conflicts()
            .iter()
            .filter(|c| !allowed.has(&c.path))
            .cloned()
            .collect();
        if !outside.is_empty() {
            return Err(Failure::Conflicts(Conflicts(outside)));
        }
        self.skip_non_applied(live, applied, managed, manager, true, now)
    }

    /// skipNonApplied's apply (`IN/skipnonapplied.go:76-92`): with no managed fields, the
    /// live object's fields first go to `before-first-apply`, an update from an empty object.
    /// capManagers lets applies through.
    fn skip_non_applied(
        &self,
        live: &Value,
        applied: &Value,
        mut managed: Managed,
        manager: &str,
        force: bool,
        now: Timestamp,
    ) -> Applied {
        if managed.is_empty() {
            let empty = self.zero_object(&gvk_of(applied));
            let (_, before) = self
                .capped_update(&empty, live.clone(), managed, BEFORE_FIRST_APPLY, now)
                .map_err(|e| {
                    Error::internal(format!("failed to create manager for existing fields: {e}"))
                })?;
            managed = before;
        }
        self.build_info_apply(live, applied, managed, manager, force, now)
    }

    /// buildManagerInfo and managedFieldsUpdater for an apply
    /// (`IN/managedfieldsupdater.go:70-82`): a changed object stamps the applier's time; an
    /// unchanged one is the live object, and no time changes.
    fn build_info_apply(
        &self,
        live: &Value,
        applied: &Value,
        managed: Managed,
        manager: &str,
        force: bool,
        now: Timestamp,
    ) -> Applied {
        let id = self.manager_key(manager, Operation::Apply);
        let (object, mut managed) = self.structured_apply(live, applied, managed, &id, force)?;
        strip_meta(&mut managed.fields, &id);
        let object = match object {
            Some(object) => {
                managed.times.insert(id, now);
                object
            }
            None => {
                let mut object = live.clone();
                set_entries(&mut object, None).map_err(|e| Error::internal(e.to_string()))?;
                object
            }
        };
        Ok((object, managed))
    }

    /// structuredMergeManager's apply (`IN/structuredmerge.go:121-182`).
    fn structured_apply(
        &self,
        live: &Value,
        applied: &Value,
        mut managed: Managed,
        id: &str,
        force: bool,
    ) -> Result<(Option<Value>, Managed), Failure> {
        let patch_version = group_version(&gvk_of(applied));
        if patch_version != self.group_version {
            return Err(Error::BadRequest(format!(
                "Incorrect version specified in apply patch. Specified patch version: \
                 {patch_version}, expected: {}",
                self.group_version
            ))
            .into());
        }
        if entries_or_none(applied).is_some() {
            return Err(Error::BadRequest("metadata.managedFields must be nil".to_owned()).into());
        }
        let patch = self.types.to_typed(applied, false).map_err(|e| {
            Error::internal(format!(
                "failed to create typed patch object ({}): {e}",
                describe(applied)
            ))
        })?;
        let live_typed = self.types.to_typed(live, true).map_err(|e| {
            Error::LiveObject(format!(
                "failed to create typed live object ({}): {e}",
                describe(live)
            ))
        })?;
        let (merged, fields) = self
            .updater
            .apply(
                &live_typed,
                &patch,
                &self.group_version,
                &managed.fields,
                id,
                force,
            )
            .map_err(|e| match e {
                merge::Error::Conflicts(c) => Failure::Conflicts(c),
                merge::Error::Failed(message) => Failure::Error(Error::Internal(message)),
            })?;
        managed.fields = fields;
        let Some(merged) = merged.map(|m| m.into_value()) else {
            return Ok((None, managed));
        };
        if !(self.builtin_decoding && crate::builtin::is_builtin(&self.kind)) {
            return Ok((Some(merged), managed));
        }
        // The server converts the merged object to its Go type, defaults it and converts it
        // to the internal version (`IN/structuredmerge.go:165-181`), each with its error.
        let mut decoded = crate::builtin::round_trip(&self.kind, &merged).map_err(|e| {
            Error::internal(format!(
                "failed to convert new object ({}) to proper version: {e}",
                describe(applied)
            ))
        })?;
        crate::builtin::default(&self.kind, &mut decoded.object);
        crate::builtin::round_trip_internal(&self.kind, &mut decoded.object).map_err(|e| {
            Error::internal(format!(
                "failed to convert to unversioned ({}): {e}",
                describe(applied)
            ))
        })?;
        Ok((Some(decoded.object), managed))
    }

    /// skipNonApplied's update (`IN/skipnonapplied.go:53-74`): an existing object (it has a
    /// uid) with no managed fields records nothing. versionCheck and the last-applied layers
    /// let updates through.
    pub(super) fn chain_update(
        &self,
        live: &Value,
        new: Value,
        managed: Managed,
        manager: &str,
        now: Timestamp,
    ) -> Result<(Value, Managed), Error> {
        if managed.is_empty() && !nested_str(live, &["metadata", "uid"]).is_empty() {
            return Ok((new, managed));
        }
        self.capped_update(live, new, managed, manager, now)
    }

    /// capManagers' update (`IN/capmanagers.go:47-57`).
    fn capped_update(
        &self,
        live: &Value,
        new: Value,
        managed: Managed,
        manager: &str,
        now: Timestamp,
    ) -> Result<(Value, Managed), Error> {
        let (object, mut managed) = self.build_info_update(live, new, managed, manager, now)?;
        cap_update_managers(&mut managed, self.max_update_managers);
        Ok((object, managed))
    }

    /// buildManagerInfo and managedFieldsUpdater for an update
    /// (`IN/managedfieldsupdater.go:45-67`): the merge runs as `current-operation`; what it
    /// got joins the manager's previous set, and only then is the manager's time stamped.
    fn build_info_update(
        &self,
        live: &Value,
        new: Value,
        managed: Managed,
        manager: &str,
        now: Timestamp,
    ) -> Result<(Value, Managed), Error> {
        let id = self.manager_key(manager, Operation::Update);
        let (object, mut managed) = self.structured_update(live, new, managed)?;
        strip_meta(&mut managed.fields, CURRENT_OPERATION);
        if let Some(current) = managed.fields.remove(CURRENT_OPERATION) {
            let set = match managed.fields.get(&id) {
                Some(previous) => current.set().union(previous.set()),
                None => current.set().clone(),
            };
            managed.fields.insert(
                id.clone(),
                VersionedSet::new(set, current.api_version(), current.applied()),
            );
            managed.times.insert(id, now);
        }
        Ok((object, managed))
    }

    /// structuredMergeManager's update (`IN/structuredmerge.go:91-118`): values are never
    /// changed, `new` is returned as it came.
    fn structured_update(
        &self,
        live: &Value,
        new: Value,
        mut managed: Managed,
    ) -> Result<(Value, Managed), Error> {
        let new_name = describe(&new);
        let new_typed = self.types.to_typed_owned(new, true).map_err(|e| {
            Error::internal(format!(
                "failed to convert new object ({new_name}) to smd typed: {e}"
            ))
        })?;
        let live_typed = self.types.to_typed(live, true).map_err(|e| {
            Error::LiveObject(format!(
                "failed to convert live object ({}) to smd typed: {e}",
                describe(live)
            ))
        })?;
        managed.fields = self
            .updater
            .update(
                &live_typed,
                &new_typed,
                &self.group_version,
                &managed.fields,
                CURRENT_OPERATION,
            )
            .map_err(|e| {
                Error::internal(format!("failed to update ManagedFields ({new_name}): {e}"))
            })?;
        Ok((new_typed.into_value(), managed))
    }

    /// The identity of `manager` at this endpoint (`IN/buildmanagerinfo.go:62-74`): an empty
    /// name is `unknown`.
    pub(super) fn manager_key(&self, manager: &str, operation: Operation) -> String {
        let name = if manager.is_empty() {
            "unknown"
        } else {
            manager
        };
        ManagerId::new(
            name,
            operation,
            self.group_version.as_str(),
            self.subresource.as_str(),
        )
        .key()
    }
}

/// stripMeta (`IN/stripmeta.go:39-88`): `manager` stops owning the top-level type fields and
/// the metadata the server sets (exactly these members, nothing below them); a manager left
/// with nothing is dropped. Other managers keep theirs.
fn strip_meta(fields: &mut ManagedFields, manager: &str) {
    static STRIPPED: OnceLock<Set> = OnceLock::new();
    let stripped = STRIPPED.get_or_init(|| {
        let mut set = Set::new();
        set.insert(&[PathElement::field("apiVersion")]);
        set.insert(&[PathElement::field("kind")]);
        set.insert(&[PathElement::field("metadata")]);
        for field in [
            "name",
            "namespace",
            "creationTimestamp",
            "selfLink",
            "uid",
            "clusterName",
            "generation",
            "managedFields",
            "resourceVersion",
        ] {
            set.insert(&[PathElement::field("metadata"), PathElement::field(field)]);
        }
        set
    });
    let Some(owned) = fields.get(manager) else {
        return;
    };
    let left = owned.set().difference(stripped);
    if left.is_empty() {
        fields.remove(manager);
    } else {
        let left = VersionedSet::new(left, owned.api_version(), owned.applied());
        fields.insert(manager, left);
    }
}
