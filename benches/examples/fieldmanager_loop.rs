//! Runs one `fieldmanager/*` benchmark's work in a loop, for profilers that count instructions
//! (`valgrind --tool=callgrind`): `fieldmanager_loop NAME ITERATIONS`, e.g.
//! `fieldmanager_loop Deployment/update 50` (NAME without `fieldmanager/`). Reading the objects
//! (all of them) and making the inputs are outside the loop; to leave them out of the profile,
//! collect inside the loop only:
//!
//! ```sh
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='fieldmanager_loop::run_loop*' \
//!     target/release/examples/fieldmanager_loop Deployment/update 20
//! ```

#![allow(clippy::expect_used, clippy::panic, reason = "a developer tool")]

use smd_benches::fieldmanager::{FieldManagerData, FmVisitor};
use std::hint::black_box;

struct Loop<'a> {
    name: &'a str,
    iterations: usize,
    found: bool,
}

impl FmVisitor for Loop<'_> {
    fn op<I, R>(&mut self, name: &str, mut setup: impl FnMut() -> I, work: impl FnMut(I) -> R) {
        if name == self.name {
            self.found = true;
            let inputs: Vec<I> = (0..self.iterations).map(|_| setup()).collect();
            run_loop(inputs, work);
        }
    }
}

/// The measured loop: what a profiler should collect.
#[inline(never)]
fn run_loop<I, R>(inputs: Vec<I>, mut work: impl FnMut(I) -> R) {
    for input in inputs {
        drop(black_box(work(input)));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, name, iterations] = args.as_slice() else {
        panic!("usage: fieldmanager_loop NAME ITERATIONS");
    };
    let data = FieldManagerData::load().expect("fieldmanager inputs");
    let mut visitor = Loop {
        name,
        iterations: iterations.parse().expect("ITERATIONS"),
        found: false,
    };
    data.visit_ops(&mut visitor);
    assert!(visitor.found, "no benchmark fieldmanager/{name}");
}
