//! Criterion's side of a [`RefVisitor`] suite: each benchmark's inputs made by
//! `iter_batched_ref` outside the measurement and dropped outside it, the result dropped inside
//! it (as Go's garbage is collected inside its measurement, and as `fieldmanager/*` drops its
//! results).

use crate::RefVisitor;
use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup};
use std::hint::black_box;

/// Times each benchmark of a suite in `group`.
pub struct Timer<'a, 'b> {
    group: &'a mut BenchmarkGroup<'b, WallTime>,
}

impl<'a, 'b> Timer<'a, 'b> {
    /// A timer adding its benchmarks to `group`.
    pub fn new(group: &'a mut BenchmarkGroup<'b, WallTime>) -> Self {
        Timer { group }
    }
}

impl std::fmt::Debug for Timer<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Timer").finish_non_exhaustive()
    }
}

impl RefVisitor for Timer<'_, '_> {
    fn op<I, R>(
        &mut self,
        name: &str,
        mut setup: impl FnMut() -> I,
        mut work: impl FnMut(&mut I) -> R,
    ) {
        self.group.bench_function(name, |b| {
            b.iter_batched_ref(
                &mut setup,
                |input| drop(black_box(work(input))),
                BatchSize::SmallInput,
            );
        });
    }
}
