//! Heap allocations per iteration of a [`RefVisitor`] suite, counted as `fieldset_allocs`
//! counts them: an allocation is a call to `alloc` or `realloc`; bytes are those requested by
//! `alloc` plus what `realloc` added. The global allocator must be the binary's own
//! (`#[global_allocator] static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;`), handed
//! to [`Counter::new`].

use crate::RefVisitor;
use stats_alloc::{Region, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

/// Iterations per benchmark: the work is the same in every iteration, so a few suffice.
pub const ITERATIONS: usize = 10;

/// Counts each benchmark's allocations and prints `<prefix><name> <allocs/op> <bytes/op>`, the
/// line `benches/compare` reads.
#[derive(Debug)]
pub struct Counter {
    global: &'static StatsAlloc<System>,
    prefix: &'static str,
}

impl Counter {
    /// A counter reading `global`, printing names after `prefix` (`floor/`).
    pub fn new(global: &'static StatsAlloc<System>, prefix: &'static str) -> Counter {
        Counter { global, prefix }
    }
}

impl RefVisitor for Counter {
    fn op<I, R>(
        &mut self,
        name: &str,
        mut setup: impl FnMut() -> I,
        mut work: impl FnMut(&mut I) -> R,
    ) {
        // One uncounted pass first, so that lazily built state is not counted.
        drop(black_box(work(&mut setup())));
        // The inputs are made before counting and dropped after it, as the criterion bench
        // makes and drops them outside its measurement.
        let mut inputs: Vec<I> = (0..ITERATIONS).map(|_| setup()).collect();
        let region = Region::new(self.global);
        for input in &mut inputs {
            drop(black_box(work(input)));
        }
        let stats = region.change();
        drop(inputs);
        let allocs = stats.allocations + stats.reallocations;
        let grown = usize::try_from(stats.bytes_reallocated.max(0)).unwrap_or(0);
        let bytes = stats.bytes_allocated + grown;
        println!(
            "{}{name} {:.1} {:.0}",
            self.prefix,
            allocs as f64 / ITERATIONS as f64,
            bytes as f64 / ITERATIONS as f64
        );
    }
}
