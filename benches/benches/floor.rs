//! `floor/*`: reading each object of the `fieldmanager/*` suite from compact JSON bytes into a
//! `serde_json::Value` (the stored object, and `/manifest` the manifest alone); see
//! [`smd_benches::floor`]. `benches/compare --suite fieldmanager` and `--suite writepath` run it
//! in the same rounds and print every benchmark as a multiple of its object's floor.

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use smd_benches::floor::{FloorData, parse};
use std::hint::black_box;
use std::time::Duration;

fn floor(c: &mut Criterion) {
    let data = FloorData::load().unwrap_or_else(|e| panic!("floor benchmark inputs: {e}"));
    let mut group = c.benchmark_group("floor");
    // `FloorData::visit_ops`'s work, with each input's length as its throughput (criterion
    // prints MB/s; `compare` the length).
    for (name, bytes) in data.inputs() {
        let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        group.throughput(Throughput::Bytes(len));
        group.bench_function(name.as_str(), |b| {
            b.iter(|| match parse(black_box(bytes)) {
                Ok(v) => drop(black_box(v)),
                Err(e) => panic!("floor/{name}: {e}"),
            });
        });
    }
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
