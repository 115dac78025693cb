//! Heap allocations per iteration of each `operations/*` benchmark — the Rust side of Go's
//! `allocs/op` and `B/op` columns, counted as `fieldset_allocs` counts them (an allocation is a
//! call to `alloc` or `realloc`; bytes are those requested by `alloc` plus what `realloc`
//! added). Prints one line per benchmark: `operations/<name> <allocs/op> <bytes/op>`.

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use smd_benches::OpVisitor;
use smd_benches::operations::OperationsData;
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Iterations per benchmark: the work is the same in every iteration, so a few suffice.
const ITERATIONS: usize = 10;

struct Counter;

impl OpVisitor for Counter {
    fn op<R>(&mut self, name: &str, mut work: impl FnMut(usize) -> R) {
        // One uncounted pass first, so that lazily built state is not counted.
        drop(black_box(work(0)));
        let region = Region::new(GLOBAL);
        for i in 0..ITERATIONS {
            drop(black_box(work(i)));
        }
        let stats = region.change();
        let allocs = stats.allocations + stats.reallocations;
        let grown = usize::try_from(stats.bytes_reallocated.max(0)).unwrap_or(0);
        let bytes = stats.bytes_allocated + grown;
        println!(
            "operations/{name} {:.1} {:.0}",
            allocs as f64 / ITERATIONS as f64,
            bytes as f64 / ITERATIONS as f64
        );
    }
}

fn main() {
    let data =
        OperationsData::load().unwrap_or_else(|e| panic!("operations benchmark inputs: {e}"));
    for why in &data.missing {
        eprintln!("skipped: {why}");
    }
    data.visit_ops(&mut Counter);
}
