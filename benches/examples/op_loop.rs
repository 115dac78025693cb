//! Runs one field-set operation in a loop, for profilers that count instructions
//! (`valgrind --tool=callgrind`): `op_loop OP SIZE ITERATIONS`, e.g. `op_loop leaves 1000 200`.
//! Loading the data is outside the loop but inside the profile; compare two runs with different
//! iteration counts to subtract it.

#![allow(clippy::expect_used, clippy::panic, reason = "a developer tool")]

use smd_benches::{FieldSetData, OpVisitor};
use std::hint::black_box;

struct Loop<'a> {
    op: &'a str,
    iterations: usize,
}

impl OpVisitor for Loop<'_> {
    fn op<R>(&mut self, name: &str, mut work: impl FnMut(usize) -> R) {
        if name == self.op {
            for i in 0..self.iterations {
                black_box(work(i));
            }
        }
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
