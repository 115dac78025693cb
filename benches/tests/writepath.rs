//! The `writepath/*` benchmarks time what their names say (each answer's status, the stored
//! object kept or replaced, checked by `WritePathData::load`), and the `floor/*` bytes are the
//! objects the `fieldmanager/*` suite runs on.

#![allow(clippy::expect_used, reason = "a test: failures must stop it loudly")]

use smd_benches::fieldmanager::FieldManagerData;
use smd_benches::floor::{FloorData, parse};
use smd_benches::writepath::{OPS, WritePathData};

#[test]
fn every_operation_answers_as_named() {
    let data = FieldManagerData::load().expect("fieldmanager inputs");
    let wp = WritePathData::from_fieldmanager(&data).expect("writepath inputs and checks");
    let names: Vec<&str> = wp.cases.iter().map(|c| c.name.as_str()).collect();
    let want: Vec<&str> = data.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, want);
    for (case, object) in wp.cases.iter().zip(&data.objects) {
        let stored = case.stored().expect("stored");
        // The server's stored object has both managers' entries, as the field manager's has.
        let managers: Vec<&str> = stored
            .as_map()
            .and_then(|m| m.get("metadata"))
            .and_then(|m| m.as_map())
            .and_then(|m| m.get("managedFields"))
            .and_then(|l| l.as_list())
            .expect("managedFields")
            .iter()
            .filter_map(|e| e.as_map().and_then(|m| m.get("manager")))
            .filter_map(|m| m.as_str())
            .collect();
        assert_eq!(managers, ["kubectl", object.controller()], "{}", case.name);
        let codes: Vec<u16> = OPS
            .iter()
            .map(|op| case.run(op).expect("op").0.code)
            .collect();
        assert_eq!(codes, [201, 200, 200, 409, 200], "{}", case.name);
    }
}

#[test]
fn floor_reads_the_stored_objects() {
    let data = FieldManagerData::load().expect("fieldmanager inputs");
    let floor = FloorData::from_fieldmanager(&data).expect("floor inputs");
    let inputs = floor.inputs();
    assert_eq!(inputs.len(), 2 * data.objects.len());
    for (o, pair) in data.objects.iter().zip(inputs.chunks(2)) {
        let [(stored_name, stored), (manifest_name, manifest)] = pair else {
            panic!("two inputs per object");
        };
        assert_eq!(stored_name, &o.name);
        assert_eq!(manifest_name, &format!("{}/manifest", o.name));
        let want = serde_json::to_value(o.stored()).expect("stored as serde_json");
        assert_eq!(parse(stored).expect("stored bytes"), want, "{}", o.name);
        let want = serde_json::to_value(o.manifest()).expect("manifest as serde_json");
        assert_eq!(parse(manifest).expect("manifest bytes"), want, "{}", o.name);
        // Compact: written again compactly, the bytes are the same.
        let again = serde_json::to_vec(&parse(stored).expect("stored bytes")).expect("written");
        assert_eq!(&again, stored, "{}", o.name);
    }
}
