//! `fieldset/<op>-<size>`: upstream `BenchmarkFieldSet` on the operands stored in
//! `data/fieldset`, the same work per iteration as `go/fieldset_test.go` (see `smd_benches`).
//! `benches/compare` runs both and prints the Go/Rust ratios.

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: bad data files must stop it loudly"
)]

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use smd_benches::{FieldSetData, OpVisitor, SIZES};
use std::time::Duration;

struct Timer<'a, 'b> {
    group: &'a mut BenchmarkGroup<'b, WallTime>,
    size: usize,
}

impl OpVisitor for Timer<'_, '_> {
    fn op<R>(&mut self, name: &str, mut work: impl FnMut(usize) -> R) {
        // The iteration number runs on across criterion's warm-up and samples, so that every
        // sample cycles through the operands as Go's single b.N loop does, instead of each
        // sample starting again at operand 0.
        let mut i = 0usize;
        self.group
            .bench_function(format!("{name}-{}", self.size), |b| {
                b.iter(|| {
                    let out = work(i);
                    i = i.wrapping_add(1);
                    out
                });
            });
    }
}

fn fieldset(c: &mut Criterion) {
    let mut group = c.benchmark_group("fieldset");
    for size in SIZES {
        let data = FieldSetData::load(size).expect("reading benches/data/fieldset");
        for mismatch in data.serialization_mismatches() {
            eprintln!("warning: {mismatch}");
        }
        data.visit_ops(&mut Timer {
            group: &mut group,
            size,
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Short by default: 45 benchmarks on a shared 2-core machine. Command-line flags
    // (--warm-up-time, --measurement-time, --sample-size) override these.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    targets = fieldset
}
criterion_main!(benches);
