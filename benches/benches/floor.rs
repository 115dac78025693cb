//! `floor/*`: reading each object of the `fieldmanager/*` suite from compact JSON bytes into a
//! `serde_json::Value` (the stored object, and `/manifest` the manifest alone); see
//! [`smd_benches::floor`]. `benches/compare --suite fieldmanager` and `--suite writepath` run it
//! in the same rounds and print every benchmark as a multiple of its object's floor.

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use smd_benches::floor::FloorData;
use smd_benches::timer::Timer;
use std::time::Duration;

fn floor(c: &mut Criterion) {
    let data = FloorData::load().unwrap_or_else(|e| panic!("floor benchmark inputs: {e}"));
    let mut group = c.benchmark_group("floor");
    data.visit_ops(&mut Timer::new(&mut group));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = floor
}
criterion_main!(benches);
