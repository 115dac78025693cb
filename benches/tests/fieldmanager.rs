//! The `fieldmanager/*` benchmarks reach the results their Go twins reach (the digests Go wrote
//! in `data/fieldmanager-state.txt`): both sides time the same work on the same objects.

#![allow(clippy::expect_used, reason = "a test: failures must stop it loudly")]

use smd_benches::fieldmanager::{FieldManagerData, state_file};

#[test]
fn results_match_go() {
    let data = FieldManagerData::load().expect("fieldmanager inputs");
    let want = std::fs::read_to_string(state_file()).expect("data/fieldmanager-state.txt");
    let got = data.digests().expect("results");
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(got, want);
}
