//! The conformance runner: replays scenario cases through smd and compares each result with the
//! golden the Go generator wrote for it.
//!
//! A case and its result are JSON trees (`serde_json::Value`): scenario files are read with smd's
//! own YAML reader and converted, and the differential mode sends the very same trees to Go as
//! JSON lines. `run_case` computes smd's result in the golden's shape; `compare` checks it
//! against Go's under the rules of `conformance/README.md`.

pub mod apiserver;
pub mod apiserver_diff;
mod canonical;
pub mod cases;
mod compare;
mod crd_ops;
pub mod differential;
mod fieldmanager_ops;
mod fieldset;
mod inputs;
pub mod normalise;
pub mod openapi_ops;
mod patch_ops;
mod roundtrip_ops;
mod scenario;
mod schema_ops;
pub mod show;
mod typed_ops;
pub mod updater_ops;
mod value_ops;

pub use compare::compare;
pub use scenario::{ScenarioFile, load_golden, load_scenarios};

use serde_json::{Value as Json, json};

/// A case that cannot be run: it does not follow the scenario format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub String);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// smd's result for one case, shaped like a golden entry.
pub fn run_case(case: &Json) -> Result<Json, Malformed> {
    let kind = inputs::str_field(case, "kind")?;
    let op = inputs::str_field(case, "op")?;
    let result = match kind {
        "value" => value_ops::run(op, case),
        "pathElement" => value_ops::run_path_element(op, case),
        "path" => value_ops::run_path(op, case),
        "fieldset" => fieldset::run(op, case),
        "schema" => schema_ops::run(op, case),
        "openapi" => openapi_ops::run(op, case),
        "crd" => crd_ops::run(op, case),
        "typed" => typed_ops::run(op, case),
        "updater" => updater_ops::run(op, case),
        "fieldmanager" => fieldmanager_ops::run(op, case),
        "patch" => patch_ops::run(op, case),
        "roundtrip" => roundtrip_ops::run(op, case),
        other => return Err(Malformed(format!("unknown kind {other:?}"))),
    };
    result.or_else(|failure| match failure {
        inputs::Failure::Malformed(m) => Err(m),
        inputs::Failure::Error(e) => Ok(json!({ "error": canonical::error(&e) })),
    })
}

/// Why `case` cannot be run on this machine, if it cannot: it reads a file of the upstream
/// module's `internal/testdata` from the Go module cache, and the cache does not hold it.
pub fn skip_reason(case: &Json) -> Option<String> {
    schema_ops::skip_reason(case)
}

/// Why smd knowingly differs from Go for some inputs that are not valid UTF-8.
const NOT_UTF8: &str = "Go strings are bytes: Go keeps invalid UTF-8 inside string values (and \
    prints it raw in path text), smd's values are Rust strings and read it as U+FFFD. Field \
    names are bytes in smd too and round-trip exactly; only their display text differs.";

/// Cases where smd differs from Go, on purpose or until emulated: (scenario file, case,
/// reason). The runner checks that each of them still differs, so this list cannot go stale
/// silently.
pub const KNOWN_DEVIATIONS: &[(&str, &str, &str)] = &[
    ("fieldset/parse.yaml", "invalid-utf8-field-name", NOT_UTF8),
    ("fieldset/parse.yaml", "invalid-utf8-in-value", NOT_UTF8),
    ("pathelement/parse.yaml", "field-invalid-utf8", NOT_UTF8),
    ("pathelement/parse.yaml", "value-invalid-utf8", NOT_UTF8),
    (
        "pathelement/parse.yaml",
        "key-invalid-utf8-name-and-value",
        NOT_UTF8,
    ),
    ("value/json.yaml", "invalid-utf8-in-string", NOT_UTF8),
    ("value/json.yaml", "invalid-utf8-in-key", NOT_UTF8),
    ("value/json.yaml", "utf8-encoded-surrogate", NOT_UTF8),
    ("typed/fieldset.yaml", "plain-list", UNNAMED_ITEMS),
    (
        "updater/ignore.yaml",
        "ignore-filter-and-ignored-fields-both-set",
        BOTH_IGNORES,
    ),
    (
        "updater/ignore.yaml",
        "ignore-both-empty-maps-still-refused",
        BOTH_IGNORES,
    ),
    ("typed/fieldset.yaml", "plain-list-in-item", UNNAMED_ITEMS),
    (
        "schema/validation.yaml",
        "non-string-keys-are-invisible",
        NON_STRING_KEYS,
    ),
    (
        "schema/validation.yaml",
        "null-key-is-invisible",
        NON_STRING_KEYS,
    ),
    ("patch/json.yaml", "test-number-spelling", NUMBER_SPELLING),
    ("value/yaml.yaml", "tag-takes-a-comma-in-flow", TAG_IN_FLOW),
    (
        "value/yaml.yaml",
        "tag-takes-a-comma-in-flow-map",
        TAG_IN_FLOW,
    ),
];

/// Why smd's YAML reader differs from yaml.v2 on a tag followed by `,`, `[` or `]`. Not on
/// purpose: found by the schema_yaml fuzz target, listed so that it stays visible until
/// `smd_value`'s YAML compatibility checks (`yaml/compat.rs`) handle the end of a tag.
const TAG_IN_FLOW: &str = "libyaml (so yaml.v2) scans `,`, `[` and `]` as characters of a \
    tag even inside a flow collection: `[!x, a]` is one item tagged `!x,`, and `{a: !x, b: 1}` \
    does not parse. granit-parser, a YAML 1.2 parser, ends the tag at the flow indicator and \
    reads an empty tagged item. Not yet emulated.";

/// Why smd's JSON patch `test` can differ from Go's on numbers.
const NUMBER_SPELLING: &str = "json-patch compares a tested scalar by its JSON text, the \
    patch's own spelling against the text Go wrote for the object (`1.0` is not `1`); \
    `smd::patch::json` takes the patch as a value, which no longer has the spelling, and \
    compares the texts Go would write for both.";

/// Why smd knowingly differs from Go on the field set of a list that is neither atomic nor
/// associative.
const UNNAMED_ITEMS: &str = "Go's ToFieldSet names the items of a list without an element \
    relationship with the empty path element (an ignored error) and returns a set that cannot \
    be written (`invalid PathElement`); smd's path elements cannot be empty, so its ToFieldSet \
    fails at once with the reason (`element 0: invalid indexing of non-associative list`). \
    Both refuse such a set; Compare and Merge refuse such lists in both.";

/// Why smd cannot give Go's answer when both ways of ignoring fields are configured.
const BOTH_IGNORES: &str = "Go's Updater holds IgnoredFields and IgnoreFilter side by side and \
    refuses every call when both are set (`IgnoreFilter and IgnoreFilter may not both be set`); \
    smd's `merge::Ignore` is one or the other, so the configuration cannot be built at all (the \
    runner takes the ignored fields).";

/// Why smd knowingly differs from Go on YAML map keys that are not strings in a schema.
const NON_STRING_KEYS: &str = "yaml.v2 keeps map keys that are not strings (`1:`, `y:`, `~:`) \
    and Go's value package skips them when it iterates, so Go's schema validation never sees \
    them; smd's YAML reader makes them strings (as sigs.k8s.io/yaml does), so they are \
    undeclared fields, and refuses a null key. Telling them apart needs a raw-key mode in \
    smd-fieldpath's YAML reader.";
