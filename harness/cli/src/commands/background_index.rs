//! The kept index a first call leaves wanted, built by a process of its own
//! (`findbench index ROOT --background`) that outlives the call: the engine only says that
//! an index is wanted ([`findbench_engine::tree::IndexWanted`]); the command line decides.
//! `--no-background-index` (or `FINDBENCH_NO_BACKGROUND_INDEX=1`) turns it off, for a CI
//! job or a container that must leave no process behind; `--no-cache` never wants one.

use findbench_engine::tree::IndexWanted;
use std::path::Path;
use std::process::{Command, Stdio};

/// Starts the build of `wanted` with the binary `findbench` (this one): its own process
/// group, no terminal, output discarded, the lowest CPU priority (`index --background`),
/// unless another build of the root is under way. True when a build was started.
pub fn start(wanted: &IndexWanted, findbench: &Path) -> bool {
    let Some(claim) = wanted.claim() else {
        return false;
    };
    let mut command = Command::new(findbench);
    command
        .arg("index")
        .arg(&wanted.root)
        .args(["--format", "json", "--background"])
        .env("FINDBENCH_CACHE", &wanted.cache_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    match command.spawn() {
        Ok(_) => true,
        Err(_) => {
            claim.release();
            false
        }
    }
}
