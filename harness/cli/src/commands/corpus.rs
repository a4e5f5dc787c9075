//! `findbench corpus ...`: corpora generated from a user's own code, so that findbench is
//! measured on it. One subcommand per generator; `commits` builds a localization corpus
//! from a repository's history (`findbench_eval::corpus::commits`), `symbols` asks for the
//! definitions Universal Ctags finds in a tree (`findbench_eval::corpus::symbols`). Both
//! write their fixture relative to the corpus file and leave tests out unless asked.

use clap::{Args, Subcommand};
use findbench_engine::Profile;
use findbench_eval::atomic_file::write_atomic;
use findbench_eval::corpus::commits::{self, CommitText, CommitsOptions};
use findbench_eval::corpus::relative::{corpus_dir, fixture_path};
use findbench_eval::corpus::symbols::{generate, SymbolCorpusOptions};
use findbench_eval::error::{HarnessError, Result};
use std::path::PathBuf;

/// What `corpus --help` says after the subcommands: where to write a corpus, and the accept
/// step that makes its first run a baseline.
pub const AFTER_HELP: &str = "\
A generated corpus names its fixture relative to the corpus file, so write it inside the
repository it tests (corpora/ of the repository) and commit it: it runs the same from any
clone. Tests are left out unless --include-tests; --exclude GLOB (repeatable) leaves out
generated or vendored paths.

Some generated cases fail today: that is what is measured. Accept today's results as the
baseline, commit it, and gate later runs against it (a case that failed in the baseline
too is not an unexpected failure; one that held there and fails now is):

  findbench corpus commits --git-dir . --out corpora/commits.yaml
  findbench run corpora/commits.yaml --out reports/commits-baseline --exit-zero   # accept
  findbench run corpora/commits.yaml --baseline reports/commits-baseline/results.json";

#[derive(Debug, Subcommand)]
pub enum CorpusCommand {
    /// A localization corpus from history: each sampled commit's subject (or message) asked
    /// against the tree before it, expecting the source files it changed.
    Commits(CommitsArgs),
    /// A corpus of the definitions ctags finds under a root: each asked by `find code` and
    /// by `ask` with the exact name, the words split, and the bare words.
    Symbols(SymbolsArgs),
}

#[derive(Debug, Args)]
pub struct CommitsArgs {
    /// The repository: a bare repository, a mirror, or a clone (its `.git` is found).
    #[arg(long, value_name = "DIR")]
    pub git_dir: PathBuf,
    /// Where to write the corpus YAML.
    #[arg(long, value_name = "FILE.yaml")]
    pub out: PathBuf,
    /// The revision whose history is sampled.
    #[arg(long, default_value = "HEAD", value_name = "REV")]
    pub rev: String,
    /// Most source files (tests aside) a commit may change to be a case.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub max_files: usize,
    /// Paths whose files never count (glob, repeatable), e.g. generated or vendored code.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Count the tests a commit changed as source files (by default they do not count).
    #[arg(long)]
    pub include_tests: bool,
    /// What a case asks: the commit's subject, or its whole message (subject and body).
    #[arg(long, value_enum, default_value_t = CommitTextArg::Subject, value_name = "WHAT")]
    pub text: CommitTextArg,
    /// Seed of the sample: the same seed gives the same corpus from the same history.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Commits sampled.
    #[arg(long, default_value_t = 40, value_name = "C")]
    pub count: usize,
    /// Fewest words of letters a subject must hold to be a question.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub min_words: usize,
    /// Suite name (default `commits-<repository>`).
    #[arg(long)]
    pub suite: Option<String>,
    /// The profile whose rules say what a source file and a test are.
    #[arg(long, default_value = "default")]
    pub profile: String,
}

/// `--text`: what of a commit a case asks.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CommitTextArg {
    Subject,
    Message,
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
    /// Files whose definitions are never picked (glob on the path under the root,
    /// repeatable), e.g. generated or vendored code.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Pick definitions in tests too (by default the profile's test files are left out).
    #[arg(long)]
    pub include_tests: bool,
}

pub fn run(command: CorpusCommand, cache: &super::shared_args::CacheArgs) -> i32 {
    let result = match command {
        CorpusCommand::Commits(args) => commits_command(&args),
        CorpusCommand::Symbols(args) => symbols(&args, cache).map(|()| 0),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn commits_command(args: &CommitsArgs) -> Result<i32> {
    let profile = Profile::resolve(&args.profile)
        .map_err(|e| HarnessError::invalid(format!("profile `{}`: {e}", args.profile)))?;
    let options = CommitsOptions {
        git_dir: args.git_dir.clone(),
        rev: args.rev.clone(),
        max_files: args.max_files,
        exclude: args.exclude.clone(),
        seed: args.seed,
        count: args.count,
        min_words: args.min_words,
        suite: args.suite.clone(),
        include_tests: args.include_tests,
        text: match args.text {
            CommitTextArg::Subject => CommitText::Subject,
            CommitTextArg::Message => CommitText::Message,
        },
    };
    let sample = commits::sample(&options, &profile).map_err(|m| {
        if m.starts_with("--") || m.starts_with("bad --") {
            HarnessError::invalid(m)
        } else {
            HarnessError::file(&args.git_dir, m)
        }
    })?;
    if sample.cases.is_empty() {
        return Err(HarnessError::invalid(format!(
            "no eligible commit in {} non-merge commits of `{}` (1 to {} source files changed, \
             subjects of {}+ words)",
            sample.commits,
            args.git_dir.display(),
            args.max_files,
            args.min_words
        )));
    }
    let mut command = format!(
        "findbench corpus commits --git-dir {} --max-files {} --seed {} --count {}",
        args.git_dir.display(),
        args.max_files,
        args.seed,
        args.count
    );
    for g in &args.exclude {
        command.push_str(&format!(" --exclude '{g}'"));
    }
    if args.include_tests {
        command.push_str(" --include-tests");
    }
    if let CommitTextArg::Message = args.text {
        command.push_str(" --text message");
    }
    out_dir_exists(&args.out)?;
    let git_dir = fixture_path(&args.out, &sample.git_dir);
    let yaml = commits::to_yaml(&sample, &command, &git_dir);
    write_atomic(&args.out, yaml.as_bytes())
        .map_err(|e| HarnessError::file(&args.out, format!("cannot write: {e}")))?;
    eprintln!(
        "{}: {} cases from {} eligible of {} non-merge commits",
        args.out.display(),
        sample.cases.len(),
        sample.eligible,
        sample.commits
    );
    Ok(0)
}

/// The directory `out` is written to exists (its fixture path is relative to it).
fn out_dir_exists(out: &std::path::Path) -> Result<()> {
    corpus_dir(out).map(|_| ()).map_err(|e| {
        HarnessError::file(
            out,
            format!("cannot write the corpus there: its directory: {e}"),
        )
    })
}

fn symbols(args: &SymbolsArgs, cache: &super::shared_args::CacheArgs) -> Result<(), HarnessError> {
    out_dir_exists(&args.out)?;
    let corpus = generate(&SymbolCorpusOptions {
        root: args.root.clone(),
        seed: args.seed,
        per_tree: args.per_tree,
        ctags: args.ctags.clone(),
        suite: args.suite.clone(),
        tree: cache.tree_options(),
        out: args.out.clone(),
        exclude: args.exclude.clone(),
        include_tests: args.include_tests,
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
