//! `apiserver-differential`: random request sequences answered by a real kube-apiserver
//! (through `gogen apiserver serve`) and by smd, compared, counted per category against a
//! committed baseline (a ratchet), the first case of each category the ratchet refuses (or of
//! every category, with --shrink-all) shrunk to a scenario case.
//! Run through `conformance/apiserver/differential`, which builds gogen and starts the server.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use std::collections::BTreeMap;

use smd_conformance::apiserver_diff::{Baseline, Server, Shrunk, run, scenario_text, shrink};

const USAGE: &str =
    "usage: apiserver-differential --gogen PATH --baseline FILE [--count N] [--seed S]
                              [--parallel P] [--batch B] [--no-shrink] [--shrink-all] [--write-baseline]
                              [--findings FILE]

  --gogen PATH       the gogen binary; SMD_APISERVER_URL, _TOKEN and _CA name the server
  --baseline FILE    the ratchet's counts per category (conformance/apiserver/differential-baseline)
  --count N          how many sequences (default 1000)
  --seed S           the seed (default 1); sequence I of seed S is always the same
  --parallel P       sequences the server replays at once (default 96)
  --batch B          sequences sent before their answers are compared (default: all)
  --no-shrink        print the first sequences as they are
  --shrink-all       shrink and print the first sequence of every category (by default only
                     of the first 5 categories the ratchet refuses; each takes seconds of server time)
  --write-baseline   write this run's counts to FILE (then commit it)
  --findings FILE    write every differing step to FILE, one per line: sequence, step,
                     category and what differs (tab-separated), to read a category whole

Exit status: 0 when the ratchet holds, 1 when a count rose or a category is new, 2 on a usage
or harness error.";

/// The refused categories shrunk in one run (shrinking costs server time: CI's budget).
const MAX_REFUSED_SHRUNK: usize = 5;

struct Args {
    gogen: PathBuf,
    baseline: PathBuf,
    count: u64,
    seed: u64,
    parallel: usize,
    batch: Option<u64>,
    shrink: bool,
    shrink_all: bool,
    write: bool,
    findings: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        gogen: PathBuf::new(),
        baseline: PathBuf::new(),
        count: 1000,
        seed: 1,
        parallel: 96,
        batch: None,
        shrink: true,
        shrink_all: false,
        write: false,
        findings: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        fn number<T: std::str::FromStr>(flag: &str, v: String) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("{flag}: not a number: {v:?}"))
        }
        match flag.as_str() {
            "--gogen" => a.gogen = PathBuf::from(value()?),
            "--baseline" => a.baseline = PathBuf::from(value()?),
            "--count" => a.count = number(flag, value()?)?,
            "--seed" => a.seed = number(flag, value()?)?,
            "--parallel" => a.parallel = number(flag, value()?)?,
            "--batch" => a.batch = Some(number(flag, value()?)?),
            "--no-shrink" => a.shrink = false,
            "--shrink-all" => a.shrink_all = true,
            "--write-baseline" => a.write = true,
            "--findings" => a.findings = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if a.gogen.as_os_str().is_empty() || a.baseline.as_os_str().is_empty() {
        return Err("--gogen and --baseline are required".into());
    }
    if a.parallel == 0 || a.batch == Some(0) {
        return Err("--parallel and --batch must be at least 1".into());
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = match parse(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("apiserver-differential: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match main_with(&a) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("apiserver-differential: {e}");
            ExitCode::from(2)
        }
    }
}

fn main_with(a: &Args) -> Result<bool, String> {
    let baseline_text = std::fs::read_to_string(&a.baseline)
        .map_err(|e| format!("{}: {e}", a.baseline.display()))?;
    let baseline =
        Baseline::parse(&baseline_text).map_err(|e| format!("{}: {e}", a.baseline.display()))?;
    let mut server = Server::start(&a.gogen, a.parallel)?;
    let started = Instant::now();
    let report = run(&mut server, a.seed, a.count, a.batch.unwrap_or(a.count))?;
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "apiserver differential: {} sequences (seed {}) in {elapsed:.1}s ({:.1}/s): {} steps, {} agree, {} differ",
        a.count,
        a.seed,
        a.count as f64 / elapsed.max(0.001),
        report.steps,
        report.agree,
        report.steps - report.agree,
    );
    let mix = &report.mix;
    let share = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    let (creates, filled) = mix.defaulted_creates();
    println!(
        "mix: {} steps refused with 422 Invalid ({:.1}%); {creates} creates of kinds with defaults, {filled} leaving defaults to the server ({:.1}%)",
        mix.refused_invalid,
        share(mix.refused_invalid, report.steps),
        share(filled, creates),
    );
    let events: Vec<String> = mix.events.iter().map(|(t, n)| format!("{t} {n}")).collect();
    println!(
        "reads: {} lists ({} items), {} watches ({} events: {})",
        mix.lists.0,
        mix.lists.1,
        mix.watches.0,
        mix.watches.1,
        events.join(", ")
    );
    let versions: Vec<String> = mix
        .versions
        .iter()
        .map(|(k, n)| format!("{k} ({n})"))
        .collect();
    println!("kinds and versions written: {}", versions.join(", "));
    if let Some(path) = &a.findings {
        let mut text = String::new();
        for (i, f) in &report.findings {
            let detail = f.detail.replace(['\n', '\t'], " ");
            text.push_str(&format!("{i}\t{}\t{}\t{detail}\n", f.step, f.category));
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote every finding to {}", path.display());
    }
    println!("steps per category (first sequence showing it):");
    for (category, n) in &report.counts {
        let first = report.examples.get(category).map_or(0, |(i, _)| *i);
        println!("  {n:5}  {category}  (sequence {first})");
    }

    let (refused, fell) = baseline.check(a.seed, a.count, &report.counts);
    let chosen: BTreeMap<String, (u64, serde_json::Value)> = report
        .examples
        .iter()
        .filter(|(c, _)| a.shrink_all || refused.iter().any(|(r, _)| r == *c))
        .take(if a.shrink_all {
            usize::MAX
        } else {
            MAX_REFUSED_SHRUNK
        })
        .map(|(c, e)| (c.clone(), e.clone()))
        .collect();
    if !a.shrink_all && refused.len() > chosen.len() {
        println!(
            "\n{} categories refused; the first {} are shrunk (all of them: --shrink-all)",
            refused.len(),
            chosen.len()
        );
    }
    if !chosen.is_empty() {
        let started = Instant::now();
        let shrunk = if a.shrink {
            shrink(&mut server, &chosen, a.seed)?
        } else {
            chosen
                .iter()
                .map(|(c, (i, case))| Shrunk {
                    category: c.clone(),
                    index: *i,
                    case: case.clone(),
                    detail: String::new(),
                })
                .collect()
        };
        println!(
            "\nthe first sequence of {}{} (scenario cases: paste under `cases:`):",
            if a.shrink_all {
                "each category"
            } else {
                "each category the ratchet refuses"
            },
            if a.shrink {
                format!(", shrunk in {:.1}s", started.elapsed().as_secs_f64())
            } else {
                String::new()
            }
        );
        for s in &shrunk {
            println!();
            print!("{}", scenario_text(a.seed, s));
        }
    }

    if a.write {
        let b = Baseline {
            seed: a.seed,
            count: a.count,
            counts: report.counts.clone(),
        };
        std::fs::write(&a.baseline, b.text())
            .map_err(|e| format!("{}: {e}", a.baseline.display()))?;
        println!("\nwrote {}", a.baseline.display());
        return Ok(true);
    }
    if a.seed != baseline.seed || a.count != baseline.count {
        println!(
            "\nratchet: the baseline counts seed {} x {}; this run only fails on a new category",
            baseline.seed, baseline.count
        );
    }
    for f in &fell {
        println!("ratchet: fell, lower the baseline (--write-baseline): {f}");
    }
    if refused.is_empty() {
        println!("ratchet: holds ({} categories)", report.counts.len());
        Ok(true)
    } else {
        for (_, why) in &refused {
            println!("ratchet: REFUSED: {why}");
        }
        Ok(false)
    }
}
