//! Runs one `operations/*` benchmark's work in a loop, for profilers that count instructions
//! (`valgrind --tool=callgrind`): `operations_loop NAME ITERATIONS`, e.g.
//! `operations_loop Pod/ApplyTwice 200` (NAME without `operations/`). Reading the inputs (all
//! of them) is outside the loop; to leave it out of the profile, collect inside the loop only:
//!
//! ```sh
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='operations_loop::run_loop*' \
//!     target/release/examples/operations_loop Endpoints/Apply 20
//! ```

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
    fn op<R>(&mut self, name: &str, work: impl FnMut(usize) -> R) {
        if name == self.name {
            self.found = true;
            run_loop(self.iterations, work);
        }
    }
}

/// The timed loop: what a profiler should collect.
#[inline(never)]
fn run_loop<R>(iterations: usize, mut work: impl FnMut(usize) -> R) {
    for i in 0..iterations {
        black_box(work(i));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, name, iterations] = args.as_slice() else {
        panic!("usage: operations_loop NAME ITERATIONS");
    };
    let data = OperationsData::read().expect("operations inputs");
    let mut visitor = Loop {
        name,
        iterations: iterations.parse().expect("ITERATIONS"),
        found: false,
    };
    data.visit_ops(&mut visitor);
    assert!(visitor.found, "no benchmark operations/{name}");
}
