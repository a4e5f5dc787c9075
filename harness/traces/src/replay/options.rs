//! What a replay runs with ([`ReplayOptions`]) and a fixture loaded for it
//! ([`ReplayFixture`]): shared by the replay of an `ask` trace and of a recorded call.

use crate::trace::PathMap;
use findbench_engine::{Fixture, Profile, TreeOptions};
use std::path::PathBuf;

/// What a replay runs with.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// Fixture `x` of a trace is `fixtures_dir/x`.
    pub fixtures_dir: PathBuf,
    /// Replays every trace against this tree, whatever its `fixture`.
    pub root: Option<PathBuf>,
    /// `--map OLD=NEW`: a tree or repository a trace names under `OLD` is read under `NEW`
    /// (another checkout of the same repository).
    pub map: Vec<PathMap>,
    pub profile: Profile,
    pub explain: bool,
    /// Replays only traces whose normalised question is this (a cluster).
    pub query: Option<String>,
    /// `--shard K/N`: replay only the traces of this shard (by trace id).
    pub shard: Option<findbench_eval::shard::Shard>,
    /// Suite name of the cases in the reports.
    pub suite: String,
    /// How fixture trees are walked, and whether trees and stores go through the cache
    /// (`--no-cache`).
    pub tree: TreeOptions,
    /// A trace naming expected files passes only with one of them in findbench's top
    /// `hit_k` (`--hit-k`, 5 by default).
    pub hit_k: usize,
    /// Count each search as a case in the pass rate (`--per-search`); by default the
    /// searches of one user question count once.
    pub per_search: bool,
}

impl ReplayOptions {
    /// `replay`'s defaults: fixtures under `fixtures_dir`, the default profile, hit@5, the
    /// searches of a question counted once, suite `replay`.
    pub fn new(fixtures_dir: PathBuf) -> ReplayOptions {
        ReplayOptions {
            fixtures_dir,
            root: None,
            map: Vec::new(),
            profile: Profile::default(),
            explain: false,
            query: None,
            shard: None,
            suite: "replay".into(),
            tree: TreeOptions::default(),
            hit_k: 5,
            per_search: false,
        }
    }
}

/// A fixture loaded for replay, with the sizes every case reports (computed once).
#[derive(Clone)]
pub struct ReplayFixture {
    /// This load among the replay's: answers are reused per fixture (`replay/memo.rs`).
    pub id: u64,
    pub fixture: Fixture,
    pub items: usize,
    pub dump_bytes: u64,
}

impl ReplayFixture {
    pub fn new(fixture: Fixture) -> ReplayFixture {
        static LOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        ReplayFixture {
            id: LOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            items: fixture.item_count(),
            dump_bytes: fixture.dump_bytes() as u64,
            fixture,
        }
    }
}
