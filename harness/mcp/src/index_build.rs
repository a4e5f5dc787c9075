//! The kept index of a tree the server loaded without one, built in the server's own
//! process, on a thread of its own at the lowest CPU priority, and handed to the fixture
//! cache when done (`service.rs`). The server walks without following links, so the
//! index the command line's calls build (their walk follows them) is not one it reads:
//! without this build every `ask` on a root new to the server would be a first call (a
//! walk and a pass over the files), for the life of the server.

use findbench_engine::{EngineError, Profile, Tree, TreeOptions};
use rayon::ThreadPool;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Builds the kept index of `root` (written to the cache directory of `options`) and loads
/// the tree from it, on a thread of its own, then hands that tree to `swap`. When `swap`
/// took it, the default profile's ranking statistics are built for it next (kept beside
/// the index, and in memory for this tree), as `findbench index` leaves them: a ranked
/// question that comes meanwhile waits for them rather than building them a second time.
/// `None` when no thread could be started.
pub(crate) fn start(
    root: PathBuf,
    options: TreeOptions,
    swap: impl FnOnce(Result<Arc<Tree>, EngineError>) -> bool + Send + 'static,
) -> Option<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("findbench-index".into())
        .spawn(move || {
            lowest_priority();
            // a pool of its own: the global pool's threads answer calls at their normal
            // priority, this one's inherit the lowest from this thread
            let pool = rayon::ThreadPoolBuilder::new()
                .thread_name(|i| format!("findbench-index-{i}"))
                .build()
                .ok();
            let built = on(pool.as_ref(), || {
                Tree::index_and_load(&root, &options).map(|(tree, _)| Arc::new(tree))
            });
            let tree = built.as_ref().ok().cloned();
            if swap(built) {
                if let Some(tree) = tree {
                    // the statistics are kept in memory by the tree's address: this one's
                    on(pool.as_ref(), || {
                        findbench_engine::retrieval::warm_statistics(&tree, &Profile::default())
                    });
                }
            }
        })
        .ok()
}

/// `job` on `pool`, whose threads a parallel pass inside it uses; on this thread without one.
fn on<R: Send>(pool: Option<&ThreadPool>, job: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(pool) => pool.install(job),
        None => job(),
    }
}

/// Lowers the calling thread to the lowest CPU priority (nice 19): Linux sets a thread's
/// priority, and the threads it starts (the walk's, the pool's) inherit it.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes integer arguments only and touches no memory; on Linux,
    // `who` 0 is the calling thread
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}
