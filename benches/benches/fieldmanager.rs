//! `fieldmanager/*`: the API server's field manager ([`smd::managedfields::FieldManager`]) on
//! whole Kubernetes objects, the same work per iteration as the Go twin `BenchmarkFieldManager`
//! (`go/fieldmanager_test.go`); see [`smd_benches::fieldmanager`] for what each benchmark does.
//! `benches/compare --suite fieldmanager` runs both sides.

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, criterion_group, criterion_main};
use smd_benches::fieldmanager::{FieldManagerData, FmVisitor};
use std::hint::black_box;
use std::time::Duration;

struct Timer<'a, 'b> {
    group: &'a mut BenchmarkGroup<'b, WallTime>,
}

impl FmVisitor for Timer<'_, '_> {
    fn op<I, R>(&mut self, name: &str, mut setup: impl FnMut() -> I, mut work: impl FnMut(I) -> R) {
        // The result is dropped inside the measurement, as Go's garbage is collected inside its.
        self.group.bench_function(name, |b| {
            b.iter_batched(
                &mut setup,
                |input| drop(black_box(work(input))),
                BatchSize::SmallInput,
            );
        });
    }
}

fn fieldmanager(c: &mut Criterion) {
    let data =
        FieldManagerData::load().unwrap_or_else(|e| panic!("fieldmanager benchmark inputs: {e}"));
    let mut group = c.benchmark_group("fieldmanager");
    data.visit_ops(&mut Timer { group: &mut group });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = fieldmanager
}
criterion_main!(benches);
