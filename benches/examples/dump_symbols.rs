//! Prints the declarations findbench's own scanners (`engine/src/tree/symbols.rs`) find in a
//! tree, one JSON line per symbol, for `benches/symbol_recall.sh`; and, with `--time`, how
//! long the scanners alone take over the tree's text (the part of an index build that a
//! tree-sitter reader would replace), to compare with `benches/tree_sitter_probe`.
//!
//! Usage: dump_symbols ROOT [--time]
//!   symbols: {"path","line","name","kind","lang","definition"} on stdout, sorted by path
//!   --time:  one JSON line on stderr: files, bytes, symbols, load_ms (walk + read + every
//!            index structure, no cache), scan_ms (scan_file over every source file's text,
//!            one thread) and scan_cpu_ms (the same pass's time on the CPU, from Linux's
//!            /proc/thread-self/schedstat: on a shared machine the wall time also counts
//!            the time other processes held the core); names_cpu_ms: the CPU of the same
//!            pass asking a caller about every name and making no symbol (what the
//!            ranking's counting of a file's symbols field and a first call's scans for a
//!            key do: `scan_file_keeping`), with the names it was asked about

use findbench_engine::tree::symbols::{scan_file, scan_file_keeping};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (root, time) = match args.as_slice() {
        [root] => (root, false),
        [root, flag] if flag == "--time" => (root, true),
        _ => {
            eprintln!("usage: dump_symbols ROOT [--time]");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let tree = match findbench_benches::tree::in_memory(root) {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("dump_symbols: {root}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    if time {
        let (mut files, mut bytes, mut symbols) = (0u64, 0u64, 0u64);
        let cpu_before = thread_cpu_ns();
        let started = Instant::now();
        for file in tree.files() {
            if let (Some(lang), Some(text)) = (file.language, file.text()) {
                files += 1;
                bytes += text.len() as u64;
                symbols += scan_file(lang, text).len() as u64;
            }
        }
        let scan_ms = started.elapsed().as_secs_f64() * 1e3;
        let scan_cpu_ms = thread_cpu_ns()
            .zip(cpu_before)
            .map(|(after, before)| (after - before) as f64 / 1e6);
        let mut names = 0u64;
        let cpu_before = thread_cpu_ns();
        for file in tree.files() {
            if let (Some(lang), Some(text)) = (file.language, file.text()) {
                scan_file_keeping(lang, text, &mut |_| {
                    names += 1;
                    false
                });
            }
        }
        let names_cpu_ms = thread_cpu_ns()
            .zip(cpu_before)
            .map(|(after, before)| (after - before) as f64 / 1e6);
        eprintln!(
            "{}",
            serde_json::json!({
                "root": root,
                "tree_files": tree.len(),
                "source_files": files,
                "source_bytes": bytes,
                "symbols": symbols,
                "load_ms": (load_ms * 10.0).round() / 10.0,
                "scan_ms": (scan_ms * 10.0).round() / 10.0,
                "scan_cpu_ms": scan_cpu_ms.map(|ms| (ms * 10.0).round() / 10.0),
                "names": names,
                "names_cpu_ms": names_cpu_ms.map(|ms| (ms * 10.0).round() / 10.0),
            })
        );
        return ExitCode::SUCCESS;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut files: Vec<_> = tree.files().iter().collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    for file in files {
        let Some(lang) = file.language else { continue };
        for symbol in file.symbols() {
            let line = serde_json::json!({
                "path": file.path,
                "line": symbol.line,
                "name": symbol.name,
                "kind": symbol.kind.as_str(),
                "lang": lang,
                "definition": symbol.definition,
            });
            if writeln!(out, "{line}").is_err() {
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Nanoseconds this thread has run on a CPU (Linux); `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
