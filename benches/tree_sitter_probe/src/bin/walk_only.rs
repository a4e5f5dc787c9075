//! The probe without tree-sitter: the same walk and the same reads (source files of the
//! 15 languages by extension, at most 1 MiB, no NUL in the first 8 KiB), no parsing. Its
//! time is the floor under the probe's; its stripped size, set against the probe's, is what
//! tree-sitter and the 16 grammars add to a binary.
//!
//! Usage: walk_only ROOT [--threads N]

use ignore::{WalkBuilder, WalkState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "py", "pyi", "go", "java", "kt", "kts", "c", "h", "hh", "hpp", "hxx", "cc", "cpp", "cxx",
    "c++", "ipp", "inl", "cs", "js", "jsx", "mjs", "cjs", "ts", "mts", "cts", "tsx", "rb", "php",
    "swift", "scala", "sc", "sh", "bash",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (root, threads) = match args.as_slice() {
        [root] => (root.clone(), 2),
        [root, flag, n] if flag == "--threads" => (root.clone(), n.parse().unwrap_or(2)),
        _ => {
            eprintln!("usage: walk_only ROOT [--threads N]");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let (files, sources, bytes) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    WalkBuilder::new(&root)
        .hidden(true)
        .follow_links(true)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .git_global(false)
        .parents(false)
        .require_git(false)
        .threads(threads)
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                let Ok(entry) = entry else {
                    return WalkState::Continue;
                };
                if !entry.file_type().is_some_and(|t| t.is_file()) {
                    return WalkState::Continue;
                }
                files.fetch_add(1, Ordering::Relaxed);
                let path = entry.path();
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                if !SOURCE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) {
                    return WalkState::Continue;
                }
                if std::fs::metadata(path).map_or(true, |m| m.len() > 1 << 20) {
                    return WalkState::Continue;
                }
                if let Ok(source) = std::fs::read(path) {
                    if !source[..source.len().min(8192)].contains(&0) {
                        sources.fetch_add(1, Ordering::Relaxed);
                        bytes.fetch_add(source.len() as u64, Ordering::Relaxed);
                    }
                }
                WalkState::Continue
            })
        });
    eprintln!(
        "{}",
        serde_json::json!({
            "root": root,
            "files_walked": files.into_inner(),
            "source_files": sources.into_inner(),
            "source_bytes": bytes.into_inner(),
            "elapsed_ms": (started.elapsed().as_secs_f64() * 1e4).round() / 10.0,
        })
    );
}
