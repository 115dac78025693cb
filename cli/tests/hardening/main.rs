//! Hostile input (issue 11): one module per defect class, each test written to fail before its
//! fix. The binary is run as CI runs it on someone else's pull request: files and environment
//! chosen by the attacker, output read as it would land in a public log.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod input;
mod jobs;
mod lint;
mod nesting;
mod oddities;
mod origins;
mod readback;
mod scale;
mod terminal;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run of `smd` gave.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `smd args` in `dir` with `stdin` and `env` (KUBECTL_EXTERNAL_DIFF and NO_COLOR removed
/// unless given).
pub fn smd_in(dir: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_smd"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // Written on a thread: a large stdin must not block against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().unwrap();
    let _ = writer.join();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A fresh directory for one test's files, removed when dropped.
#[derive(Debug)]
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().unwrap(),
        }
    }
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::default()
    }
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
    /// Writes `name` (relative) with `contents`; returns its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }
    /// Runs `smd args` in this directory.
    pub fn smd(&self, args: &[&str]) -> Run {
        smd_in(self.path(), args, b"", &[])
    }
}

/// Whether `text` holds a character a terminal would act on: C0 controls other than newline
/// and tab, DEL, C1 controls, and the bidirectional overrides and isolates.
pub fn has_terminal_control(text: &str) -> bool {
    text.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

// Their fixtures run shell scripts and read Unix modes.
#[cfg(unix)]
mod external_diff;
#[cfg(unix)]
mod secrets;
// Links and FIFOs are Unix's.
#[cfg(unix)]
mod walk;
