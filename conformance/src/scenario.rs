//! Scenario and golden files.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// A scenario file: its cases as JSON trees, in file order.
#[derive(Debug)]
pub struct ScenarioFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// The cases.
    pub cases: Vec<Json>,
}

/// Reads a scenario file with smd's own YAML reader.
pub fn load_scenarios(path: &Path) -> Result<ScenarioFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value =
        smd_fieldpath::yaml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let json =
        serde_json::Value::try_from(&value).map_err(|e| format!("{}: {e}", path.display()))?;
    if json.get("format").and_then(Json::as_str) != Some("smd-scenarios/v1") {
        return Err(format!("{}: not an smd-scenarios/v1 file", path.display()));
    }
    let cases = json
        .get("cases")
        .and_then(Json::as_array)
        .cloned()
        .ok_or_else(|| format!("{}: no cases", path.display()))?;
    Ok(ScenarioFile {
        path: path.to_owned(),
        cases,
    })
}

/// Reads a golden file's results, by case name.
pub fn load_golden(path: &Path) -> Result<serde_json::Map<String, Json>, String> {
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: Json =
        serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if json.get("format").and_then(Json::as_str) != Some("smd-goldens/v1") {
        return Err(format!("{}: not an smd-goldens/v1 file", path.display()));
    }
    json.get("results")
        .and_then(Json::as_object)
        .cloned()
        .ok_or_else(|| format!("{}: no results", path.display()))
}
