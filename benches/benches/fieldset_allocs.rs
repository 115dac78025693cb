//! Heap allocations per iteration of each `fieldset/<op>-<size>` benchmark — the Rust side of
//! Go's `allocs/op` and `B/op` columns. A separate binary because counting every allocation
//! slows the timed benchmarks down.
//!
//! Prints one line per benchmark: `fieldset/<op>-<size> <allocs/op> <bytes/op>`. An allocation
//! is a call to `alloc` or `realloc` (Go has no realloc: a grown slice is a new object); bytes are
//! those requested by `alloc` plus what `realloc` added.

#![allow(
    clippy::expect_used,
    reason = "a benchmark binary: bad data files must stop it loudly"
)]

use smd_benches::{FieldSetData, OpVisitor, SIZES};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Iterations per benchmark: a multiple of the 50 operands and of the 500 `has` probes, so that
/// every operand (pair) and probe counts equally.
const ITERATIONS: usize = 500;

struct Counter {
    size: usize,
}

impl OpVisitor for Counter {
    fn op<R>(&mut self, name: &str, mut work: impl FnMut(usize) -> R) {
        // One untimed pass first, so that lazily built state is not counted.
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
            "fieldset/{name}-{} {:.1} {:.0}",
            self.size,
            allocs as f64 / ITERATIONS as f64,
            bytes as f64 / ITERATIONS as f64
        );
    }
}

fn main() {
    for size in SIZES {
        let data = FieldSetData::load(size).expect("reading benches/data/fieldset");
        data.visit_ops(&mut Counter { size });
    }
}
