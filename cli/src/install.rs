//! What installing smd needs from smd itself: `smd version`, shell completions and the man
//! page. Completions and the man page are generated from the one clap definition of the
//! command line (`clap_complete`, `clap_mangen`), so they cannot drift from the flags.

use std::io::Write;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::{Cli, Failure, Outcome};

/// `smd completions SHELL`.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

/// `smd man [SUBCOMMAND]...`.
#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// The subcommand whose page to print (`diff` gives smd-diff(1), `schema convert`
    /// smd-schema-convert(1)); none gives smd(1).
    #[arg(value_name = "SUBCOMMAND")]
    subcommand: Vec<String>,
}

/// Prints smd's version and the Kubernetes release it answers for.
pub(crate) fn version(out: &mut dyn Write) -> Result<(), Outcome> {
    writeln!(out, "smd {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(
        out,
        "Kubernetes v{}: smd answers as its kube-apiserver would (schema, defaults, validation, field manager)",
        smd_schema::kubernetes::KUBERNETES_VERSION
    )?;
    Ok(())
}

/// Prints the completion script of `args.shell` for the command `smd`.
pub(crate) fn completions(args: CompletionsArgs, out: &mut dyn Write) -> Result<(), Outcome> {
    // The script is generated into memory: clap_complete writes with no error to report, and
    // a failed write of ours must still be told apart from a closed pipe.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "smd", &mut script);
    out.write_all(&script)?;
    Ok(())
}

/// Prints the man page smd(1), or a subcommand's (smd-diff(1)), in roff, for `man -l -` or a
/// `man1` directory.
pub(crate) fn man(args: ManArgs, out: &mut dyn Write) -> Result<(), Outcome> {
    // Built as clap_mangen builds a tree of pages: each subcommand named `smd-diff`, with no
    // `help` subcommand (a page of its own that says nothing).
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    for name in &args.subcommand {
        let Some(sub) = command.find_subcommand(name).cloned() else {
            let known: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
            let shown = crate::terminal::escape(name);
            return Err(Failure::new(if known.is_empty() {
                format!(
                    "man: {shown}: `{}` has no subcommands",
                    command.get_display_name().unwrap_or("smd")
                )
            } else {
                format!(
                    "man: no subcommand {shown}; there are: {}",
                    known.join(", ")
                )
            })
            .into());
        };
        command = sub;
    }
    let mut page = Vec::new();
    // Every page names the release it documents (clap puts the version on smd(1) alone).
    clap_mangen::Man::new(command)
        .source(format!("smd {}", env!("CARGO_PKG_VERSION")))
        .render(&mut page)
        .map_err(|e| Failure::new(format!("writing the man page: {e}")))?;
    out.write_all(&page)?;
    Ok(())
}
