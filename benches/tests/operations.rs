//! The `operations/*` flows reach the same final state as their Go twins (the digests Go wrote
//! in `data/operations-state.txt`), and the scaling objects are the bytes Go generates: both
//! sides time the same work on the same inputs.

#![allow(clippy::expect_used, reason = "a test: failures must stop it loudly")]

use smd_benches::operations::{
    OperationsData, SCALING_OBJECTS, SCALING_SIZES, fnv1a64, state_file,
};

#[test]
fn final_states_match_go() {
    let data = OperationsData::load().expect("operations inputs");
    if !data.missing.is_empty() {
        eprintln!("skipped (no Go module cache): {:?}", data.missing);
        return;
    }
    let want = std::fs::read_to_string(state_file()).expect("data/operations-state.txt");
    let got = data.final_states().expect("final states");
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(got, want);
}

/// Go's `scalingDigests` (`go/operations_test.go`): length and FNV-1a 64 of each object.
const GO_DIGESTS: [(&str, &str); 6] = [
    ("EndpointsAddresses-100", "16425 05e25bfff90dfaa0"),
    ("EndpointsAddresses-1000", "164505 abb229e63b38a172"),
    ("EndpointsAddresses-10000", "1661169 23cd6356b0127b50"),
    ("PodContainers-100", "16060 9f947d40b98f6288"),
    ("PodContainers-1000", "162760 27477d4ead40088e"),
    ("PodContainers-10000", "1656760 29871eb2017cda5a"),
];

#[test]
fn scaling_objects_are_gos_bytes() {
    let mut got = Vec::new();
    for (name, _, generate) in SCALING_OBJECTS {
        for n in SCALING_SIZES {
            let text = generate(n);
            got.push((
                format!("{name}-{n}"),
                format!("{} {:016x}", text.len(), fnv1a64(text.as_bytes())),
            ));
        }
    }
    let want: Vec<(String, String)> = GO_DIGESTS
        .iter()
        .map(|(n, d)| ((*n).to_owned(), (*d).to_owned()))
        .collect();
    assert_eq!(got, want);
}
