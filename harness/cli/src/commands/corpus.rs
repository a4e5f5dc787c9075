//! `findbench corpus symbols --root DIR --out FILE.yaml`: write a corpus for any source
//! tree, with Universal Ctags as the ground truth (see `findbench_eval::corpus::symbols`).

use clap::{Args, Subcommand};
use findbench_eval::atomic_file::write_atomic;
use findbench_eval::corpus::symbols::{generate, SymbolCorpusOptions};
use findbench_eval::error::HarnessError;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum CorpusCommand {
    /// A corpus of the definitions ctags finds under a root: each asked by `find code` and
    /// by `ask` with the exact name, the words split, and the bare words.
    Symbols(SymbolsArgs),
}

#[derive(Debug, Args)]
pub struct SymbolsArgs {
    /// The source tree.
    #[arg(long)]
    pub root: PathBuf,
    /// Where to write the corpus (YAML).
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of the pick: the same seed, tree and ctags give the same corpus.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Definitions picked from the tree.
    #[arg(long, default_value_t = 40)]
    pub per_tree: usize,
    /// The suite name (default: `symbols-` and the root's directory name).
    #[arg(long)]
    pub suite: Option<String>,
    /// The Universal Ctags program.
    #[arg(long, default_value = "ctags")]
    pub ctags: PathBuf,
}

pub fn run(cmd: CorpusCommand) -> i32 {
    match cmd {
        CorpusCommand::Symbols(args) => match symbols(&args) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: {e}");
                e.exit_code()
            }
        },
    }
}

fn symbols(args: &SymbolsArgs) -> Result<(), HarnessError> {
    let corpus = generate(&SymbolCorpusOptions {
        root: args.root.clone(),
        seed: args.seed,
        per_tree: args.per_tree,
        ctags: args.ctags.clone(),
        suite: args.suite.clone(),
    })?;
    if corpus.symbols.is_empty() {
        return Err(HarnessError::invalid(format!(
            "ctags found no definition to ask for under {}",
            args.root.display()
        )));
    }
    write_atomic(&args.out, corpus.yaml.as_bytes())?;
    eprintln!(
        "wrote {} ({} definitions, {} cases; {})",
        args.out.display(),
        corpus.symbols.len(),
        corpus.cases,
        corpus.ctags_version
    );
    Ok(())
}
