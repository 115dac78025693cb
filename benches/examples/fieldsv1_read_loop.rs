//! One `fieldsv1_read/*` benchmark's work in a loop, for callgrind or perf:
//! `cargo run --release -p smd-benches --example fieldsv1_read_loop -- reversed 100000 10`.

#![allow(
    clippy::expect_used,
    reason = "an example: bad arguments must stop it loudly"
)]

use smd_benches::fieldsv1_siblings;
use smd_fieldpath::Set;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reversed = args.get(1).is_some_and(|a| a == "reversed");
    let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let rounds: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10);
    let text = fieldsv1_siblings(n, reversed);
    let mut size = 0;
    for _ in 0..rounds {
        size += Set::from_fields_v1(&text)
            .expect("the document reads")
            .size();
    }
    println!("{size}");
}
