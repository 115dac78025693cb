//! Issue 14, item 1: directories named with `-f`/`--live` are walked without following links
//! to directories (a loop ends), without opening what is not a file (a FIFO would block), within
//! bounds, and their file names reach the terminal escaped.

use crate::{Scratch, has_terminal_control};

const CONFIGMAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: x}\n";

#[test]
fn a_link_loop_ends() {
    let s = Scratch::new();
    s.file("m/sub/c.yaml", CONFIGMAP);
    // Each link points back up: a walk that followed them would never end.
    std::os::unix::fs::symlink("..", s.path().join("m/sub/up")).unwrap();
    std::os::unix::fs::symlink(".", s.path().join("m/sub/here.yaml")).unwrap();
    std::os::unix::fs::symlink("../m", s.path().join("m/loop")).unwrap();
    let run = s.smd(&["validate", "-R", "-f", "m"]);
    // The link named like a manifest points at a directory: refused, not read or walked.
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("\"m/sub/here.yaml\": not a regular file"),
        "{run:?}"
    );
    std::fs::remove_file(s.path().join("m/sub/here.yaml")).unwrap();
    let run = s.smd(&["validate", "-R", "-f", "m"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (
            0,
            "m/sub/c.yaml: document 1 (line 1): ConfigMap/c is valid\n"
        ),
        "{run:?}"
    );
}

#[test]
fn a_fifo_in_a_directory_is_refused_unopened() {
    let s = Scratch::new();
    s.file("m/a.yaml", CONFIGMAP);
    let fifo = s.path().join("m/b.yaml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Opening it would wait for a writer forever; the run must end at once.
    let run = s.smd(&["diff", "-f", "m", "--live", "none"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("\"m/b.yaml\": not a regular file"),
        "{run:?}"
    );
}

#[test]
fn deep_directories_are_bounded() {
    let s = Scratch::new();
    let deep: String = (0..70).map(|i| format!("d{i}/")).collect();
    s.file(&format!("m/{deep}c.yaml"), CONFIGMAP);
    let run = s.smd(&["validate", "-R", "-f", "m"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("directories nest deeper than 64 levels"),
        "{run:?}"
    );
    // Without -R, the subdirectories are not read at all.
    s.file("m/top.yaml", CONFIGMAP);
    let run = s.smd(&["validate", "-f", "m"]);
    assert_eq!(run.code, 0, "{run:?}");
}

#[test]
fn file_names_reach_the_terminal_escaped() {
    let s = Scratch::new();
    s.file("m/a\u{1b}[2J\u{202e}.yaml", CONFIGMAP);
    s.file("m/b\n.yaml", "kind: [unclosed\n");
    let run = s.smd(&["validate", "-f", "m"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(!has_terminal_control(&run.stdout), "{run:?}");
    assert!(!has_terminal_control(&run.stderr), "{run:?}");
    assert!(run.stderr.contains("m/b\\u000a.yaml"), "{run:?}");
}
