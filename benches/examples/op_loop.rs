//! Runs one field-set operation in a loop, for profilers that count instructions
//! (`valgrind --tool=callgrind`): `op_loop OP SIZE ITERATIONS`, e.g. `op_loop leaves 1000 200`.
//! With `--collect-atstart=no --toggle-collect='op_loop::run_loop*'` the profile holds the loop
//! alone, not the loading of the data.

#![allow(clippy::expect_used, clippy::panic, reason = "a developer tool")]

use smd_benches::{FieldSetData, OpVisitor};
use std::hint::black_box;

struct Loop<'a> {
    op: &'a str,
    iterations: usize,
}

impl OpVisitor for Loop<'_> {
    fn op<R>(&mut self, name: &str, work: impl FnMut(usize) -> R) {
        if name == self.op {
            run_loop(self.iterations, work);
        }
    }
}

/// The timed work alone, for `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='op_loop::run_loop*'`.
#[inline(never)]
fn run_loop<R>(iterations: usize, mut work: impl FnMut(usize) -> R) {
    for i in 0..iterations {
        black_box(work(i));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, op, size, iterations] = args.as_slice() else {
        panic!("usage: op_loop OP SIZE ITERATIONS");
    };
    let data = FieldSetData::load(size.parse().expect("SIZE")).expect("benches/data");
    data.visit_ops(&mut Loop {
        op,
        iterations: iterations.parse().expect("ITERATIONS"),
    });
}
