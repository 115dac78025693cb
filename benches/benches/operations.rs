//! `operations/*`: applies and updates through `smd::merge::Updater` from an empty state, the
//! same work per iteration as the Go twins in `go/operations_test.go` (`BenchmarkOperations`,
//! `BenchmarkFixtureOps`, `BenchmarkOperationsScaling`, `BenchmarkConvertUnstructured`); see
//! [`smd_benches::operations`] for what each benchmark does.
//!
//! The upstream objects and schemas come from the Go module cache (`go mod download`); without
//! Go the benchmark says which are missing and measures the rest. `benches/compare --suite
//! operations` runs both sides.

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use smd_benches::OpVisitor;
use smd_benches::operations::OperationsData;
use std::time::Duration;

struct Timer<'a, 'b> {
    group: &'a mut BenchmarkGroup<'b, WallTime>,
}

impl OpVisitor for Timer<'_, '_> {
    fn op<R>(&mut self, name: &str, mut work: impl FnMut(usize) -> R) {
        self.group.bench_function(name, |b| b.iter(|| work(0)));
    }
}

fn operations(c: &mut Criterion) {
    let data =
        OperationsData::load().unwrap_or_else(|e| panic!("operations benchmark inputs: {e}"));
    for why in &data.missing {
        eprintln!("skipped: {why}");
    }
    let mut group = c.benchmark_group("operations");
    data.visit_ops(&mut Timer { group: &mut group });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = operations
}
criterion_main!(benches);
