//! `differential`: random cases, answered by Go (`gogen serve`) and by smd, compared.
//! Usually run through the `conformance/differential` script, which builds gogen first.

use smd_conformance::differential::{
    Config, cases::GENERATORS, make_case, named_yaml, run, select, summary_text,
};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: differential --gogen PATH [--cases N] [--seed S] [--start I] [--ops LIST]
                    [--max-failures K] [--replays R] [--batch B] [--shrink-budget Q] [--verbose] [--input FILE] [--failures FILE] [--dump | --dump-yaml]

  --gogen PATH        the gogen binary (conformance/differential builds it and passes it)
  --cases N           how many random cases (default 10000)
  --seed S            the seed (default 1); case I of seed S is always the same case
  --start I           the index of the first case (replay one case: --start I --cases 1)
  --ops LIST          comma-separated generators or prefixes (default: all), e.g. fieldset,value.compare
  --max-failures K    stop after K mismatches (default 10)
  --replays R         replays per case in gogen (default 32; a varying result is skipped)
  --batch B           cases written to gogen before reading answers (default 256)
  --shrink-budget Q   questions to Go to shrink one mismatch (default 4000; 0: no shrinking)
  --verbose           also print skipped cases and known deviations
  --input FILE        replay the cases of FILE (JSON, one per line) instead of random ones
  --failures FILE     write each mismatching case (shrunk) to FILE, one JSON line each
                      (replay them with --input FILE)
  --dump              only print the generated cases, as JSON lines (no gogen needed)
  --dump-yaml         only print the generated cases, as a scenario file

Exit status: 0 when no case differs, 1 when some do, 2 on a usage or gogen error.";

fn parse_args(args: &[String]) -> Result<(Config, Option<bool>), String> {
    let mut config = Config::default();
    let mut gogen = None;
    let mut dump = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        fn number<T: std::str::FromStr>(flag: &str, text: String) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{flag}: not a number: {text:?}"))
        }
        match flag {
            "--gogen" => gogen = Some(PathBuf::from(value()?)),
            "--cases" => config.cases = number(flag, value()?)?,
            "--seed" => config.seed = number(flag, value()?)?,
            "--start" => config.start = number(flag, value()?)?,
            "--ops" => {
                config.ops = value()?
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            }
            "--max-failures" => config.max_failures = number(flag, value()?)?,
            "--replays" => config.replays = number(flag, value()?)?,
            "--batch" => config.batch = number(flag, value()?)?,
            "--shrink-budget" => config.shrink_budget = number(flag, value()?)?,
            "--verbose" => config.verbose = true,
            "--input" => config.input = Some(PathBuf::from(value()?)),
            "--failures" => config.failures = Some(PathBuf::from(value()?)),
            "--dump" => dump = Some(false),
            "--dump-yaml" => dump = Some(true),
            "-h" | "--help" => {
                let names: Vec<&str> = GENERATORS.iter().map(|g| g.name).collect();
                return Err(format!("{USAGE}\n\ngenerators: {}", names.join(", ")));
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    if dump.is_some() {
        // Only print the cases: gogen is not needed.
        return Ok((config, dump));
    }
    config.gogen = gogen.ok_or_else(|| format!("--gogen is required\n{USAGE}"))?;
    if config.replays == 0 {
        return Err("--replays must be at least 1".into());
    }
    Ok((config, None))
}

/// `--dump`: print the cases as JSON lines (what gogen would be sent), or with `--dump-yaml` as
/// a scenario file; ask no one.
fn dump_cases(config: &Config, yaml: bool) -> ExitCode {
    let generators = match select(&config.ops) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if yaml {
        println!("format: smd-scenarios/v1\ncases:");
    }
    for i in config.start..config.start.saturating_add(config.cases) {
        let (op, case) = make_case(&generators, config.seed, i);
        if yaml {
            print!("{}", named_yaml(&case, config, i, op));
        } else {
            println!("{case}");
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok((c, Some(yaml))) => return dump_cases(&c, yaml),
        Ok((c, None)) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match &config.input {
        Some(path) => println!(
            "differential: cases from {}, gogen {}",
            path.display(),
            config.gogen.display()
        ),
        None => println!(
            "differential: seed {}, cases {}..{}, gogen {}",
            config.seed,
            config.start,
            config.start.saturating_add(config.cases),
            config.gogen.display()
        ),
    }
    let mut stdout = std::io::stdout();
    match run(&config, &mut stdout) {
        Ok(summary) => {
            print!("{}", summary_text(&summary));
            if summary.total.mismatch > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("differential: {e}");
            ExitCode::from(2)
        }
    }
}
