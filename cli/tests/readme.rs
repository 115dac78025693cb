//! The README shows smd's real output: every ```console block's `$ smd …` command is run and
//! must print what the block shows (a block ending in `…` shows the head of the output). The
//! README's first command, the one CI and a new reader run, is the `smd diff` it demonstrates.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The README's console blocks: (the command's arguments after `smd`, the output shown, whether
/// the output is cut short).
fn console_blocks(readme: &str) -> Vec<(String, String, bool)> {
    let mut blocks = Vec::new();
    let mut rest = readme;
    while let Some(at) = rest.find("```console\n") {
        let body = &rest[at + "```console\n".len()..];
        let end = body.find("```\n").unwrap();
        let (command, shown) = body[..end].split_once('\n').unwrap();
        let args = command
            .strip_prefix("$ smd ")
            .unwrap_or_else(|| panic!("{command}"));
        let (shown, cut) = match shown.strip_suffix("…\n") {
            Some(head) => (head, true),
            None => (shown, false),
        };
        blocks.push((args.to_owned(), shown.to_owned(), cut));
        rest = &body[end..];
    }
    blocks
}

#[test]
fn the_readme_shows_what_smd_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let blocks = console_blocks(&readme);
    let commands: Vec<&str> = blocks
        .iter()
        .map(|(args, _, _)| args.split(' ').next().unwrap())
        .collect();
    // `smd version` and the five commands, each shown at least once.
    for command in ["version", "diff", "apply", "blame", "fields", "validate"] {
        assert!(
            commands.contains(&command),
            "the README shows no `smd {command}`"
        );
    }
    for (args, shown, cut) in &blocks {
        let output = Command::new(env!("CARGO_BIN_EXE_smd"))
            .args(args.split(' '))
            .current_dir(root())
            .env_remove("KUBECTL_EXTERNAL_DIFF")
            .output()
            .unwrap();
        let printed =
            String::from_utf8(output.stdout).unwrap() + &String::from_utf8(output.stderr).unwrap();
        if *cut {
            assert!(
                printed.starts_with(shown.as_str()),
                "smd {args} prints:\n{printed}"
            );
            assert!(
                printed.len() > shown.len(),
                "smd {args}: the README cuts nothing"
            );
        } else {
            assert_eq!(&printed, shown, "smd {args}");
        }
    }

    // The first command of the README is the diff the README then shows.
    let first = readme
        .lines()
        .find(|line| line.starts_with("cargo run"))
        .unwrap();
    let first_args = first
        .strip_prefix("cargo run -q -p smd-cli -- ")
        .and_then(|rest| rest.split("   #").next())
        .unwrap()
        .trim();
    assert!(
        blocks.iter().any(|(args, _, _)| args == first_args),
        "the README's first command ({first_args}) is not among its shown runs"
    );

    // The second is the test command, which CI runs as the README's.
    let second = readme
        .lines()
        .find(|line| line.starts_with("cargo test"))
        .unwrap();
    let tests = second.split("   #").next().unwrap().trim();
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.contains(&format!("step \"tests (README)\" {tests}\n")),
        "CI does not run the README's test command ({tests})"
    );
}
