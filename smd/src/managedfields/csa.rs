//! kubectl's move from client-side to server-side apply, done on the client: client-go's
//! `util/csaupgrade` (`CG/upgrade.go`) rewrites the managedFields so that the server-side
//! applier owns what the client-side appliers' Update entries owned. kubectl sends the result
//! as an ordinary update (`KC/apply.go:905-979`), which the server adopts and re-sorts.

use smd_fieldpath::Set;

use super::entry::Entry;
use super::identity::Operation;

/// The manager name of `kubectl apply` without `--server-side` (`KC/apply.go:1089-1101`).
pub const KUBECTL_CLIENT_SIDE_APPLY: &str = "kubectl-client-side-apply";

/// Why the rewrite failed, in client-go's words.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct UpgradeError(String);

/// The entries of `operation` whose fields include every path of `fields` (client-go's
/// `FindFieldsOwners`, `CG/upgrade.go:37-58`); entries whose fields do not decode are skipped.
pub fn find_fields_owners<'a>(
    entries: &'a [Entry],
    operation: Operation,
    fields: &Set,
) -> Vec<&'a Entry> {
    entries
        .iter()
        .filter(|e| e.operation == operation.as_str())
        .filter(|e| decode(e).is_ok_and(|set| fields.difference(&set).is_empty()))
        .collect()
}

/// client-go's `UpgradeManagedFields` (`CG/upgrade.go:80-110,177-320`): for each name of
/// `csa_managers` in turn, the first `Apply` entry of `ssa_manager` on `subresource` (or, if
/// there is none, the first `Update` entry of the client-side manager, turned in place into
/// `ssa_manager`'s `Apply` entry, keeping its apiVersion, time and position) takes the fields
/// of the first `Update` entry of the client-side manager at the same apiVersion; then every
/// `Update` entry of the client-side manager on that subresource is removed, whatever its
/// apiVersion. `None` stays `None`, and a list left empty becomes `None`.
///
/// client-go takes the client-side names as a set and visits them in Go's random map order;
/// here they are visited in the order given.
pub fn upgrade_managed_fields(
    entries: Option<&[Entry]>,
    csa_managers: &[&str],
    ssa_manager: &str,
    subresource: &str,
) -> Result<Option<Vec<Entry>>, UpgradeError> {
    let mut entries = entries.map(<[Entry]>::to_vec);
    for csa in csa_managers {
        let Some(list) = entries else {
            return Ok(None);
        };
        entries = upgrade_one(list, csa, ssa_manager, subresource)?;
    }
    Ok(entries)
}

fn upgrade_one(
    mut entries: Vec<Entry>,
    csa: &str,
    ssa: &str,
    subresource: &str,
) -> Result<Option<Vec<Entry>>, UpgradeError> {
    let is_csa = |e: &Entry| {
        e.manager == csa
            && e.operation == Operation::Update.as_str()
            && e.subresource == subresource
    };
    let target = entries.iter().position(|e| {
        e.manager == ssa && e.operation == Operation::Apply.as_str() && e.subresource == subresource
    });
    let target = match target {
        Some(at) => at,
        None => {
            let Some(at) = entries.iter().position(is_csa) else {
                return Ok(Some(entries));
            };
            entries[at].operation = Operation::Apply.as_str().to_owned();
            entries[at].manager = ssa.to_owned();
            at
        }
    };
    let fail =
        |e: smd_fieldpath::Error| UpgradeError(format!("failed to convert fields to set: {e}"));
    let mut set = decode(&entries[target]).map_err(fail)?;
    let version = entries[target].api_version.clone();
    if let Some(from) = entries
        .iter()
        .find(|e| is_csa(e) && e.api_version == version)
    {
        set = set.union(&decode(from).map_err(fail)?);
    }
    // client-go writes into the entry's FieldsV1, which a missing one ignores.
    if entries[target].fields_v1.is_some() {
        let bytes = set
            .to_fields_v1()
            .map_err(|e| UpgradeError(format!("failed to encode field set: {e}")))?;
        entries[target].fields_v1 = Some(bytes);
    }
    entries.retain(|e| !is_csa(e));
    Ok((!entries.is_empty()).then_some(entries))
}

fn decode(entry: &Entry) -> Result<Set, smd_fieldpath::Error> {
    Set::from_fields_v1(entry.fields_v1.as_deref().unwrap_or_default())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::managedfields::time::Timestamp;
    use smd_fieldpath::PathElement;

    fn entry(manager: &str, operation: &str, version: &str, fields: &str, time: i64) -> Entry {
        Entry {
            manager: manager.into(),
            operation: operation.into(),
            api_version: version.into(),
            time: Some(Timestamp::from_unix(time)),
            fields_type: "FieldsV1".into(),
            fields_v1: Some(fields.as_bytes().to_vec()),
            subresource: String::new(),
        }
    }

    #[test]
    fn csa_entry_becomes_the_apply_entry() {
        // CG/upgrade.go:196-209: with no kubectl Apply entry, the CSA Update entry is turned
        // into one in place (apiVersion, time, position kept); :303-320 removes the rest.
        let entries = [
            entry(
                "kubectl-client-side-apply",
                "Update",
                "apps/v1",
                r#"{"f:a":{}}"#,
                1,
            ),
            entry("other", "Update", "apps/v1", r#"{"f:b":{}}"#, 2),
            entry(
                "kubectl-client-side-apply",
                "Update",
                "apps/v1beta1",
                r#"{"f:c":{}}"#,
                3,
            ),
        ];
        let out =
            upgrade_managed_fields(Some(&entries), &[KUBECTL_CLIENT_SIDE_APPLY], "kubectl", "")
                .unwrap()
                .unwrap();
        let mut expected = entries[0].clone();
        expected.manager = "kubectl".into();
        expected.operation = "Apply".into();
        assert_eq!(out, [expected, entries[1].clone()]);
    }

    #[test]
    fn existing_apply_entry_takes_the_fields() {
        // CG/upgrade.go:243-288: the union goes into the first kubectl Apply entry.
        let entries = [
            entry("kubectl", "Apply", "apps/v1", r#"{"f:a":{}}"#, 5),
            entry(
                "kubectl-client-side-apply",
                "Update",
                "apps/v1",
                r#"{"f:b":{}}"#,
                1,
            ),
        ];
        let out =
            upgrade_managed_fields(Some(&entries), &[KUBECTL_CLIENT_SIDE_APPLY], "kubectl", "")
                .unwrap()
                .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].fields_v1.as_deref().unwrap(),
            br#"{"f:a":{},"f:b":{}}"#
        );
        assert_eq!(out[0].time, Some(Timestamp::from_unix(5)));
        // Nothing to do: unchanged; nil stays nil (CG/upgrade.go:183-185).
        let other = [entry("x", "Update", "v1", "{}", 1)];
        assert_eq!(
            upgrade_managed_fields(Some(&other), &["csa"], "kubectl", "").unwrap(),
            Some(other.to_vec())
        );
        assert_eq!(
            upgrade_managed_fields(None, &["csa"], "kubectl", "").unwrap(),
            None
        );
    }

    #[test]
    fn owners() {
        // CG/upgrade.go:37-58.
        let entries = [
            entry("a", "Update", "v1", r#"{"f:x":{},"f:y":{}}"#, 1),
            entry("b", "Update", "v1", r#"{"f:x":{}}"#, 1),
            entry("c", "Apply", "v1", r#"{"f:y":{}}"#, 1),
        ];
        let mut wanted = Set::new();
        wanted.insert(&[PathElement::field("y")]);
        let owners: Vec<&str> = find_fields_owners(&entries, Operation::Update, &wanted)
            .into_iter()
            .map(|e| e.manager.as_str())
            .collect();
        assert_eq!(owners, ["a"]);
    }
}
