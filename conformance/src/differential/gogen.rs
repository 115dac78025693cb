//! The Go side: one `gogen serve` process, fed JSON lines.
//!
//! A writer thread owns gogen's stdin, so that writing a batch never waits on gogen's stdout
//! being read (both pipes have small buffers: writing everything first and reading after would
//! deadlock once both are full).

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

/// A running `gogen serve`.
#[derive(Debug)]
pub struct Gogen {
    child: Child,
    batches: Option<Sender<Vec<u8>>>,
    writer: Option<JoinHandle<std::io::Result<()>>>,
    answers: BufReader<ChildStdout>,
}

impl Gogen {
    /// Starts `PATH serve --replays N`.
    pub fn spawn(path: &Path, replays: usize) -> Result<Gogen, String> {
        Gogen::spawn_args(path, &["serve", "--replays", &replays.to_string()])
    }

    /// Starts `PATH ARGS...` (another serving mode, e.g. `apiserver serve`).
    pub fn spawn_args(path: &Path, args: &[&str]) -> Result<Gogen, String> {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("gogen: no pipes".into());
        };
        let (tx, rx) = channel::<Vec<u8>>();
        let writer = std::thread::spawn(move || -> std::io::Result<()> {
            for batch in rx {
                stdin.write_all(&batch)?;
                stdin.flush()?;
            }
            Ok(())
        });
        Ok(Gogen {
            child,
            batches: Some(tx),
            writer: Some(writer),
            answers: BufReader::new(stdout),
        })
    }

    /// Queues cases (one JSON line each) without waiting for the answers.
    pub fn send(&mut self, cases: &[Json]) -> Result<(), String> {
        let mut buf = Vec::new();
        for case in cases {
            serde_json::to_writer(&mut buf, case).map_err(|e| e.to_string())?;
            buf.push(b'\n');
        }
        self.batches
            .as_ref()
            .ok_or("gogen: input closed")?
            .send(buf)
            .map_err(|_| "gogen stopped reading its input".to_owned())
    }

    /// Reads the next answer.
    pub fn receive(&mut self) -> Result<Json, String> {
        let mut line = Vec::new();
        let n = self
            .answers
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("reading gogen's answer: {e}"))?;
        if n == 0 {
            return Err("gogen exited before answering".into());
        }
        serde_json::from_slice(&line).map_err(|e| {
            format!(
                "gogen's answer is not JSON ({e}): {}",
                String::from_utf8_lossy(&line)
            )
        })
    }

    /// Asks one case and waits for its answer.
    pub fn ask(&mut self, case: &Json) -> Result<Json, String> {
        self.send(std::slice::from_ref(case))?;
        self.receive()
    }
}

impl Drop for Gogen {
    fn drop(&mut self) {
        // Close stdin, and stop gogen (our own child, by its handle) in case answers are left
        // unread: it would block on its stdout and never see the end of its input.
        self.batches = None;
        let _ = self.child.kill();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
        let _ = self.child.wait();
    }
}
