//! Computes the fingerprint of the engine's sources: a kept tree index or kept ranking
//! statistics written by a build whose sources differ are rebuilt, never trusted. Every
//! source file under `src/` counts except test modules (`tests.rs`, `tests/`), so that a
//! file that shapes an index cannot be left out of a list by hand
//! (`src/sources_fingerprint.rs` holds the list equal to the tree's).

use std::path::{Path, PathBuf};

fn main() {
    // read when the script runs, not baked in when it is compiled: a target directory
    // shared by two checkouts runs one compiled script for both
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let src = Path::new(&manifest).join("src");
    println!("cargo:rerun-if-changed=src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    let mut relative: Vec<String> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).expect("under src");
            rel.to_string_lossy().replace('\\', "/")
        })
        .collect();
    relative.sort();
    let mut hash = OFFSET;
    for rel in &relative {
        let bytes = std::fs::read(src.join(rel)).expect("a source file is readable");
        hash = part(hash, rel.as_bytes());
        hash = part(hash, &bytes);
    }
    let list: String = relative.iter().map(|r| format!("    {r:?},\n")).collect();
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("sources_fingerprint.rs");
    std::fs::write(
        out,
        format!(
            "/// FNV-1a of every fingerprinted source's path and bytes, in path order.\n\
             pub const SOURCES_FINGERPRINT: u64 = {hash:#018x};\n\
             /// The fingerprinted sources, relative to `engine/src`, in path order.\n\
             #[cfg(test)]\n\
             pub const FINGERPRINTED_SOURCES: &[&str] = &[\n{list}];\n"
        ),
    )
    .expect("OUT_DIR is writable");
}

/// Every `.rs` file under `dir` but test modules.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                collect(&path, files);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            files.push(path);
        }
    }
}

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a over one part, then a separator byte (as `src/encoding/fnv.rs`'s `fnv` does), so
/// that parts cannot run into each other.
fn part(hash: u64, bytes: &[u8]) -> u64 {
    let h = bytes
        .iter()
        .fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME));
    (h ^ 0xff).wrapping_mul(PRIME)
}
