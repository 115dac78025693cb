//! The report of a batch of server-side applies, as `smd diff -o json|yaml` prints it: one item
//! per manifest (what the API server would answer, and what the apply changes), the live
//! objects no manifest named, and a summary.
//!
//! The shape is versioned by [`DiffReport::API_VERSION`]: fields are only ever added to a
//! version; a field that changes shape makes a new one. `docs/report.schema.json` is its JSON
//! Schema, generated from these types (a test fails when the two drift apart).
//!
//! ```
//! use smd::report::{Outcome, Summary};
//!
//! let mut summary = Summary::default();
//! for outcome in [Outcome::Change, Outcome::Unchanged, Outcome::Unchanged, Outcome::Conflict] {
//!     summary.count(outcome);
//! }
//! assert_eq!(summary.to_string(), "4 objects: 1 change, 1 conflict, 2 unchanged");
//! assert_eq!(summary.most_severe(), Some(Outcome::Conflict));
//! ```

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A whole report. Streamed by the CLI: its items are written as they are answered, the
/// summary last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiffReport {
    /// Always `smd/v2` ([`DiffReport::API_VERSION`]).
    pub api_version: String,
    /// Always `DiffReport`.
    pub kind: String,
    /// The field manager applying.
    pub manager: String,
    /// Whether the applies take fields from their owners (`--force-conflicts`).
    pub force: bool,
    /// The subresource applied through (`""`, `status`, `scale`).
    pub subresource: String,
    /// The field manager's own result, without the API server's other steps.
    pub field_manager_only: bool,
    /// The time stamped on managedFields entries (RFC 3339).
    pub time: String,
    /// One per manifest, in input order.
    pub items: Vec<Item>,
    /// Live objects of a positional LIVE file that no manifest names (left alone).
    pub unmatched_live: Vec<Unmatched>,
    /// How many items ended each way.
    pub summary: Summary,
}

impl DiffReport {
    /// The version of this shape.
    pub const API_VERSION: &'static str = "smd/v2";
    /// The kind of this document.
    pub const KIND: &'static str = "DiffReport";
}

/// Which object: its apiVersion and kind as the manifest names them, and the namespace and name
/// it pairs by (the namespace as `-n` or the default gives it; empty for a cluster-scoped kind).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ObjectRef {
    /// `group/version`, or `version` for the core group.
    pub api_version: String,
    /// The kind.
    pub kind: String,
    /// The namespace; empty for a cluster-scoped kind.
    pub namespace: String,
    /// The name.
    pub name: String,
}

/// Where a document came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// The file (`<stdin>` for standard input), or the cluster an object was read from.
    pub file: String,
    /// 1-based document of the file; 0 when the object was not read from a file.
    pub document: usize,
    /// 1-based line where the document starts; 0 when not known.
    pub line: usize,
    /// 1-based item of a `List` document.
    pub item: Option<usize>,
    /// The origin in words, as the text output prints it.
    pub text: String,
}

/// How one manifest's apply ends, from the least severe to the most.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// The stored object would be the live object.
    Unchanged,
    /// The stored object would differ from the live object.
    Change,
    /// No live object: the apply creates it.
    Create,
    /// The API server would refuse the apply with conflicts (409).
    Conflict,
    /// The API server would refuse the apply for another reason, or smd cannot serve its kind.
    Refused,
    /// The document could not be read as an object to apply.
    BadInput,
}

impl Outcome {
    /// The exit status a run ending with this outcome as its most severe one gives:
    /// 2 bad input or a refusal, 3 a conflict, 1 a change or a create, 0 nothing to do.
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Unchanged => 0,
            Outcome::Change | Outcome::Create => 1,
            Outcome::Conflict => 3,
            Outcome::Refused | Outcome::BadInput => 2,
        }
    }

    /// Its rank for the exit status: a higher rank wins.
    fn severity(self) -> u8 {
        match self {
            Outcome::Unchanged => 0,
            Outcome::Change | Outcome::Create => 1,
            Outcome::Conflict => 2,
            Outcome::Refused | Outcome::BadInput => 3,
        }
    }
}

/// A request the API server would refuse, as its Status says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Refusal {
    /// The HTTP status code (409, 422, 400, 500, ...); 0 when smd refuses before any request
    /// (a kind it has no type for, a manifest kubectl would not send).
    pub code: u16,
    /// The Status reason (`Conflict`, `Invalid`, ...); empty when `code` is 0.
    pub reason: String,
    /// The message, verbatim.
    pub message: String,
}

/// A field manager, as a managedFields entry names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Manager {
    /// The manager's name.
    pub manager: String,
    /// `Apply` or `Update`.
    pub operation: String,
    /// The apiVersion of its entry (empty for an applier: Apply entries are merged across
    /// versions).
    pub api_version: String,
    /// The subresource of its entry.
    pub subresource: String,
}

/// One manager's ownership before and after the apply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManagerChange {
    /// The manager.
    pub manager: Manager,
    /// Fields it comes to own.
    pub gained: Vec<String>,
    /// Fields it stops owning.
    pub lost: Vec<String>,
    /// It had no entry before.
    pub new: bool,
    /// It has no entry after.
    pub gone: bool,
}

/// A field and its managers: one the applier stops listing that other managers keep, or one
/// removed that others co-owned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Kept {
    /// The field.
    pub path: String,
    /// Who owns it after the apply.
    pub owners: Vec<Manager>,
}

/// A field the apply would take from its owner, with both values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conflict {
    /// The field.
    pub path: String,
    /// Its owner, when the managedFields name one.
    pub owner: Option<Manager>,
    /// The live value (absent: `null`).
    pub live: Option<serde_json::Value>,
    /// The manifest's value (absent: `null`).
    pub applied: Option<serde_json::Value>,
}

/// One manifest's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    /// The object; `null` when the document was not an object (bad input).
    pub object: Option<ObjectRef>,
    /// How the apply ends.
    pub outcome: Outcome,
    /// The manifest's place.
    pub applied: Origin,
    /// The live object's place; `null` for a create.
    pub live: Option<Origin>,
    /// `create` or `update`; empty for bad input.
    pub operation: String,
    /// The stored object would differ from the live object (with conflicts: the forced
    /// apply's).
    pub changed: bool,
    /// The API server's refusal (conflicts included), verbatim.
    pub refusal: Option<Refusal>,
    /// Why the document is bad input.
    pub error: Option<String>,
    /// The unified diff of the live object against the stored one (managedFields left out,
    /// Secret values masked); `null` when no object could be computed.
    pub diff: Option<String>,
    /// The stored object (with conflicts: the forced apply's); `null` when none.
    pub result: Option<serde_json::Value>,
    /// Fields the API server fills with values of its own choosing, left out of `result`.
    pub set_by_server: Vec<String>,
    /// Managers whose field sets change.
    pub managers: Vec<ManagerChange>,
    /// Fields the apply removes: the applier owned them and lists them no more, and no one
    /// else owns them.
    pub removed: Vec<String>,
    /// Of `removed`, those other managers owned too (the field, or fields in it), with those
    /// managers: an item the applier stops listing goes with everything in it.
    pub removed_co_owned: Vec<Kept>,
    /// Through the status subresource: the manifest's fields outside `.status` the server
    /// ignores (it keeps the live values).
    pub ignored: Vec<String>,
    /// Fields the applier lists no more that stay, owned by others.
    pub kept: Vec<Kept>,
    /// Conflicts, with both values.
    pub conflicts: Vec<Conflict>,
}

/// A live object no manifest names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Unmatched {
    /// The object.
    pub object: ObjectRef,
    /// Where it was read.
    pub origin: Origin,
}

/// How many manifests ended each way.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Every manifest answered.
    pub objects: usize,
    /// Stored objects that differ from their live objects.
    pub change: usize,
    /// Creates.
    pub create: usize,
    /// Refused with conflicts.
    pub conflict: usize,
    /// Refused otherwise.
    pub refused: usize,
    /// Documents that are not objects to apply.
    pub bad_input: usize,
    /// Stored objects equal to their live objects.
    pub unchanged: usize,
}

impl Summary {
    /// Counts one more manifest ending with `outcome`.
    pub fn count(&mut self, outcome: Outcome) {
        self.objects += 1;
        *match outcome {
            Outcome::Unchanged => &mut self.unchanged,
            Outcome::Change => &mut self.change,
            Outcome::Create => &mut self.create,
            Outcome::Conflict => &mut self.conflict,
            Outcome::Refused => &mut self.refused,
            Outcome::BadInput => &mut self.bad_input,
        } += 1;
    }

    /// The outcome that decides the exit status: bad input or a refusal, then a conflict, then
    /// a change or a create; `None` for no manifest.
    pub fn most_severe(&self) -> Option<Outcome> {
        [
            (self.bad_input, Outcome::BadInput),
            (self.refused, Outcome::Refused),
            (self.conflict, Outcome::Conflict),
            (self.change, Outcome::Change),
            (self.create, Outcome::Create),
            (self.unchanged, Outcome::Unchanged),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(_, o)| o)
        .max_by_key(|o| o.severity())
    }
}

/// `48 objects: 3 change, 1 create, 1 conflict, 43 unchanged` (counts of zero left out).
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noun = if self.objects == 1 {
            "object"
        } else {
            "objects"
        };
        write!(f, "{} {noun}", self.objects)?;
        let parts = [
            (self.change, "change"),
            (self.create, "create"),
            (self.conflict, "conflict"),
            (self.refused, "refused"),
            (self.bad_input, "bad input"),
            (self.unchanged, "unchanged"),
        ];
        let mut first = true;
        for (n, word) in parts.into_iter().filter(|(n, _)| *n > 0) {
            f.write_str(if first { ": " } else { ", " })?;
            write!(f, "{n} {word}")?;
            first = false;
        }
        Ok(())
    }
}

/// The JSON Schema of [`DiffReport`], as `docs/report.schema.json` holds it.
pub fn json_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(DiffReport)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_words_and_severity() {
        let mut s = Summary::default();
        assert_eq!(s.to_string(), "0 objects");
        assert_eq!(s.most_severe(), None);
        s.count(Outcome::Create);
        assert_eq!(s.to_string(), "1 object: 1 create");
        assert_eq!(s.most_severe().map(Outcome::exit_code), Some(1));
        s.count(Outcome::Conflict);
        assert_eq!(s.most_severe().map(Outcome::exit_code), Some(3));
        s.count(Outcome::BadInput);
        assert_eq!(
            s.to_string(),
            "3 objects: 1 create, 1 conflict, 1 bad input"
        );
        assert_eq!(s.most_severe().map(Outcome::exit_code), Some(2));
    }
}
