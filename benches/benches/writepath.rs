//! `writepath/*`: the `fieldmanager/*` suite's operations as whole requests to smd's in-memory
//! API server (body bytes → route → decoding, defaulting, validation, admission, field manager
//! → stored); see [`smd_benches::writepath`]. No Go twin: `benches/compare --suite writepath`
//! prints each as a multiple of its object's floor (`floor/<Obj>`).

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use smd_benches::timer::Timer;
use smd_benches::writepath::WritePathData;
use std::time::Duration;

fn writepath(c: &mut Criterion) {
    let data = WritePathData::load().unwrap_or_else(|e| panic!("writepath benchmark inputs: {e}"));
    let mut group = c.benchmark_group("writepath");
    data.visit_ops(&mut Timer::new(&mut group));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = writepath
}
criterion_main!(benches);
