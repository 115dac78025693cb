//! Runs one `schema/*` benchmark's work in a loop, for profilers that count instructions
//! (`valgrind --tool=callgrind`): `schema_loop NAME ITERATIONS`, e.g.
//! `schema_loop yaml-k8s-schema 10` (NAME without `schema/`). Reading the inputs is outside the
//! loop; to leave it out of the profile, collect inside the loop only:
//!
//! ```sh
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='schema_loop::run_loop*' \
//!     target/release/examples/schema_loop convert-v2 10
//! ```

#![allow(clippy::expect_used, clippy::panic, reason = "a developer tool")]

use smd_benches::OpVisitor;
use smd_benches::schema::SchemaData;
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

/// The measured loop: what a profiler should collect.
#[inline(never)]
fn run_loop<R>(iterations: usize, mut work: impl FnMut(usize) -> R) {
    for i in 0..iterations {
        drop(black_box(work(i)));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, name, iterations] = args.as_slice() else {
        panic!("usage: schema_loop NAME ITERATIONS");
    };
    let data = SchemaData::load().expect("schema inputs");
    assert!(
        data.missing.is_empty(),
        "missing inputs: {:?}",
        data.missing
    );
    let mut visitor = Loop {
        name,
        iterations: iterations.parse().expect("ITERATIONS"),
        found: false,
    };
    data.visit_ops(&mut visitor);
    assert!(visitor.found, "no benchmark schema/{name}");
}
