//! Runs one `operations/*` benchmark's work in a loop, for profilers that count instructions
//! (`valgrind --tool=callgrind`): `operations_loop NAME ITERATIONS`, e.g.
//! `operations_loop Pod/ApplyTwice 200` (NAME without `operations/`). Loading the inputs (all
//! of them, and one run of every flow) is outside the loop but inside the profile; compare two
//! runs with different iteration counts to subtract it.

#![allow(clippy::expect_used, clippy::panic, reason = "a developer tool")]

use smd_benches::OpVisitor;
use smd_benches::operations::OperationsData;
use std::hint::black_box;

struct Loop<'a> {
    name: &'a str,
    iterations: usize,
    found: bool,
}

impl OpVisitor for Loop<'_> {
    fn op<R>(&mut self, name: &str, mut work: impl FnMut(usize) -> R) {
        if name == self.name {
            self.found = true;
            for i in 0..self.iterations {
                black_box(work(i));
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, name, iterations] = args.as_slice() else {
        panic!("usage: operations_loop NAME ITERATIONS");
    };
    let data = OperationsData::load().expect("operations inputs");
    let mut visitor = Loop {
        name,
        iterations: iterations.parse().expect("ITERATIONS"),
        found: false,
    };
    data.visit_ops(&mut visitor);
    assert!(visitor.found, "no benchmark operations/{name}");
}
