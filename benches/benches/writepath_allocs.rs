//! Heap allocations per iteration of each `writepath/*` benchmark, counted as `fieldmanager_allocs`
//! counts them ([`smd_benches::allocs`]): the inputs made before counting and dropped after it.
//! Prints one line per benchmark: `writepath/<name> <allocs/op> <bytes/op>`.

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use smd_benches::allocs::Counter;
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    let data = smd_benches::writepath::WritePathData::load()
        .unwrap_or_else(|e| panic!("writepath benchmark inputs: {e}"));
    data.visit_ops(&mut Counter::new(GLOBAL, "writepath/"));
}
