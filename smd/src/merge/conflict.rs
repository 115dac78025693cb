//! Conflicts: fields another manager owns that an apply would change.

use std::fmt;

use smd_fieldpath::{ManagedFields, Path};

/// A field `manager` owns that the apply would change.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    /// Who owns the field.
    pub manager: String,
    /// The field.
    pub path: Path,
}

impl fmt::Display for Conflict {
    /// Go's text: `conflict with "kubectl": .spec.replicas`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "conflict with {}: {}", quote(&self.manager), self.path)
    }
}

/// Every conflict of a refused apply: per manager (sorted), its fields in set order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Conflicts(pub Vec<Conflict>);

impl Conflicts {
    /// The conflicts of each manager's set (Go's `ConflictsFromManagers`).
    pub fn from_managers(sets: &ManagedFields) -> Conflicts {
        let mut out = Vec::new();
        for (manager, set) in sets.iter() {
            for path in set.set().iter() {
                out.push(Conflict {
                    manager: manager.to_owned(),
                    path,
                });
            }
        }
        Conflicts(out)
    }

    /// The conflicts.
    pub fn conflicts(&self) -> &[Conflict] {
        &self.0
    }
}

impl fmt::Display for Conflicts {
    /// Go's text: one conflict alone as itself; several grouped by manager (sorted), a
    /// `conflicts with "m":` line then a `- PATH` line per field.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return one.fmt(f);
        }
        let mut managers: Vec<&str> = self.0.iter().map(|c| c.manager.as_str()).collect();
        managers.sort_unstable();
        managers.dedup();
        let mut first = true;
        for manager in managers {
            if !first {
                f.write_str("\n")?;
            }
            first = false;
            write!(f, "conflicts with {}:", quote(manager))?;
            for c in self.0.iter().filter(|c| c.manager == manager) {
                write!(f, "\n- {}", c.path)?;
            }
        }
        Ok(())
    }
}

/// Go's `%q` of a string.
fn quote(s: &str) -> String {
    smd_fieldpath::Value::from(s).to_string()
}
