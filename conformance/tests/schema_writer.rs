//! smd's canonical schema YAML reads back to the same schema, for every schema with unique keys
//! the `schema` scenarios hold (Go has no writer to compare with: this is smd's own contract).
//! Keys must be unique (`Schema::has_unique_keys`): a schema whose keyed list has a null key and
//! an empty one, both decoding to "" (`null-name-and-empty-name-are-two-keys` and the two cases
//! after it), cannot be written as SMD schema YAML, by Go either.

use std::path::Path;

use smd_conformance::load_scenarios;
use smd_schema::Schema;

#[test]
fn every_valid_scenario_schema_round_trips() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/schema");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    entries.sort();
    let mut checked = 0;
    let mut skipped_duplicates = 0;
    for file in entries {
        let scenario = load_scenarios(&file).unwrap();
        for case in &scenario.cases {
            let Some(text) = case.get("input").and_then(|i| i.as_str()) else {
                continue;
            };
            let name = case["name"].as_str().unwrap_or("?");
            let Ok(schema) = Schema::from_yaml(text) else {
                continue;
            };
            if !schema.has_unique_keys() {
                skipped_duplicates += 1;
                continue;
            }
            let written = schema.to_yaml();
            let again = Schema::from_yaml(&written).unwrap_or_else(|e| {
                panic!("{name}: the written schema does not read: {e}\n{written}")
            });
            assert!(again == schema, "{name}: round trip differs\n{written}");
            assert_eq!(again.to_yaml(), written, "{name}: writing is not stable");
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} schemas checked");
    assert_eq!(skipped_duplicates, 3, "schemas with a key twice");
}
