//! Every case of the conformance suite as a test of its own, named by its scenario file and its
//! name: `fieldmanager/configmap.yaml::cm-apply-update-apply` replays that case and compares
//! smd's answer with the golden Go wrote; `apiserver/configmap.yaml::cm-apply-force` replays a
//! real-server case (`conformance/apiserver`) step by step against the real kube-apiserver's
//! answers. Run one or some by name as any test:
//! `cargo test -p smd-conformance --test cases -- configmap.yaml::cm-` (`--exact` for one).
//! `cargo run -p smd-conformance --bin case -- FILE::CASE` prints a case and the answers.
//!
//! libtest's own runner cannot make tests at run time, so this is a `harness = false` test run by
//! `libtest-mimic`, which gives it libtest's filters, options and output. A case passes, fails
//! with its own message, or — when the Go module cache lacks an upstream file it reads — is
//! ignored with the reason (a failure in CI, where the modules are downloaded first). A case
//! listed in `KNOWN_DEVIATIONS` passes while it differs and fails when it agrees with Go; so does
//! a real-server step listed in `KNOWN_DISAGREEMENTS`. After libtest's summary: every known
//! deviation with its reason, every skipped case, the counts.

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use serde_json::{Map, Value as Json};
use smd_conformance::apiserver::KNOWN_DISAGREEMENTS;
use smd_conformance::cases::{self, SEPARATOR, StepVerdict, Verdict, case_name};
use smd_conformance::show::escape;
use smd_conformance::{KNOWN_DEVIATIONS, load_golden, load_scenarios};
use smd_fieldpath::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, OnceLock};

/// What the cases that ran gave, for the summary after libtest's.
#[derive(Default)]
struct Tally {
    agree: usize,
    /// (the reason listed, the case) of each known deviation that still differs.
    deviations: Vec<(&'static str, String)>,
    differ: usize,
    skipped: Vec<String>,
    invariant_checks: usize,
    types: BTreeMap<&'static str, (usize, usize)>,
    /// Real-server cases: the steps replayed, those that agree, the listed ones per category.
    server_steps: usize,
    server_agree: usize,
    server_known: BTreeMap<&'static str, usize>,
}

fn tally() -> std::sync::MutexGuard<'static, Tally> {
    static TALLY: OnceLock<Mutex<Tally>> = OnceLock::new();
    TALLY
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// A golden file, read by the first of its cases that runs (a filtered run reads only the
/// goldens of the cases it runs).
struct Golden {
    path: PathBuf,
    results: OnceLock<Result<Map<String, Json>, String>>,
}

impl Golden {
    fn results(&self) -> &Result<Map<String, Json>, String> {
        self.results.get_or_init(|| load_golden(&self.path))
    }
}

/// The test of one Go-golden case.
fn go_case(file: &str, case: Json, golden: Arc<Golden>) -> Trial {
    let name = case_name(&case).to_owned();
    let test_name = format!("{}{SEPARATOR}{}", escape(file), escape(&name));
    let file = file.to_owned();
    Trial::ignorable_test(test_name, move || {
        let expected = match golden.results() {
            Ok(results) => results.get(&name).ok_or_else(|| {
                tally().differ += 1;
                Failed::from("no golden (run conformance/regen)")
            })?,
            Err(e) => {
                tally().differ += 1;
                return Err(e.as_str().into());
            }
        };
        let checked = cases::check(&file, &case, expected);
        let mut tally = tally();
        if let Some((group, same, total)) = checked.type_counts {
            let counts = tally.types.entry(group).or_default();
            counts.0 += same;
            counts.1 += total;
        }
        tally.invariant_checks += usize::from(checked.invariants_checked);
        let show = format!(
            "(cargo run -p smd-conformance --bin case -- {file}{SEPARATOR}{name} shows both answers)"
        );
        match checked.verdict {
            Verdict::Agree => {
                tally.agree += 1;
                Ok(Completion::Completed)
            }
            Verdict::KnownDeviation { reason, .. } => {
                tally.deviations.push((
                    reason,
                    format!("{}{SEPARATOR}{}", escape(&file), escape(&name)),
                ));
                Ok(Completion::Completed)
            }
            Verdict::ListedButAgrees => {
                tally.differ += 1;
                Err(Failed::from(
                    "listed as a known deviation but now agrees with Go: remove it from KNOWN_DEVIATIONS",
                ))
            }
            Verdict::Differs(differences) => {
                tally.differ += 1;
                let lines: Vec<String> =
                    differences.iter().map(|d| escape(d).into_owned()).collect();
                Err(Failed::from(format!(
                    "smd differs from Go:\n    {}\n{show}",
                    lines.join("\n    ")
                )))
            }
            Verdict::Skipped(reason) => {
                tally.skipped.push(format!(
                    "{}{SEPARATOR}{}: {reason}",
                    escape(&file),
                    escape(&name)
                ));
                // CI downloads the Go modules first: there, a case that cannot run is a failure.
                if std::env::var_os("CI").is_some() {
                    Err(Failed::from(format!("skipped in CI: {reason}")))
                } else {
                    Ok(Completion::ignored_with(reason))
                }
            }
        }
    })
}

/// The Go-golden cases' tests, and the test that every entry of `KNOWN_DEVIATIONS` names one.
fn go_trials(root: &Path) -> Vec<Trial> {
    let files = cases::scenario_files(root);
    let mut trials = vec![Trial::test("scenario files exist", {
        let (count, dir) = (files.len(), root.join("scenarios"));
        move || match count {
            0 => Err(format!("no scenario files under {}", dir.display()).into()),
            _ => Ok(()),
        }
    })];
    // Reading the scenario files is a good part of the run: as many at once as there are cores.
    let loaded = parallel(&files, |file| {
        load_scenarios(&cases::scenario_path(root, file))
    });
    let mut names = BTreeSet::new();
    for (file, loaded) in files.iter().zip(loaded) {
        match loaded {
            Ok(scenario) => {
                let golden = Arc::new(Golden {
                    path: cases::golden_path(root, file),
                    results: OnceLock::new(),
                });
                for case in scenario.cases {
                    names.insert((file.clone(), case_name(&case).to_owned()));
                    trials.push(go_case(file, case, golden.clone()));
                }
            }
            Err(e) => {
                let message = escape(&e).into_owned();
                trials.push(Trial::test(escape(file), move || Err(message.into())));
            }
        }
    }
    trials.push(Trial::test(
        "KNOWN_DEVIATIONS names existing cases",
        move || {
            let stale: Vec<String> = KNOWN_DEVIATIONS
                .iter()
                .filter(|(f, c, _)| !names.contains(&((*f).to_owned(), (*c).to_owned())))
                .map(|(f, c, _)| format!("{f}{SEPARATOR}{c}"))
                .collect();
            match stale.as_slice() {
                [] => Ok(()),
                _ => Err(format!(
                    "KNOWN_DEVIATIONS names cases no scenario file has: {}",
                    stale.join(", ")
                )
                .into()),
            }
        },
    ));
    trials
}

/// `work` on every item, on as many threads as there are cores, answers in the items' order.
fn parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let answer = work(item);
                    done.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, answer));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The test of one real-server case: every step smd answers as the server did, or as
/// `KNOWN_DISAGREEMENTS` lists it.
fn server_case(file: &str, case: Json, crds: Arc<Vec<Value>>, expected: Vec<Json>) -> Trial {
    let name = case_name(&case).to_owned();
    let test_name = format!("{}{SEPARATOR}{}", escape(file), escape(&name));
    let file = file.to_owned();
    // SMD_REPLAY_SHOW_KNOWN=1 (with --nocapture) prints how each listed step differs.
    let show_known = std::env::var_os("SMD_REPLAY_SHOW_KNOWN").is_some();
    Trial::test(test_name, move || {
        let steps = cases::check_server(&file, &case, &crds, &expected)
            .map_err(|e| escape(&e).into_owned())?;
        let mut problems = Vec::new();
        let mut tally = tally();
        for (step, verdict) in steps {
            tally.server_steps += 1;
            match verdict {
                StepVerdict::Agree => tally.server_agree += 1,
                StepVerdict::ListedButAgrees => problems.push(format!(
                    "step {step}: listed in KNOWN_DISAGREEMENTS but smd now agrees: remove it"
                )),
                StepVerdict::Differs(d) => problems.push(format!("step {step}: {}", escape(&d))),
                StepVerdict::Known(category, d) => {
                    if show_known {
                        println!("known: {file}: {name} step {step}: {}", escape(&d));
                    }
                    *tally.server_known.entry(category).or_default() += 1;
                }
            }
        }
        match problems.as_slice() {
            [] => Ok(()),
            _ => Err(format!(
                "{}\n(cargo run -p smd-conformance --bin case -- {file}{SEPARATOR}{name} shows the case and the server's answers)",
                problems.join("\n")
            )
            .into()),
        }
    })
}

/// The real-server cases' tests (`conformance/apiserver`), and the test that every entry of
/// `KNOWN_DISAGREEMENTS` names a step of one.
fn server_trials(root: &Path) -> Vec<Trial> {
    let files = cases::server_files(root);
    let mut trials = vec![Trial::test("apiserver scenario files exist", {
        let (count, dir) = (files.len(), root.join("apiserver").join("scenarios"));
        move || match count {
            0 => Err(format!("no scenario files under {}", dir.display()).into()),
            _ => Ok(()),
        }
    })];
    let loaded = parallel(&files, |file| cases::load_server_file(root, file));
    // (file as KNOWN_DISAGREEMENTS names it, case, steps) of every case.
    let mut steps: Vec<(String, String, usize)> = Vec::new();
    for (file, loaded) in files.iter().zip(loaded) {
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(e) => {
                let message = format!("{}: {}", escape(file), escape(&e));
                trials.push(Trial::test(escape(file), move || Err(message.into())));
                continue;
            }
        };
        let crds = Arc::new(loaded.crds.clone());
        for case in &loaded.cases {
            let name = case_name(case).to_owned();
            let count = case["steps"].as_array().map_or(0, Vec::len);
            let listed_file = file.strip_prefix(cases::SERVER_PREFIX).unwrap_or(file);
            steps.push((listed_file.to_owned(), name.clone(), count));
            match loaded.expected(&name) {
                Ok(expected) => trials.push(server_case(
                    file,
                    case.clone(),
                    crds.clone(),
                    expected.to_vec(),
                )),
                Err(e) => {
                    let message = escape(&e).into_owned();
                    trials.push(Trial::test(
                        format!("{}{SEPARATOR}{}", escape(file), escape(&name)),
                        move || Err(message.into()),
                    ));
                }
            }
        }
    }
    trials.push(Trial::test(
        "KNOWN_DISAGREEMENTS names existing steps",
        move || {
            let stale: Vec<String> = KNOWN_DISAGREEMENTS
                .iter()
                .filter(|(f, c, s, _)| {
                    !steps.iter().any(|(file, case, count)| {
                        file == f && case == c && (1..=*count).contains(s)
                    })
                })
                .map(|(f, c, s, _)| format!("{f}: {c} step {s}"))
                .collect();
            match stale.as_slice() {
                [] => Ok(()),
                _ => Err(format!(
                    "KNOWN_DISAGREEMENTS names steps no scenario has: {}",
                    stale.join(", ")
                )
                .into()),
            }
        },
    ));
    trials
}

fn print_summary() {
    let mut tally = tally();
    tally.skipped.sort();
    tally.deviations.sort();
    // Each reason once, with the cases it covers.
    let mut previous = None;
    for (reason, case) in &tally.deviations {
        if previous != Some(reason) {
            println!("KNOWN DEVIATION (still differs): {reason}");
            previous = Some(reason);
        }
        println!("    {case}");
    }
    for skip in &tally.skipped {
        println!("SKIPPED {skip}");
    }
    for (group, (same, total)) in &tally.types {
        println!("conformance: {group}: {same} of {total} types converted identically");
    }
    println!(
        "conformance: the updater fuzz target's invariants hold in Go's {} updater goldens",
        tally.invariant_checks
    );
    println!(
        "conformance: {} cases agree with Go, {} known deviations, {} skipped, {} differ",
        tally.agree,
        tally.deviations.len(),
        tally.skipped.len(),
        tally.differ
    );
    if tally.server_steps > 0 {
        println!(
            "real kube-apiserver goldens: {} steps: {} agree, {} known disagreements",
            tally.server_steps,
            tally.server_agree,
            tally.server_known.values().sum::<usize>()
        );
        for (category, n) in &tally.server_known {
            println!("  {n:4} {category}");
        }
    }
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let root = cases::root();
    let mut trials = go_trials(&root);
    trials.extend(server_trials(&root));
    let conclusion = libtest_mimic::run(&args, trials);
    if !args.list {
        print_summary();
    }
    conclusion.exit_code()
}
