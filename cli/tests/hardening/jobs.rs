//! Issue 11, item 6: `--jobs` asks for threads, it cannot exhaust them. `-j 1000000` over a
//! large stream once tried to start a thread per document and died with exit 101.

use std::process::Command;

use crate::Scratch;

/// `smd args` under a 4 GiB address-space limit, as a CI runner's memory limit would have it:
/// a few thousand thread stacks do not fit, a few dozen do.
fn smd_limited(s: &Scratch, args: &[&str]) -> (i32, String, String) {
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_smd"))
        .args(args)
        .current_dir(s.path())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn an_absurd_job_count_is_capped() {
    let s = Scratch::new();
    let mut stream = String::new();
    for i in 0..5_000 {
        stream.push_str(&format!(
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}, namespace: default}}\n"
        ));
    }
    s.file("many.yaml", &stream);
    let apply = |jobs: &str| {
        smd_limited(
            &s,
            &[
                "apply",
                "many.yaml",
                "--manager",
                "m",
                "-j",
                jobs,
                "--now",
                "2026-01-01T00:00:00Z",
            ],
        )
    };
    let (code, out, err) = apply("1000000");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("kind: ConfigMap").count(), 5_000);
    let (code, serial, err) = apply("1");
    assert_eq!(code, 0, "{err}");
    assert_eq!(serial, out, "the same answer on one job");
}
