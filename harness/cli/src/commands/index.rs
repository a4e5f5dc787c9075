//! `findbench index DIR`: builds or refreshes the kept index of a tree (what `find code`,
//! `grep` and `ask` load) and prints what it holds, so that a CI job or an agent's setup
//! step can pay the first walk ahead of the first question.

use super::find::ProfileArg;
use super::shared_args::{CacheArgs, OutputArgs};
use crate::output::{print, Format};
use clap::Args;
use findbench_engine::tree::IndexStats;
use findbench_engine::{EngineError, Profile, Tree};
use findbench_eval::envelope::{self, Meta};
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// The source tree to index (walked honouring .gitignore, as `find code` walks it).
    #[arg(default_value = ".", value_name = "DIR")]
    pub root: PathBuf,
    /// The ranking statistics of word-ranked questions are kept for this profile.
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Build at the lowest CPU priority: how a cold call starts the build of its tree, so
    /// that the build takes only what the caller and its next calls leave idle.
    #[arg(long, hide = true)]
    pub background: bool,
}

/// What `index` did: the tree index, and whether the ranking statistics are kept.
struct Indexed {
    stats: IndexStats,
    ranking_kept: bool,
}

pub fn run(args: IndexArgs, cache: &CacheArgs) -> i32 {
    if args.background {
        lowest_priority();
    }
    let started = SystemTime::now();
    let clock = Instant::now();
    let result = index(&args, cache);
    let meta = Meta::new("index", started, clock.elapsed());
    match result {
        Ok(indexed) => {
            match args.output.format.resolve() {
                Format::Json | Format::Jsonl => {
                    let mut fields = serde_json::to_value(&indexed.stats).unwrap_or_default();
                    if let serde_json::Value::Object(map) = &mut fields {
                        map.insert("ranking_kept".into(), indexed.ranking_kept.into());
                    }
                    let doc = envelope::success("index.schema.json", &meta, fields);
                    print(&format!("{doc}\n"));
                }
                _ => print(&render(&indexed, args.output.quiet)),
            }
            0
        }
        Err(err) => super::report_error::report_error(
            &args.output,
            "index",
            started,
            clock,
            &err as &dyn findbench_eval::error::CodedError,
        ),
    }
}

/// Lowers this process to the lowest CPU priority (nice 19). Linux sets a thread's
/// priority; every thread the build starts later (the walk's, rayon's) inherits it.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes integer arguments only and touches no memory.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// Builds or refreshes the index. An index that cannot be written is a file error (exit 3):
/// writing it is the command's whole purpose.
fn index(args: &IndexArgs, cache: &CacheArgs) -> Result<Indexed, EngineError> {
    if cache.no_cache {
        return Err(EngineError::invalid_with_hint(
            "`index` keeps an index, and --no-cache says not to",
            "drop --no-cache, or set FINDBENCH_CACHE to choose where the index is kept",
        ));
    }
    findbench_eval::call::check_root(&args.root, "pass a directory: findbench index DIR")?;
    let profile = Profile::resolve(&args.profile.profile)?;
    let (indexed, stats) = Tree::index_for_statistics(&args.root, &cache.tree_options())?;
    if let Some(why) = &stats.write_error {
        return Err(EngineError::File {
            path: stats.cache_path.clone(),
            message: format!("cannot write the index: {why}"),
            hint: Some("set FINDBENCH_CACHE to a writable directory".into()),
        });
    }
    // the ranking statistics too, so that the first word-ranked question is warm
    let ranking_kept = findbench_engine::retrieval::keep_index_statistics(&indexed, &profile);
    // built: a call that started this build in the background may start another later
    let _ = std::fs::remove_file(findbench_engine::tree::building_marker(&stats.cache_path));
    Ok(Indexed {
        stats,
        ranking_kept,
    })
}

/// The text form: what was done, where the index is, and what it holds.
fn render(indexed: &Indexed, quiet: bool) -> String {
    let stats = &indexed.stats;
    let state = match stats.state {
        findbench_engine::tree::IndexState::Built => "built",
        findbench_engine::tree::IndexState::Refreshed => "refreshed",
        findbench_engine::tree::IndexState::Unchanged => "unchanged",
        findbench_engine::tree::IndexState::Edited => "edited",
        findbench_engine::tree::IndexState::ChangesKept => "changes kept",
    };
    let mut out = format!(
        "{state} {} ({} files, {} read, {:.0} ms)\n",
        stats.root.display(),
        stats.files,
        stats.files_read,
        stats.duration_ms
    );
    if quiet {
        return out;
    }
    if let Some(why) = &stats.rebuilt_because {
        out.push_str(&format!("  rebuilt because: {why}\n"));
    }
    let walk = &stats.report;
    out.push_str(&format!(
        "  index    {} ({})\n  files    {} text, {} binary, {} over the size limit, {} unreadable; {} walk errors\n  symbols  {}\n  words    {} distinct, posting lists {}\n",
        stats.cache_path.display(),
        bytes(stats.index_bytes),
        stats.text_files,
        walk.binary,
        walk.too_large,
        walk.unreadable,
        walk.errors,
        stats.symbols,
        stats.words,
        bytes(stats.postings_bytes as u64),
    ));
    out.push_str(if indexed.ranking_kept {
        "  ranking  statistics kept beside the index\n"
    } else {
        "  ranking  statistics not kept (a file changed in the last 2 s: built on each question until it is older)\n"
    });
    for message in &walk.messages {
        out.push_str(&format!("  walk error: {message}\n"));
    }
    out
}

fn bytes(n: u64) -> String {
    const KIB: f64 = 1024.0;
    let n = n as f64;
    if n >= KIB * KIB {
        format!("{:.1} MiB", n / (KIB * KIB))
    } else if n >= KIB {
        format!("{:.1} KiB", n / KIB)
    } else {
        format!("{n} B")
    }
}
