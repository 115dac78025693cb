//! Heap allocations per iteration of each `fieldmanager/*` benchmark — the Rust side of Go's
//! `allocs/op` and `B/op` columns, counted as `fieldset_allocs` counts them (an allocation is a
//! call to `alloc` or `realloc`; bytes are those requested by `alloc` plus what `realloc`
//! added). The inputs `update` is given are made before counting, as they are made outside the
//! measurement. Prints one line per benchmark: `fieldmanager/<name> <allocs/op> <bytes/op>`.

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use smd_benches::fieldmanager::{FieldManagerData, FmVisitor};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Iterations per benchmark: the work is the same in every iteration, so a few suffice.
const ITERATIONS: usize = 10;

struct Counter;

impl FmVisitor for Counter {
    fn op<I, R>(&mut self, name: &str, mut setup: impl FnMut() -> I, mut work: impl FnMut(I) -> R) {
        // One uncounted pass first, so that lazily built state is not counted.
        drop(black_box(work(setup())));
        let inputs: Vec<I> = (0..ITERATIONS).map(|_| setup()).collect();
        let region = Region::new(GLOBAL);
        for input in inputs {
            drop(black_box(work(input)));
        }
        let stats = region.change();
        let allocs = stats.allocations + stats.reallocations;
        let grown = usize::try_from(stats.bytes_reallocated.max(0)).unwrap_or(0);
        let bytes = stats.bytes_allocated + grown;
        println!(
            "fieldmanager/{name} {:.1} {:.0}",
            allocs as f64 / ITERATIONS as f64,
            bytes as f64 / ITERATIONS as f64
        );
    }
}

fn main() {
    let data =
        FieldManagerData::load().unwrap_or_else(|e| panic!("fieldmanager benchmark inputs: {e}"));
    data.visit_ops(&mut Counter);
}
