//! The API server's refusal of a conflicting apply (`NewConflictError`, `IN/conflict.go`):
//! HTTP 409, one cause per conflict, and the message users read.

use std::fmt;

use smd_fieldpath::Path;

use super::identity::{ManagerId, describe_key};
use crate::merge::Conflicts;

/// An apply refused because it would change fields other managers own.
///
/// The message is the API server's: one conflict as `Apply failed with 1 conflict: conflict
/// with "autoscaler" with subresource "scale" using apps/v1: .spec.replicas`; several as
/// `Apply failed with N conflicts: ` then, per manager in the byte order of the identity
/// keys, a `conflicts with M:` line and a `- PATH` line per field. `using <apiVersion>`
/// appears only for Update managers.
#[derive(Debug, Clone, PartialEq)]
pub struct ConflictError {
    conflicts: Vec<(String, Path)>,
}

impl ConflictError {
    pub(crate) fn new(conflicts: &Conflicts) -> ConflictError {
        ConflictError {
            conflicts: conflicts
                .conflicts()
                .iter()
                .map(|c| (c.manager.clone(), c.path.clone()))
                .collect(),
        }
    }

    /// Each conflict: the identity of the manager owning the field, and the field.
    pub fn conflicts(&self) -> impl ExactSizeIterator<Item = (Option<ManagerId>, &Path)> {
        self.conflicts
            .iter()
            .map(|(key, path)| (ManagerId::from_key(key), path))
    }

    /// The causes of the API server's status, one per conflict: the message
    /// (`conflict with "m" using v1`) and the field (`.spec.replicas`).
    pub fn causes(&self) -> Vec<(String, String)> {
        self.conflicts
            .iter()
            .map(|(key, path)| {
                (
                    format!("conflict with {}", describe_key(key)),
                    path.to_string(),
                )
            })
            .collect()
    }
}

impl fmt::Display for ConflictError {
    /// `getConflictMessage` (`IN/conflict.go:45-71`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [(key, path)] = self.conflicts.as_slice() {
            return write!(
                f,
                "Apply failed with 1 conflict: conflict with {}: {path}",
                describe_key(key)
            );
        }
        write!(f, "Apply failed with {} conflicts: ", self.conflicts.len())?;
        let mut managers: Vec<&str> = self.conflicts.iter().map(|(k, _)| k.as_str()).collect();
        managers.sort_unstable();
        managers.dedup();
        for (i, manager) in managers.into_iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "conflicts with {}:", describe_key(manager))?;
            for (_, path) in self.conflicts.iter().filter(|(k, _)| k == manager) {
                write!(f, "\n- {path}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::managedfields::identity::Operation;
    use crate::merge::Conflict;
    use smd_fieldpath::PathElement;

    fn path(fields: &[&str]) -> Path {
        fields.iter().map(|f| PathElement::field(*f)).collect()
    }

    fn conflict(id: &ManagerId, p: &[&str]) -> Conflict {
        Conflict {
            manager: id.key(),
            path: path(p),
        }
    }

    #[test]
    fn one_conflict() {
        let hpa = ManagerId::new("autoscaler", Operation::Update, "apps/v1", "scale");
        let err = ConflictError::new(&Conflicts(vec![conflict(&hpa, &["spec", "replicas"])]));
        assert_eq!(
            err.to_string(),
            r#"Apply failed with 1 conflict: conflict with "autoscaler" with subresource "scale" using apps/v1: .spec.replicas"#
        );
        assert_eq!(
            err.causes(),
            [(
                r#"conflict with "autoscaler" with subresource "scale" using apps/v1"#.to_owned(),
                ".spec.replicas".to_owned()
            )]
        );
    }

    #[test]
    fn several_grouped_by_sorted_identity() {
        // The example of IN/conflict.go's test shape: Apply managers print no version.
        let foo = ManagerId::new("foo", Operation::Update, "v1", "");
        let bar = ManagerId::new("bar", Operation::Apply, "v1", "");
        let err = ConflictError::new(&Conflicts(vec![
            conflict(&foo, &["spec", "replicas"]),
            conflict(&bar, &["metadata", "labels", "app"]),
        ]));
        assert_eq!(
            err.to_string(),
            "Apply failed with 2 conflicts: conflicts with \"bar\":\n- .metadata.labels.app\n\
             conflicts with \"foo\" using v1:\n- .spec.replicas"
        );
        // Grouping follows the keys, not the names: "m!" sorts before "m".
        let m = ManagerId::new("m", Operation::Apply, "v1", "");
        let bang = ManagerId::new("m!", Operation::Apply, "v1", "");
        let err = ConflictError::new(&Conflicts(vec![
            conflict(&m, &["a"]),
            conflict(&bang, &["b"]),
            conflict(&m, &["c"]),
        ]));
        assert_eq!(
            err.to_string(),
            "Apply failed with 3 conflicts: conflicts with \"m!\":\n- .b\nconflicts with \"m\":\n- .a\n- .c"
        );
    }
}
