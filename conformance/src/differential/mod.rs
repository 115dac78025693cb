//! The differential mode: random cases, asked to Go (`gogen serve`) and to smd, compared, and
//! every mismatch shrunk to a small scenario case.
//!
//! Case `i` of a run with seed `s` depends only on `(s, i)` ([`rng::Rng::for_case`]), so any
//! case can be regenerated alone (`--start i --cases 1`). See "The differential mode" in
//! `conformance/README.md`.

pub mod cases;
pub mod fieldmanager;
pub mod gogen;
pub mod judge;
pub mod patches;
pub mod rng;
pub mod sets;
pub mod shrink;
pub mod text;
pub mod typed;
pub mod values;
pub mod yaml;

use cases::{GENERATORS, Generator};
use judge::{Verdict, judge, smd_result};
use rng::Rng;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub(crate) fn canonical_b64(bytes: &[u8]) -> String {
    crate::canonical::base64_encode(bytes)
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// How many cases.
    pub cases: u64,
    /// The seed of the run.
    pub seed: u64,
    /// The index of the first case (to replay one case of a run: `start = i`, `cases = 1`).
    pub start: u64,
    /// The `gogen` binary.
    pub gogen: PathBuf,
    /// Generators to use, by name or name prefix (`fieldset` selects every `fieldset.*`);
    /// empty for all.
    pub ops: Vec<String>,
    /// Stop after this many mismatches.
    pub max_failures: u64,
    /// Replays per case in gogen (a result that varies is a `generatorError`).
    pub replays: usize,
    /// Cases per batch written to gogen before reading the answers.
    pub batch: usize,
    /// At most this many Go questions to shrink one mismatch (0: do not shrink).
    pub shrink_budget: usize,
    /// Print every skipped case and known deviation too.
    pub verbose: bool,
    /// Replay these cases (JSON, one per line) instead of random ones.
    pub input: Option<PathBuf>,
    /// Write every mismatching case (shrunk), one JSON line each, to this file.
    pub failures: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            cases: 10_000,
            seed: 1,
            start: 0,
            gogen: PathBuf::from("gogen"),
            ops: Vec::new(),
            max_failures: 10,
            replays: 32,
            batch: 256,
            shrink_budget: 4000,
            verbose: false,
            input: None,
            failures: None,
        }
    }
}

/// Outcome counts.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    /// smd and Go agree.
    pub agree: u64,
    /// smd and Go differ: a failure.
    pub mismatch: u64,
    /// They differ only on invalid UTF-8 inside strings (a known deviation).
    pub known: u64,
    /// Go could not give a stable answer.
    pub skipped: u64,
}

impl Counts {
    fn add(&mut self, verdict: &Verdict) {
        match verdict {
            Verdict::Agree => self.agree += 1,
            Verdict::Mismatch(_) => self.mismatch += 1,
            Verdict::Known(_) => self.known += 1,
            Verdict::Skipped(_) => self.skipped += 1,
        }
    }

    /// All cases counted.
    pub fn total(&self) -> u64 {
        self.agree + self.mismatch + self.known + self.skipped
    }
}

/// The result of a run.
#[derive(Debug, Default)]
pub struct Summary {
    /// Counts per generator.
    pub per_op: BTreeMap<&'static str, Counts>,
    /// Counts of the whole run.
    pub total: Counts,
    /// Wall time.
    pub elapsed: Duration,
    /// Time spent shrinking (included in `elapsed`).
    pub shrinking: Duration,
}

/// The generators `ops` selects.
pub fn select(ops: &[String]) -> Result<Vec<Generator>, String> {
    if ops.is_empty() {
        return Ok(GENERATORS.to_vec());
    }
    let mut chosen = Vec::new();
    for op in ops {
        let matching: Vec<&Generator> = GENERATORS
            .iter()
            .filter(|g| g.name == op || g.name.starts_with(&format!("{op}.")))
            .collect();
        if matching.is_empty() {
            let names: Vec<&str> = GENERATORS.iter().map(|g| g.name).collect();
            return Err(format!(
                "unknown op {op:?}; known: {} (or a prefix: fieldset, pathElement, value, ...)",
                names.join(", ")
            ));
        }
        for g in matching {
            if !chosen.iter().any(|c: &Generator| c.name == g.name) {
                chosen.push(*g);
            }
        }
    }
    Ok(chosen)
}

/// Case `index` of a run: which generator made it, and the case.
pub fn make_case(generators: &[Generator], seed: u64, index: u64) -> (&'static str, Json) {
    let mut rng = Rng::for_case(seed, index);
    let weights: Vec<usize> = generators.iter().map(|g| g.weight).collect();
    let g = generators[rng.weighted(&weights)];
    (g.name, (g.make)(&mut rng))
}

/// Runs the differential test, printing mismatches (shrunk) on `out`.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<Summary, String> {
    let generators = select(&config.ops)?;
    let given = match &config.input {
        Some(path) => Some(read_cases(path)?),
        None => None,
    };
    let mut failures_file = match &config.failures {
        Some(path) => {
            Some(std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let mut gogen = gogen::Gogen::spawn(&config.gogen, config.replays)?;
    let mut summary = Summary::default();
    let started = Instant::now();
    let end = match &given {
        Some(cases) => cases.len() as u64,
        None => config.start.saturating_add(config.cases),
    };
    let mut index = config.start;
    let io = |e: std::io::Error| e.to_string();
    while index < end && summary.total.mismatch < config.max_failures {
        let n = (end - index).min(config.batch.max(1) as u64);
        let batch: Vec<(u64, &'static str, Json)> = (index..index + n)
            .map(|i| {
                let (name, case) = match given.as_ref().and_then(|g| g.get(i as usize)) {
                    Some(case) => ("input", case.clone()),
                    None => make_case(&generators, config.seed, i),
                };
                (i, name, case)
            })
            .collect();
        let cases: Vec<Json> = batch.iter().map(|(_, _, c)| c.clone()).collect();
        gogen.send(&cases)?;
        // smd works while Go does.
        let ours: Vec<Json> = cases.iter().map(smd_result).collect();
        let mut failures = Vec::new();
        for ((i, name, case), smd) in batch.into_iter().zip(ours) {
            let go = gogen.receive()?;
            let verdict = judge(&case, &go, &smd);
            summary.per_op.entry(name).or_default().add(&verdict);
            summary.total.add(&verdict);
            match &verdict {
                Verdict::Mismatch(diffs) => failures.push((i, name, case, go, smd, diffs.clone())),
                Verdict::Skipped(reason) if config.verbose => {
                    writeln!(out, "skipped case {i} ({name}): {case}\n  {reason}").map_err(io)?;
                }
                Verdict::Known(diffs) if config.verbose => {
                    writeln!(
                        out,
                        "known deviation, case {i} ({name}): {case}\n  {}",
                        diffs.join("\n  ")
                    )
                    .map_err(io)?;
                }
                _ => {}
            }
        }
        for (i, name, case, go, smd, diffs) in failures {
            let shrink_started = Instant::now();
            let minimal = report(&mut gogen, config, i, name, &case, &go, &smd, &diffs, out)?;
            if let Some(file) = failures_file.as_mut() {
                writeln!(file, "{minimal}").map_err(io)?;
            }
            summary.shrinking += shrink_started.elapsed();
        }
        index += n;
    }
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// Cases from a file of JSON lines (blank lines and lines starting with `#` are skipped).
fn read_cases(path: &std::path::Path) -> Result<Vec<Json>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(n, l)| {
            serde_json::from_str(l).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))
        })
        .collect()
}

/// The arguments that regenerate case `index` alone.
pub fn replay_args(config: &Config, index: u64) -> String {
    if let Some(path) = &config.input {
        return format!("--input {}, case {}", path.display(), index + 1);
    }
    let mut args = format!("--seed {} --start {index} --cases 1", config.seed);
    if !config.ops.is_empty() {
        args.push_str(&format!(" --ops {}", config.ops.join(",")));
    }
    args
}

/// `case` as a scenario case named `diff-SEED-INDEX`, with a note saying where it came from.
pub fn named_yaml(case: &Json, config: &Config, index: u64, op: &str) -> String {
    let mut named = serde_json::Map::new();
    named.insert(
        "name".into(),
        Json::String(format!("diff-{}-{index}", config.seed)),
    );
    if let Json::Object(m) = case {
        for (k, v) in m {
            named.insert(k.clone(), v.clone());
        }
    }
    named.insert(
        "note".into(),
        Json::String(format!(
            "{op} case found by conformance/differential {}",
            replay_args(config, index)
        )),
    );
    yaml::case_yaml(&Json::Object(named))
}

/// Prints one mismatch, shrunk, as a scenario case; returns the shrunk case.
#[allow(clippy::too_many_arguments)]
fn report(
    gogen: &mut gogen::Gogen,
    config: &Config,
    index: u64,
    op: &str,
    case: &Json,
    go: &Json,
    smd: &Json,
    diffs: &[String],
    out: &mut dyn Write,
) -> Result<Json, String> {
    let shrunk = shrink::shrink(gogen, case, go, smd, diffs, config.shrink_budget)?;
    let minimal = named_yaml(&shrunk.case, config, index, op);
    let text = format!(
        "MISMATCH: {op} case ({}), shrunk with {} questions to Go\n\
         differences:\n  {}\n\
         scenario case:\n{}\
         Go:  {}\nsmd: {}\n\
         original case: {}\n\
         original differences:\n  {}\n",
        replay_args(config, index),
        shrunk.asked,
        shrunk.diffs.join("\n  "),
        minimal,
        shrunk.go,
        shrunk.smd,
        clip(&case.to_string(), 2000),
        diffs
            .iter()
            .map(|d| clip(d, 300))
            .collect::<Vec<_>>()
            .join("\n  "),
    );
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(shrunk.case)
}

/// At most `max` bytes of `text` (cut on a character boundary).
fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// The summary lines: the first one is what CI reads.
pub fn summary_text(summary: &Summary) -> String {
    let t = &summary.total;
    let mut text = format!("differential: {} passed, {} failed\n", t.agree, t.mismatch);
    for (op, c) in &summary.per_op {
        text.push_str(&format!(
            "  {op:<24} {:>7} cases: {:>7} agree, {:>3} failed, {:>5} known, {:>5} skipped\n",
            c.total(),
            c.agree,
            c.mismatch,
            c.known,
            c.skipped
        ));
    }
    let secs = summary.elapsed.as_secs_f64();
    let per_10k = if t.total() > 0 {
        secs * 10_000.0 / t.total() as f64
    } else {
        0.0
    };
    text.push_str(&format!(
        "differential: {} cases in {secs:.1}s ({per_10k:.1}s per 10k, {:.1}s shrinking); \
         {} known deviations (not UTF-8), {} skipped (Go's answer varies between replays)\n",
        t.total(),
        summary.shrinking.as_secs_f64(),
        t.known,
        t.skipped
    ));
    text
}
