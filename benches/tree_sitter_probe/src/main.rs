//! tree-sitter-probe: walks a tree as findbench does (`engine/src/tree/walk.rs`: .gitignore
//! inside the root, hidden skipped, files over 1 MiB or with a NUL in the first 8 KiB
//! skipped), parses each source file of 15 languages with tree-sitter and runs its tags
//! query. Prints one JSON summary line to stderr; with `--dump`, every definition as a JSON
//! line on stdout (path, line, name, kind, lang) for `benches/symbol_recall.sh`.
//!
//! Usage: tree-sitter-probe ROOT [--mode parse|tags|defs] [--queries shipped|extended]
//!                          [--threads N] [--dump]
//!   parse  parse only (no query)
//!   tags   the tags queries as shipped (definitions and references, as code navigation runs them)
//!   defs   the same queries with reference-only patterns disabled (what an index needs); default
//!   --queries extended  adds `queries/extra/*.scm` to the shipped queries

mod languages;

use ignore::{WalkBuilder, WalkState};
use languages::{Lang, ALL};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;
use tree_sitter::Parser;
use tree_sitter_tags::{TagsConfiguration, TagsContext};

const MAX_FILE_BYTES: u64 = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Parse,
    Tags,
    Defs,
}

struct Args {
    root: String,
    mode: Mode,
    threads: usize,
    dump: bool,
    extended: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut root = None;
    let mut mode = Mode::Defs;
    let mut threads = 2;
    let mut dump = false;
    let mut extended = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--mode" => {
                mode = match args.next().as_deref() {
                    Some("parse") => Mode::Parse,
                    Some("tags") => Mode::Tags,
                    Some("defs") => Mode::Defs,
                    other => return Err(format!("--mode: parse, tags or defs, not {other:?}")),
                }
            }
            "--threads" => {
                threads = args
                    .next()
                    .and_then(|t| t.parse().ok())
                    .ok_or("--threads needs a number")?
            }
            "--dump" => dump = true,
            "--queries" => {
                extended = match args.next().as_deref() {
                    Some("shipped") => false,
                    Some("extended") => true,
                    other => return Err(format!("--queries: shipped or extended, not {other:?}")),
                }
            }
            _ if root.is_none() && !arg.starts_with("--") => root = Some(arg),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    Ok(Args {
        root: root.ok_or(
            "usage: tree-sitter-probe ROOT [--mode parse|tags|defs] [--queries shipped|extended] [--threads N] [--dump]",
        )?,
        mode,
        threads,
        dump,
        extended,
    })
}

/// What one worker thread counted.
#[derive(Default)]
struct Counts {
    files: u64,
    source_files: u64,
    source_bytes: u64,
    definitions: u64,
    references: u64,
    parse_errors: u64,
    per_lang: BTreeMap<&'static str, (u64, u64)>,
    dump: Vec<String>,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.files += other.files;
        self.source_files += other.source_files;
        self.source_bytes += other.source_bytes;
        self.definitions += other.definitions;
        self.references += other.references;
        self.parse_errors += other.parse_errors;
        for (lang, (files, defs)) in other.per_lang {
            let entry = self.per_lang.entry(lang).or_default();
            entry.0 += files;
            entry.1 += defs;
        }
        self.dump.extend(other.dump);
    }
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("tree-sitter-probe: {message}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    // Compiled on first use, as an index would: a tree holds few of the 16 grammars, and
    // compiling all the queries costs more than indexing a small project.
    let configs = Configs::new(args.mode == Mode::Defs, args.extended);
    let root = Path::new(&args.root);
    let total = Mutex::new(Counts::default());
    WalkBuilder::new(root)
        .hidden(true)
        .follow_links(true)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .git_global(false)
        .parents(false)
        .require_git(false)
        .threads(args.threads)
        .build_parallel()
        .run(|| {
            let mut worker = Worker {
                mode: args.mode,
                dump: args.dump,
                root,
                configs: &configs,
                tags: TagsContext::new(),
                parser: Parser::new(),
                counts: Counts::default(),
                total: &total,
            };
            Box::new(move |entry| {
                if let Ok(entry) = entry {
                    if entry.file_type().is_some_and(|t| t.is_file()) {
                        worker.file(entry.path());
                    }
                }
                WalkState::Continue
            })
        });
    let mut total = total.into_inner().unwrap();
    let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    if args.dump {
        total.dump.sort();
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for line in &total.dump {
            use std::io::Write;
            let _ = writeln!(out, "{line}");
        }
    }
    let per_lang: serde_json::Map<String, serde_json::Value> = total
        .per_lang
        .iter()
        .map(|(lang, (files, defs))| {
            (
                lang.to_string(),
                serde_json::json!({"files": files, "definitions": defs}),
            )
        })
        .collect();
    eprintln!(
        "{}",
        serde_json::json!({
            "root": args.root,
            "mode": match args.mode { Mode::Parse => "parse", Mode::Tags => "tags", Mode::Defs => "defs" },
            "threads": args.threads,
            "queries": if args.extended { "extended" } else { "shipped" },
            "files_walked": total.files,
            "source_files": total.source_files,
            "source_bytes": total.source_bytes,
            "definitions": total.definitions,
            "references": total.references,
            "files_with_parse_errors": total.parse_errors,
            "query_compile_ms": configs.compile_ms(),
            "elapsed_ms": (elapsed_ms * 10.0).round() / 10.0,
            "per_language": per_lang,
        })
    );
}

/// One walker thread: its own parser and tags context, its counts handed over on drop.
struct Worker<'a> {
    mode: Mode,
    dump: bool,
    root: &'a Path,
    configs: &'a Configs,
    tags: TagsContext,
    parser: Parser,
    counts: Counts,
    total: &'a Mutex<Counts>,
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        let counts = std::mem::take(&mut self.counts);
        self.total.lock().unwrap().add(counts);
    }
}

impl Worker<'_> {
    fn file(&mut self, path: &Path) {
        self.counts.files += 1;
        let Some(lang) = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Lang::from_extension)
        else {
            return;
        };
        let Ok(meta) = std::fs::metadata(path) else {
            return;
        };
        if meta.len() > MAX_FILE_BYTES {
            return;
        }
        let Ok(source) = std::fs::read(path) else {
            return;
        };
        if memchr_nul(&source[..source.len().min(8192)]) {
            return;
        }
        self.counts.source_files += 1;
        self.counts.source_bytes += source.len() as u64;
        let mut definitions = 0u64;
        match self.mode {
            Mode::Parse => {
                self.parser
                    .set_language(&lang.language())
                    .expect("grammar ABI");
                if let Some(tree) = self.parser.parse(&source, None) {
                    if tree.root_node().has_error() {
                        self.counts.parse_errors += 1;
                    }
                }
            }
            Mode::Tags | Mode::Defs => {
                let config = self.configs.get(lang);
                let Ok((tags, has_error)) = self.tags.generate_tags(config, &source, None) else {
                    return;
                };
                if has_error {
                    self.counts.parse_errors += 1;
                }
                for tag in tags.flatten() {
                    if !tag.is_definition {
                        self.counts.references += 1;
                        continue;
                    }
                    definitions += 1;
                    if self.dump {
                        let rel = path.strip_prefix(self.root).unwrap_or(path);
                        let name = String::from_utf8_lossy(&source[tag.name_range.clone()]);
                        self.counts.dump.push(
                            serde_json::json!({
                                "path": rel.to_string_lossy(),
                                "line": tag.span.start.row + 1,
                                "name": name,
                                "kind": config.syntax_type_name(tag.syntax_type_id),
                                "lang": lang.name(),
                            })
                            .to_string(),
                        );
                    }
                }
            }
        }
        self.counts.definitions += definitions;
        let entry = self.counts.per_lang.entry(lang.name()).or_default();
        entry.0 += 1;
        entry.1 += definitions;
    }
}

fn memchr_nul(bytes: &[u8]) -> bool {
    bytes.contains(&0)
}

/// Each language's tags configuration, compiled by the first file that needs it.
struct Configs {
    definitions_only: bool,
    extended: bool,
    compiled: Vec<OnceLock<(TagsConfiguration, f64)>>,
}

impl Configs {
    fn new(definitions_only: bool, extended: bool) -> Configs {
        Configs {
            definitions_only,
            extended,
            compiled: ALL.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    fn get(&self, lang: Lang) -> &TagsConfiguration {
        let slot = ALL
            .iter()
            .position(|l| *l == lang)
            .expect("every language is in ALL");
        &self.compiled[slot]
            .get_or_init(|| {
                let started = Instant::now();
                match lang.tags_configuration(self.definitions_only, self.extended) {
                    Ok(config) => (config, started.elapsed().as_secs_f64() * 1e3),
                    Err(message) => {
                        eprintln!("tree-sitter-probe: {message}");
                        std::process::exit(1);
                    }
                }
            })
            .0
    }

    /// Milliseconds spent compiling each language's query, for those compiled.
    fn compile_ms(&self) -> serde_json::Value {
        ALL.iter()
            .zip(&self.compiled)
            .filter_map(|(lang, slot)| {
                slot.get().map(|(_, ms)| {
                    (
                        lang.name().to_string(),
                        serde_json::json!((ms * 10.0).round() / 10.0),
                    )
                })
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    }
}
