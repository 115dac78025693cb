//! One case of the Go-golden suite, found by its name and judged: what the `cases` test runs
//! for each case (one test per case) and what the `case` command prints.
//!
//! A case is named by its scenario file, relative to `conformance/scenarios` with `/` between
//! folders, and its `name` in that file: `fieldmanager/configmap.yaml::cm-apply-update-apply`.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};

use crate::openapi_ops::type_counts;
use crate::updater_ops::invariant_violations;
use crate::{KNOWN_DEVIATIONS, compare, load_golden, load_scenarios, run_case, skip_reason};

/// Between a file and a case in a case's full name.
pub const SEPARATOR: &str = "::";

/// The conformance crate's directory, which holds `scenarios/` and `goldens/`.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every scenario file under `root/scenarios`, relative to it with `/` between folders, in
/// sorted order.
pub fn scenario_files(root: &Path) -> Vec<String> {
    let scenarios = root.join("scenarios");
    let mut out = Vec::new();
    let mut pending = vec![scenarios.clone()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                if let Ok(relative) = path.strip_prefix(&scenarios) {
                    let parts: Vec<_> = relative
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect();
                    out.push(parts.join("/"));
                }
            }
        }
    }
    out.sort();
    out
}

/// The scenario file of `file` (a name as [`scenario_files`] gives it).
pub fn scenario_path(root: &Path, file: &str) -> PathBuf {
    root.join("scenarios").join(file)
}

/// The golden Go wrote for `file`.
pub fn golden_path(root: &Path, file: &str) -> PathBuf {
    root.join("goldens").join(file).with_extension("json")
}

/// Why smd differs from Go on purpose in this case, when it is listed in [`KNOWN_DEVIATIONS`].
pub fn known_deviation(file: &str, case: &str) -> Option<&'static str> {
    KNOWN_DEVIATIONS
        .iter()
        .find(|(f, c, _)| *f == file && *c == case)
        .map(|(_, _, reason)| *reason)
}

/// A case's name in its file (`?` when it has none: the format asks for one).
pub fn case_name(case: &Json) -> &str {
    case.get("name").and_then(Json::as_str).unwrap_or("?")
}

/// How one case went.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// smd answers as Go did.
    Agree,
    /// smd differs, as [`KNOWN_DEVIATIONS`] says it does: the reason, and where it differs.
    KnownDeviation {
        /// Why, from the list.
        reason: &'static str,
        /// Where smd differs, one line each.
        differences: Vec<String>,
    },
    /// Listed in [`KNOWN_DEVIATIONS`], but smd agrees with Go now: the list is stale.
    ListedButAgrees,
    /// smd differs where it should not: one line each.
    Differs(Vec<String>),
    /// The case cannot run on this machine: why.
    Skipped(String),
}

impl Verdict {
    /// Whether the suite fails on this verdict (a skip fails only in CI, which the caller
    /// decides).
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::ListedButAgrees | Verdict::Differs(_))
    }
}

/// One case judged: the verdict, smd's answer when the case ran, and what the suite counts
/// besides.
#[derive(Debug, Clone)]
pub struct Checked {
    /// How it went.
    pub verdict: Verdict,
    /// smd's answer, shaped like the golden's; `None` when the case was skipped or is malformed.
    pub actual: Option<Json>,
    /// For a result holding schemas: (group, types identical to Go's, types in Go's schemas).
    pub type_counts: Option<(&'static str, usize, usize)>,
    /// Whether Go's answer was checked against the updater fuzz target's invariants.
    pub invariants_checked: bool,
}

/// The group a file's schema type counts are summed in, if it has one.
fn type_group(file: &str) -> Option<&'static str> {
    if file.starts_with("openapi/kubernetes/v2") {
        Some("Kubernetes v2 spec")
    } else if file.starts_with("openapi/kubernetes/v3/") {
        Some("Kubernetes v3 documents")
    } else if file == "openapi/kube-openapi-crds.yaml" {
        Some("kube-openapi's CRD documents")
    } else if file.starts_with("openapi/") {
        Some("other OpenAPI scenarios")
    } else if file.starts_with("crd/") {
        Some("CRD scenarios")
    } else {
        None
    }
}

/// Runs `case` of `file` through smd and judges its answer against Go's (`expected`): the
/// comparison of `conformance/README.md`, Go's answer checked against the updater fuzz target's
/// invariants, and [`KNOWN_DEVIATIONS`] (a listed case must still differ).
pub fn check(file: &str, case: &Json, expected: &Json) -> Checked {
    let mut checked = Checked {
        verdict: Verdict::Agree,
        actual: None,
        type_counts: None,
        invariants_checked: false,
    };
    if let Some(reason) = skip_reason(case) {
        checked.verdict = Verdict::Skipped(reason);
        return checked;
    }
    let differences = match run_case(case) {
        Ok(actual) => {
            checked.type_counts = type_group(file).and_then(|group| {
                let (same, total) = if file.starts_with("crd/") {
                    let crds = |j: &Json| -> Vec<Json> {
                        j.get("crds")
                            .and_then(Json::as_array)
                            .cloned()
                            .unwrap_or_default()
                    };
                    crds(expected)
                        .iter()
                        .zip(crds(&actual).iter())
                        .filter_map(|(go, ours)| type_counts(go, ours))
                        .fold((0, 0), |(s, t), (same, total)| (s + same, t + total))
                } else {
                    type_counts(expected, &actual)?
                };
                Some((group, same, total))
            });
            let mut differences = compare(case, expected, &actual);
            if case.get("kind").and_then(Json::as_str) == Some("updater") {
                // The updater fuzz target's invariants hold in Go's answers too.
                checked.invariants_checked = true;
                for broken in invariant_violations(case, expected) {
                    differences.push(format!(
                        "Go breaks an invariant of the fuzz target: {broken}"
                    ));
                }
            }
            checked.actual = Some(actual);
            differences
        }
        Err(malformed) => vec![format!("malformed case: {malformed}")],
    };
    checked.verdict = match (
        known_deviation(file, case_name(case)),
        differences.is_empty(),
    ) {
        (Some(_), true) => Verdict::ListedButAgrees,
        (Some(reason), false) => Verdict::KnownDeviation {
            reason,
            differences,
        },
        (None, true) => Verdict::Agree,
        (None, false) => Verdict::Differs(differences),
    };
    checked
}

/// One case with everything needed to judge it and show it.
#[derive(Debug, Clone)]
pub struct Found {
    /// Its file, as [`scenario_files`] names it.
    pub file: String,
    /// The case as the scenario file has it.
    pub case: Json,
    /// Its place among the file's cases, from 0.
    pub index: usize,
    /// Go's answer.
    pub expected: Json,
}

/// `file` as [`scenario_files`] or [`server_files`] names it, from what a person may type: that
/// name, or a path to the file (`conformance/scenarios/fieldmanager/configmap.yaml`,
/// `conformance/apiserver/scenarios/configmap.yaml`).
pub fn file_name(root: &Path, typed: &str) -> String {
    let typed = typed.replace('\\', "/");
    let scenarios = format!("{}/", root.join("scenarios").to_string_lossy());
    if let Some(rest) = typed.strip_prefix(&scenarios) {
        return rest.to_owned();
    }
    let server = format!(
        "{}/",
        root.join("apiserver").join("scenarios").to_string_lossy()
    );
    if let Some(rest) = typed.strip_prefix(&server) {
        return format!("{SERVER_PREFIX}{rest}");
    }
    for prefix in ["conformance/apiserver/scenarios/", "apiserver/scenarios/"] {
        if let Some(rest) = typed.strip_prefix(prefix) {
            return format!("{SERVER_PREFIX}{rest}");
        }
    }
    for prefix in ["conformance/scenarios/", "scenarios/"] {
        if let Some(rest) = typed.strip_prefix(prefix) {
            return rest.to_owned();
        }
    }
    typed
}

/// The error for a `file` that no suite has: what there is instead.
fn missing_file(root: &Path, file: &str) -> String {
    let mut files = scenario_files(root);
    files.extend(server_files(root));
    let stem = |s: &str| s.rsplit('/').next().unwrap_or(s).to_owned();
    let near: Vec<&str> = files
        .iter()
        .filter(|f| stem(f) == stem(file))
        .map(String::as_str)
        .collect();
    let hint = if near.is_empty() {
        format!(
            "{} scenario files under {} and {}",
            files.len(),
            root.join("scenarios").display(),
            root.join("apiserver").join("scenarios").display()
        )
    } else {
        format!("did you mean {}?", near.join(", "))
    };
    format!("no scenario file {file} ({hint})")
}

/// The error for a case `name` that `file` does not have: the names close to it, or all.
fn missing_case<'a>(file: &str, name: &str, names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.collect();
    let near: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.contains(name) || name.contains(n))
        .collect();
    let hint = if near.is_empty() {
        format!("its {} cases: {}", names.len(), names.join(", "))
    } else {
        format!("did you mean {}?", near.join(", "))
    };
    format!("{file}: no case named {name:?} ({hint})")
}

/// The case named `name` in the Go-golden `file` with Go's answer to it; the error names the
/// file and the case, and what there is instead.
pub fn find(root: &Path, file: &str, name: &str) -> Result<Found, String> {
    let path = scenario_path(root, file);
    if !path.is_file() {
        return Err(missing_file(root, file));
    }
    let scenario = load_scenarios(&path)?;
    let Some(index) = scenario.cases.iter().position(|c| case_name(c) == name) else {
        return Err(missing_case(
            file,
            name,
            scenario.cases.iter().map(case_name),
        ));
    };
    let golden = load_golden(&golden_path(root, file))?;
    let expected = golden
        .get(name)
        .cloned()
        .ok_or_else(|| format!("{file}: {name}: no golden (run conformance/regen)"))?;
    Ok(Found {
        file: file.to_owned(),
        case: scenario.cases[index].clone(),
        index,
        expected,
    })
}

/// A real-server case with the server's answers to it.
#[derive(Debug, Clone)]
pub struct ServerFound {
    /// Its file, `apiserver/FILE`.
    pub file: String,
    /// The case as the scenario file has it.
    pub case: Json,
    /// Its place among the file's cases, from 0.
    pub index: usize,
    /// The server's answers, step by step.
    pub expected: Vec<Json>,
    /// The CRDs its file declares.
    pub crds: Vec<smd_fieldpath::Value>,
}

/// The real-server case named `name` in `file` (`apiserver/FILE`); the error names the file and
/// the case, and what there is instead.
pub fn find_server(root: &Path, file: &str, name: &str) -> Result<ServerFound, String> {
    if !server_scenario_path(root, file).is_file() {
        return Err(missing_file(root, file));
    }
    let loaded = load_server_file(root, file).map_err(|e| format!("{file}: {e}"))?;
    let Some(index) = loaded.cases.iter().position(|c| case_name(c) == name) else {
        return Err(missing_case(file, name, loaded.cases.iter().map(case_name)));
    };
    let expected = loaded
        .expected(name)
        .map_err(|e| format!("{file}: {e}"))?
        .to_vec();
    Ok(ServerFound {
        file: file.to_owned(),
        case: loaded.cases[index].clone(),
        index,
        expected,
        crds: loaded.crds,
    })
}

/// The real-server suite's files are named `apiserver/FILE`: `FILE` is in
/// `conformance/apiserver/scenarios`, its golden in `conformance/apiserver/goldens`.
pub const SERVER_PREFIX: &str = "apiserver/";

/// Every real-server scenario file, as `apiserver/FILE`, sorted.
pub fn server_files(root: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root.join("apiserver").join("scenarios"))
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|f| f.ends_with(".yaml"))
                .map(|f| format!("{SERVER_PREFIX}{f}"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The scenario file of a real-server `file` (`apiserver/FILE`).
pub fn server_scenario_path(root: &Path, file: &str) -> PathBuf {
    let name = file.strip_prefix(SERVER_PREFIX).unwrap_or(file);
    root.join("apiserver").join("scenarios").join(name)
}

/// The golden the real server's answers are in.
pub fn server_golden_path(root: &Path, file: &str) -> PathBuf {
    let name = file.strip_prefix(SERVER_PREFIX).unwrap_or(file);
    root.join("apiserver")
        .join("goldens")
        .join(Path::new(name).with_extension("json"))
}

/// A real-server scenario file read with its golden: its cases, the server's answers by case
/// (`results`), and the CRDs it declares.
#[derive(Debug, Clone)]
pub struct ServerFile {
    /// The cases, in file order.
    pub cases: Vec<Json>,
    /// The golden's `results`: per case, `{steps: [...]}`.
    pub results: Json,
    /// The CRDs every case of the file runs with.
    pub crds: Vec<smd_fieldpath::Value>,
}

/// Reads a real-server scenario file (`apiserver/FILE`) and its golden.
pub fn load_server_file(root: &Path, file: &str) -> Result<ServerFile, String> {
    let (scenarios, golden) = crate::apiserver::read_files(
        &server_scenario_path(root, file),
        &server_golden_path(root, file),
    )?;
    let crds = scenarios["crds"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|crd| {
                    smd_fieldpath::Value::from_json(&crd.to_string()).map_err(|e| e.to_string())
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?
        .unwrap_or_default();
    Ok(ServerFile {
        cases: scenarios["cases"].as_array().cloned().unwrap_or_default(),
        results: golden["results"].clone(),
        crds,
    })
}

impl ServerFile {
    /// The server's answers to the case `name`, step by step.
    pub fn expected(&self, name: &str) -> Result<&[Json], String> {
        self.results[name]["steps"]
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| format!("{name}: no golden (run conformance/apiserver/regen)"))
    }
}

/// How one step of a real-server case went.
#[derive(Debug, Clone, PartialEq)]
pub enum StepVerdict {
    /// smd answers as the server did.
    Agree,
    /// smd differs, as `KNOWN_DISAGREEMENTS` lists it: the category's name and what differs.
    Known(&'static str, String),
    /// Listed in `KNOWN_DISAGREEMENTS`, but smd agrees now: the list is stale.
    ListedButAgrees,
    /// smd differs where it should not: what differs.
    Differs(String),
}

impl StepVerdict {
    /// Whether the suite fails on this step.
    pub fn is_failure(&self) -> bool {
        matches!(self, StepVerdict::ListedButAgrees | StepVerdict::Differs(_))
    }
}

/// Replays the real-server `case` of `file` (`apiserver/FILE`) through smd's in-memory API
/// server and judges every step against the server's answer and `KNOWN_DISAGREEMENTS`: (step
/// counted from 1, verdict).
pub fn check_server(
    file: &str,
    case: &Json,
    crds: &[smd_fieldpath::Value],
    expected: &[Json],
) -> Result<Vec<(usize, StepVerdict)>, String> {
    use crate::apiserver::{KNOWN_DISAGREEMENTS, Outcome, replay_case};
    let listed_file = file.strip_prefix(SERVER_PREFIX).unwrap_or(file);
    let reports = replay_case(case, crds, expected)?;
    Ok(reports
        .into_iter()
        .map(|r| {
            let listed = KNOWN_DISAGREEMENTS
                .iter()
                .find(|(f, c, s, _)| *f == listed_file && *c == r.case && *s == r.step);
            let verdict = match (r.outcome, listed) {
                (Outcome::Agree, None) => StepVerdict::Agree,
                (Outcome::Agree, Some(_)) => StepVerdict::ListedButAgrees,
                (Outcome::Differs(d), None) => StepVerdict::Differs(d),
                (Outcome::Differs(d), Some((_, _, _, category))) => {
                    StepVerdict::Known(category.name(), d)
                }
            };
            (r.step, verdict)
        })
        .collect())
}
