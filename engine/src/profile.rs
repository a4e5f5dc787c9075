//! Ranking profiles: every weight and rule the modes rank with, as data.
//!
//! A profile is serialisable, so a user can write one to JSON, change a weight, and run the
//! corpora with it to compare. [`Profile::default`] is today's ranking.

use crate::rank::TaskField;
use serde::{Deserialize, Serialize};

/// All tunable ranking data, one section per mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profile {
    /// Name shown in reports (`default`, `legacy`, or a user's own).
    pub name: String,
    pub task: TaskWeights,
    /// `find name`; not called `name`, which is the profile's own name above.
    pub name_filter: NameWeights,
    pub outline: OutlineWeights,
    pub code: CodeWeights,
    pub path: PathWeights,
    pub grep: GrepWeights,
    pub planner: PlannerRules,
    /// `ask` for a task rather than a symbol: ranking files by every word.
    pub task_ranking: TaskRankingWeights,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "default".into(),
            task: TaskWeights::default(),
            name_filter: NameWeights::default(),
            outline: OutlineWeights::default(),
            code: CodeWeights::default(),
            path: PathWeights::default(),
            grep: GrepWeights::default(),
            planner: PlannerRules::default(),
            task_ranking: TaskRankingWeights::default(),
        }
    }
}

/// Weights of `find task`.
///
/// A term's contribution is `field weight x match kind weight`; an item's raw score is the
/// mean over query terms. Items whose terms all match exactly (as substrings) are mapped into
/// the exact tier `[exact_floor, exact_floor + exact_span]`; items needing a typo for any term
/// into the lower typo tier, so a typo match never outranks an exact one. An exact full-title
/// match scores `exact_title`. An `--id` pattern alone scores `id_whole` for the whole id,
/// `id_number` for its whole number (`37` ~ `T037`), else `id_part_floor + id_part_span x`
/// the share of the id it covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaskWeights {
    pub title: f64,
    pub description: f64,
    pub labels: f64,
    pub notes: f64,
    /// The term is a whole word of the field.
    pub whole_word: f64,
    /// The term starts a word of the field.
    pub word_prefix: f64,
    /// The term occurs inside a word.
    pub mid_word: f64,
    /// The term is one edit away from a whole word.
    pub typo_word: f64,
    /// The term is one edit away from the start of a word.
    pub typo_prefix: f64,
    /// Shortest term (in characters) for which a typo is tolerated.
    pub min_typo_len: usize,
    pub exact_floor: f64,
    pub exact_span: f64,
    pub typo_floor: f64,
    pub typo_span: f64,
    /// Added in the exact tier when a multi-term query occurs verbatim in the title.
    pub phrase_bonus: f64,
    /// Highest score of the exact tier, phrase bonus included: below `exact_title`.
    pub exact_ceiling: f64,
    /// Score of a query equal to the whole title (folded, whitespace collapsed).
    pub exact_title: f64,
    pub id_whole: f64,
    pub id_number: f64,
    pub id_part_floor: f64,
    pub id_part_span: f64,
    /// `find task`'s default `--threshold` (outline has its own, `OutlineWeights::threshold`).
    pub threshold: f64,
}

impl Default for TaskWeights {
    fn default() -> Self {
        TaskWeights {
            title: 1.0,
            description: 0.55,
            labels: 0.45,
            notes: 0.4,
            whole_word: 1.0,
            word_prefix: 0.9,
            mid_word: 0.75,
            typo_word: 1.0,
            typo_prefix: 0.85,
            min_typo_len: 5,
            exact_floor: 0.5,
            exact_span: 0.44,
            typo_floor: 0.3,
            typo_span: 0.19,
            phrase_bonus: 0.05,
            exact_ceiling: 0.99,
            exact_title: 1.0,
            id_whole: 1.0,
            id_number: 0.99,
            id_part_floor: 0.5,
            id_part_span: 0.45,
            threshold: 0.3,
        }
    }
}

/// Weights and switches of `find code` (and of `grep`'s pattern handling): the spec's
/// cascade. A file scores the highest step it reaches, plus the implementation boost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CodeWeights {
    /// The file stem equals the term (folded, or both CamelCase-normalised).
    pub exact_stem: f64,
    /// The same for a Rust, Python or TS/JS file (not `mod`, `lib`, `main`, `index`,
    /// `__init__`): the file is the module its stem names, so it defines the term, at the
    /// weight of a type definition.
    pub module_file: f64,
    /// A definition of a type (class, struct, enum, trait, interface, type alias) named
    /// exactly the term. Above `exact_stem + impl_boost`: the file that defines the symbol
    /// outranks one only named like it.
    pub symbol_type: f64,
    /// A function or method named exactly the term.
    pub symbol_function: f64,
    /// A namespace, module, macro or constant named exactly the term.
    pub symbol_other: f64,
    /// Subtracted from the three above when the line only declares the symbol (a
    /// prototype, a forward declaration, a trait method without a body, `mod name;`).
    pub symbol_declaration_penalty: f64,
    /// A definition of a member qualified by the term (`CommandRouter::route` for
    /// `CommandRouter`): where a declared type is implemented.
    pub symbol_member: f64,
    /// A declaration whose name contains the term.
    pub symbol_partial: f64,
    /// Every word of a multi-word term occurs in the stem.
    pub all_words: f64,
    /// The stem contains the term.
    pub partial_stem: f64,
    /// The directory part of the path contains the term.
    pub directory: f64,
    /// Added to a matching implementation file when the request asks for one (`--impl`).
    pub impl_boost: f64,
    /// Compare stems and symbols by their words (`CommandRouter` ~ `command_router`).
    pub camel_case: bool,
    /// Read `[ _-]?` in a term as a word separator; off, it is matched literally.
    pub separator_pattern: bool,
    /// Run the all-words step.
    pub word_match: bool,
    /// Run the symbol step.
    pub symbol_scan: bool,
    /// Extensions (folded, no dot) of implementation files.
    pub impl_extensions: Vec<String>,
    /// Subtracted from a file that is not the implementation (a test, an example or bench,
    /// a generated file), so it ranks below an implementation file of comparable match.
    /// 0 turns it off.
    pub test_penalty: f64,
    /// Directory names (any component of the path, compared folded) that hold tests.
    pub test_dirs: Vec<String>,
    /// File-name patterns of test files: `*` matches any run of characters, the rest is
    /// compared as written (case-sensitively, so `*Test.java` does not take `Latest.java`).
    pub test_names: Vec<String>,
    /// Directory names (compared folded) of examples and benchmarks.
    pub example_dirs: Vec<String>,
    /// Directory names (compared folded) of generated code.
    pub generated_dirs: Vec<String>,
    /// Folded phrases whose presence in a file's first `generated_header_bytes` marks it
    /// generated (`@generated`, `do not edit`).
    pub generated_markers: Vec<String>,
    pub generated_header_bytes: usize,
}

impl Default for CodeWeights {
    fn default() -> Self {
        CodeWeights {
            exact_stem: 20.0,
            module_file: 32.0,
            symbol_type: 32.0,
            symbol_function: 31.0,
            symbol_other: 30.0,
            symbol_declaration_penalty: 4.0,
            symbol_member: 30.0,
            symbol_partial: 15.0,
            all_words: 12.0,
            partial_stem: 10.0,
            directory: 5.0,
            // above the gap between a header's type definition and the implementation file
            // named for it (32 - 20): asked for the implementation, that file comes first
            impl_boost: 13.0,
            camel_case: true,
            separator_pattern: true,
            word_match: true,
            symbol_scan: true,
            impl_extensions: [
                "c", "cc", "cpp", "cxx", "c++", "rs", "py", "go", "ts", "tsx", "mts", "js", "jsx",
                "mjs", "cjs", "java", "kt", "swift", "rb", "cs", "scala", "zig",
            ]
            .map(String::from)
            .to_vec(),
            test_penalty: 6.0,
            test_dirs: ["test", "tests", "spec", "specs", "__tests__", "testdata"]
                .map(String::from)
                .to_vec(),
            test_names: [
                "*_test.*",
                "*_tests.*",
                "test_*.py",
                "*_spec.rb",
                "*.spec.*",
                "*.test.*",
                "*Test.java",
                "*Tests.java",
                "*Test.kt",
                "*Tests.cs",
            ]
            .map(String::from)
            .to_vec(),
            example_dirs: ["example", "examples", "bench", "benches", "benchmarks"]
                .map(String::from)
                .to_vec(),
            generated_dirs: ["generated", "autogenerated"].map(String::from).to_vec(),
            generated_markers: [
                "@generated",
                "do not edit",
                "automatically generated",
                "auto-generated",
                "autogenerated",
            ]
            .map(String::from)
            .to_vec(),
            generated_header_bytes: 1024,
        }
    }
}

impl CodeWeights {
    /// The spec's *before* state: the find handler most callers had, comparing the whole
    /// lowered term (separator pattern and all) with stems, with no CamelCase
    /// normalisation, no word-level match and no symbol scan; grep matched it literally.
    pub fn legacy() -> CodeWeights {
        CodeWeights {
            camel_case: false,
            separator_pattern: false,
            word_match: false,
            symbol_scan: false,
            module_file: 20.0,
            impl_boost: 8.0,
            // the spec's boost applied to `.cpp` files only
            impl_extensions: vec!["cpp".into()],
            // The test penalty is kept, although the spec's handler had none: its before
            // table records `src/services/replay_service.cpp` as the file selected for
            // "where is replay implemented". Without a penalty the test
            // `tests/replay_service_test.cpp` ties with it (partial stem + `.cpp` boost, 18)
            // and wins on this engine's deterministic tie-break (shorter path), a selection
            // the spec never saw: the handler's own tie order went unrecorded. With it, legacy
            // selects what the spec recorded. Legacy's failure clusters (cursor binary, cursor
            // bin, evidence gating) are unchanged: it finds nothing for them to penalise.
            ..CodeWeights::default()
        }
    }
}

/// Weights of `find path`: subsequence alignment scores.
///
/// Each matched character earns `match_char`, plus `boundary` at the start of the path or
/// after `/ _ - .` or a space, or `camel_hump` at a lower-to-upper hump, plus `filename`
/// inside the file name, plus `consecutive` when it directly follows the previous one; a gap
/// of `d` skipped characters costs `gap_open + min(gap * d, gap_max)`; every directory level costs
/// `depth`. The best alignment's score over the ideal one (a run at a boundary inside the
/// file name) maps true subsequence matches into `[0.5, 1]` and typo matches into
/// `[0, typo_ceiling]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PathWeights {
    pub match_char: f64,
    pub consecutive: f64,
    pub boundary: f64,
    pub camel_hump: f64,
    pub filename: f64,
    /// Cost of starting a gap (fewer, longer runs beat many scattered ones).
    pub gap_open: f64,
    pub gap: f64,
    pub gap_max: f64,
    pub depth: f64,
    /// Shortest query (in bytes) allowed one wrong, extra or swapped letter.
    pub min_typo_len: usize,
    /// Longest path (in bytes) aligned exactly; longer paths are scored on their tail.
    pub max_path_len: usize,
    /// Highest score of a typo match: below every true subsequence match (0.5 and up).
    pub typo_ceiling: f64,
}

impl Default for PathWeights {
    fn default() -> Self {
        PathWeights {
            match_char: 1.0,
            consecutive: 2.0,
            boundary: 3.0,
            camel_hump: 2.5,
            filename: 1.0,
            gap_open: 1.0,
            gap: 0.1,
            gap_max: 3.0,
            depth: 0.25,
            min_typo_len: 5,
            max_path_len: 1024,
            typo_ceiling: 0.49,
        }
    }
}

/// Weights of `grep`: files are ranked by the evidence their matches give.
///
/// A file's score is `tier x kind + declaration + path words + density x (matching lines /
/// lines)`: the
/// tier says how the term matched (the whole term, every word of it on one line, every word
/// somewhere in the file), the kind what the file is (source, docs, data such as corpora and
/// fixtures that quote questions), `declaration` is added when a matching line declares a
/// symbol named by the term, and path words when the file's stem or directory holds words
/// of the term. Ties: shorter path, then byte order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GrepWeights {
    /// Rank by evidence; off, by the number of matching lines alone (the spec's grep).
    pub evidence: bool,
    /// For a term of several words, also match files holding every word apart: on one
    /// line, or anywhere in the file (each word at the start of a word of the text).
    pub scattered_words: bool,
    /// A word of the term may end a longer word of the text before the next word
    /// (`trace[ _-]?replay` matches `traces replayed`), so planner stems match.
    pub word_continuation: bool,
    /// Tier weights.
    pub phrase: f64,
    pub same_line: f64,
    pub same_file: f64,
    /// Kind weights.
    pub source: f64,
    pub docs: f64,
    pub data: f64,
    pub other: f64,
    /// Added when a matching line is a declaration of a symbol named by the term.
    pub declaration: f64,
    /// Added to `declaration` when that line defines the symbol rather than only declaring
    /// it (no `;` at its end: a body follows, not a prototype or `mod x;`).
    pub definition: f64,
    /// Added to `declaration` when the symbol's name is the term itself, not a longer
    /// name holding its words.
    pub exact_name: f64,
    /// Added for each word of the term the file's stem holds, and for each word its
    /// directory holds: a hit in `profile.rs` for `ranking profile` is better evidence than
    /// the same hit elsewhere.
    pub stem_word: f64,
    pub directory_word: f64,
    /// Weight of the share of the file's lines that match.
    pub density: f64,
    /// Extensions (folded, no dot) of source files beyond the languages the tree scans.
    pub source_extensions: Vec<String>,
    pub docs_extensions: Vec<String>,
    pub data_extensions: Vec<String>,
}

impl Default for GrepWeights {
    fn default() -> Self {
        let list = |l: &[&str]| l.iter().map(|x| x.to_string()).collect();
        GrepWeights {
            evidence: true,
            scattered_words: true,
            word_continuation: true,
            phrase: 3.0,
            same_line: 2.0,
            same_file: 1.0,
            source: 3.0,
            docs: 1.5,
            data: 0.5,
            other: 1.0,
            declaration: 2.0,
            definition: 0.5,
            exact_name: 1.0,
            stem_word: 2.0,
            directory_word: 0.5,
            density: 0.25,
            source_extensions: list(&[
                "sh", "bash", "zsh", "fish", "ps1", "rb", "kt", "kts", "swift", "cs", "scala",
                "zig", "lua", "php", "pl", "pm", "r", "jl", "ex", "exs", "erl", "hs", "ml", "clj",
                "dart", "m", "mm", "sql", "cmake", "vue", "svelte",
            ]),
            docs_extensions: list(&["md", "markdown", "rst", "txt", "adoc", "org", "tex", "html"]),
            data_extensions: list(&[
                "json", "jsonl", "ndjson", "yaml", "yml", "toml", "csv", "tsv", "xml", "lock",
                "ini", "cfg", "conf", "snap", "svg",
            ]),
        }
    }
}

impl GrepWeights {
    /// The spec's grep: the whole term only, ranked by matching lines.
    pub fn legacy() -> GrepWeights {
        GrepWeights {
            evidence: false,
            scattered_words: false,
            word_continuation: false,
            ..GrepWeights::default()
        }
    }
}

/// The rules `ask` plans a term with, and the budget of its cascade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlannerRules {
    /// Words that never become part of the term.
    pub stop_words: Vec<String>,
    /// Words that ask to locate something; dropped from the term.
    pub intent_words: Vec<String>,
    /// Words that ask for the implementation; dropped from the term, and set `impl`.
    pub impl_words: Vec<String>,
    /// Words that name the kind of file or declaration asked for (`script`, `doc`,
    /// `enum`): dropped from the term, unless nothing else is left to search for.
    pub noise_words: Vec<String>,
    /// Words after which the object of the question starts (`the`, `a`): an intent word
    /// after one is content (`where is the search index`).
    pub determiners: Vec<String>,
    /// Intent words are dropped only before the first content word or determiner, and
    /// only once each (`find find service` searches `find service`); off, every intent
    /// word is dropped wherever it is.
    pub leading_intent_only: bool,
    /// Reduce the term's plain words to their stems for the fallback steps
    /// (`replayed` -> `replay`).
    pub stemming: bool,
    /// When the whole term finds nothing, search its words one by one and rank the files
    /// that hold them all (and grep the words when they are not adjacent).
    pub word_fallback: bool,
    /// Endings of a last word that describes what happens to the subject rather than
    /// naming it (`rendered` in `how is the timeline rendered`): such a word ranks
    /// candidates but is not required of them.
    pub optional_suffixes: Vec<String>,
    /// Before searching, take the longest phrase of the question around the term that
    /// names a definition or a file of the tree exactly (`get used global args` for
    /// `get_used_global_args`, where `get` and `used` would be dropped as filler).
    pub subject_from_tree: bool,
    /// Words that phrase may take beyond the term on each side.
    pub subject_widen: usize,
    /// Tool calls (find, grep, read) the cascade may make before it gives up.
    pub max_iterations: usize,
    /// Candidates `read` tries, best first, before the cascade gives up.
    pub read_attempts: usize,
    /// A read is evidence only when the file has a line that mentions a word of the term
    /// (or the declaration `find` matched); off, any readable text is (the spec's read).
    pub read_requires_mention: bool,
    /// A file `find` matched by its exact stem (`runner.rs` for `runner`) is evidence even
    /// when its text never repeats its own name: the file is named for the term.
    pub exact_name_is_evidence: bool,
    /// Lines of evidence the answer quotes from the selected file.
    pub evidence_lines: usize,
    /// Distinct content words a plan keeps, in order of first appearance: a question with
    /// more (a whole issue pasted as a question) is planned from these, and its plan says
    /// so (`truncated`). 32 keeps every shipped question whole and `ask` on a 10,000-word
    /// question about as fast as on a short one (`benches/benches/ask_question.rs`).
    pub max_terms: usize,
    /// Bytes of a question the planner reads (cut back to a character and word
    /// boundary); the rest is ignored and the plan says so.
    pub max_question_bytes: usize,
}

impl PlannerRules {
    /// The spec's planner: every intent word dropped, no noise words, no stems, no
    /// fallback beyond grep of the whole term.
    pub fn legacy() -> PlannerRules {
        PlannerRules {
            noise_words: Vec::new(),
            determiners: Vec::new(),
            leading_intent_only: false,
            stemming: false,
            word_fallback: false,
            optional_suffixes: Vec::new(),
            subject_from_tree: false,
            ..PlannerRules::default()
        }
    }
}

impl Default for PlannerRules {
    fn default() -> Self {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect();
        PlannerRules {
            stop_words: words(&[
                "a",
                "an",
                "the",
                "is",
                "are",
                "was",
                "were",
                "be",
                "been",
                "do",
                "does",
                "did",
                "of",
                "for",
                "in",
                "on",
                "at",
                "to",
                "from",
                "by",
                "with",
                "and",
                "or",
                "it",
                "its",
                "this",
                "that",
                "these",
                "those",
                "there",
                "me",
                "my",
                "we",
                "our",
                "i",
                "you",
                "can",
                "could",
                "would",
                "should",
                "please",
                "how",
                "what",
                "which",
                "who",
                "why",
                "when",
                "code",
                "file",
                "files",
                "source",
                "logic",
                "configured",
                "set",
                "up",
                "used",
                "live",
                "lives",
                "kept",
                "stored",
                "happen",
                "happens",
                "done",
                "work",
                "works",
            ]),
            intent_words: words(&[
                "where", "find", "locate", "show", "open", "search", "look", "lookup", "get",
                "see", "read",
            ]),
            impl_words: words(&[
                "implemented",
                "implementation",
                "implement",
                "implements",
                "implementing",
                "defined",
                "definition",
                "declared",
                "handled",
                "built",
            ]),
            noise_words: words(&[
                "script",
                "scripts",
                "doc",
                "docs",
                "documentation",
                "enum",
                "struct",
                "class",
                "trait",
                "interface",
                "function",
                "method",
                "module",
                "constant",
                "macro",
                "declaration",
            ]),
            determiners: words(&[
                "the", "a", "an", "this", "that", "these", "those", "my", "our",
            ]),
            leading_intent_only: true,
            stemming: true,
            word_fallback: true,
            optional_suffixes: words(&["ed"]),
            subject_from_tree: true,
            subject_widen: 3,
            max_iterations: 6,
            read_attempts: 2,
            read_requires_mention: true,
            exact_name_is_evidence: true,
            evidence_lines: 5,
            max_terms: 32,
            max_question_bytes: 64 * 1024,
        }
    }
}

/// Weight and length normalisation (`b`, 0 none to 1 full) of one BM25F field.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldWeight {
    pub weight: f64,
    pub b: f64,
}

/// Ranking files by every word of a question (`crate::retrieval`): when `ask` is given a
/// task ("Exit immediately when Ctrl-C has been pressed twice") rather than a name.
///
/// A file scores BM25F over its fields, times the prior of its kind, times
/// `coverage_share ^ coverage` (the share of the question's terms it holds); the best
/// `rerank_depth` files are then multiplied by `1 + proximity x s`, `s` the share of the
/// other terms met on the file's best line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaskRankingWeights {
    /// Rank by every word when the cascade finds nothing, or when the question is a task.
    pub enabled: bool,
    /// A question with at least this many significant terms is a task: unless its whole
    /// term names a file or a declaration (`find`'s first step), its files are ranked by
    /// every word instead of the symbol cascade.
    pub min_task_terms: usize,
    /// BM25 term-frequency saturation.
    pub k1: f64,
    /// The words of the path (directories and file name, not the extension).
    pub path: FieldWeight,
    /// The names the file declares (every declaration of the languages the tree scans).
    pub symbols: FieldWeight,
    /// Comments, doc comments and string literals; all text of a file that is not source.
    pub prose: FieldWeight,
    /// Identifiers outside prose, split into words.
    pub code: FieldWeight,
    /// Priors by what the file is.
    pub source_prior: f64,
    pub test_prior: f64,
    pub docs_prior: f64,
    pub data_prior: f64,
    pub other_prior: f64,
    /// Exponent of the share of the question's terms a file holds.
    pub coverage: f64,
    /// Least share of the question's terms the tree must hold somewhere (rounded up, one
    /// term at least) for any file to be ranked: when most words of the question occur
    /// nowhere, the subject is absent and no file is evidence of it.
    pub min_coverage: f64,
    /// Least share of the question's terms one file must hold together (rounded up, one
    /// term at least) for any file to be ranked: words scattered one per file are not a
    /// subject the tree holds.
    pub min_joint_coverage: f64,
    /// Least share of its terms one file must hold together when a question that names one
    /// subject (fewer than `min_task_terms` words) is ranked after the cascade found nothing:
    /// 1.0, every word, so a file that shares one word with the subject is not an answer.
    pub subject_joint_coverage: f64,
    /// Weight of the share of the question's terms met on one line.
    pub proximity: f64,
    /// How many of the best files are read line by line for proximity and evidence.
    pub rerank_depth: usize,
    /// Function words (articles, pronouns, prepositions, conjunctions, auxiliaries) that
    /// never count as a word of the question.
    pub stop_words: Vec<String>,
}

impl TaskRankingWeights {
    /// The before state: no ranking by every word.
    pub fn legacy() -> TaskRankingWeights {
        TaskRankingWeights {
            enabled: false,
            ..TaskRankingWeights::default()
        }
    }

    /// The weights of one field.
    pub fn field(&self, field: crate::retrieval::fields::Field) -> &FieldWeight {
        use crate::retrieval::fields::Field;
        match field {
            Field::Path => &self.path,
            Field::Symbols => &self.symbols,
            Field::Prose => &self.prose,
            Field::Code => &self.code,
        }
    }
}

impl Default for TaskRankingWeights {
    fn default() -> Self {
        TaskRankingWeights {
            enabled: true,
            min_task_terms: 3,
            k1: 1.2,
            path: FieldWeight {
                weight: 3.0,
                b: 0.3,
            },
            symbols: FieldWeight {
                weight: 2.0,
                b: 0.5,
            },
            prose: FieldWeight {
                weight: 1.0,
                b: 0.5,
            },
            code: FieldWeight {
                weight: 1.0,
                b: 0.5,
            },
            source_prior: 1.0,
            test_prior: 0.4,
            docs_prior: 0.3,
            data_prior: 0.2,
            other_prior: 0.3,
            coverage: 1.0,
            min_coverage: 0.5,
            min_joint_coverage: 0.4,
            subject_joint_coverage: 1.0,
            proximity: 0.5,
            rerank_depth: 50,
            stop_words: [
                "a", "an", "the", "this", "that", "these", "those", "some", "any", "each", "every",
                "all", "both", "no", "not", "is", "are", "was", "were", "be", "been", "being",
                "am", "do", "does", "did", "has", "have", "had", "having", "will", "would",
                "shall", "should", "can", "could", "may", "might", "must", "of", "in", "on", "at",
                "to", "from", "by", "with", "without", "for", "into", "onto", "over", "under",
                "about", "as", "than", "then", "and", "or", "but", "nor", "if", "so", "it", "its",
                "they", "them", "their", "we", "our", "us", "you", "your", "he", "she", "his",
                "her", "me", "my", "which", "what", "who", "whom", "whose", "where", "when", "why",
                "how", "there", "here", "also", "just", "only", "very", "too",
            ]
            .map(String::from)
            .to_vec(),
        }
    }
}

/// Rules of `find name` (name-filter.md): rapidfuzz `partial_ratio` of the normalised query
/// against each folded title, 0-100.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NameWeights {
    /// A best score at or above this gives `fuzzy_match_quality: "good"` (the spec's 60).
    pub threshold: f64,
    /// Results returned when the request names no `--limit` (the spec's 5).
    pub limit: usize,
    /// Query tokens shorter than this many characters are dropped (`the`, `a`, `to`),
    /// unless no token is this long.
    pub min_token_chars: usize,
}

impl Default for NameWeights {
    fn default() -> Self {
        NameWeights {
            threshold: 60.0,
            limit: 5,
            min_token_chars: 3,
        }
    }
}

/// Rules of `find outline` (the map) and `get` (the zoom), map-and-zoom.md.
///
/// Outline matches with the same term matching as `find task`, with its own weights and
/// fields, because a node's notes are where an outline keeps its detail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutlineWeights {
    pub fields: Vec<TaskField>,
    pub matching: TaskWeights,
    pub threshold: f64,
    /// Matches returned when the request names no `--limit` (the spec's 10).
    pub limit: usize,
    /// `get --children` depth when none is given (the spec's 2).
    pub depth: usize,
    /// Deepest `--depth` accepted: the subtree is nested JSON, so its depth is bounded.
    pub max_depth: usize,
    /// Most subtree nodes one `get` returns; past it the response says `truncated`.
    pub max_children: usize,
    /// Closest ids suggested when `get` finds no item with the id asked for.
    pub suggestions: usize,
}

impl Default for OutlineWeights {
    fn default() -> Self {
        OutlineWeights {
            fields: vec![TaskField::Title, TaskField::Description, TaskField::Notes],
            matching: TaskWeights {
                notes: 0.5,
                ..TaskWeights::default()
            },
            threshold: 0.3,
            limit: 10,
            depth: 2,
            max_depth: 32,
            max_children: 1000,
            suggestions: 5,
        }
    }
}

impl Profile {
    /// The built-in profiles by name: `default` (today's ranking) and `legacy` (the code
    /// retrieval the spec started from, for before/after runs).
    pub fn builtin(name: &str) -> Option<Profile> {
        match name {
            "default" => Some(Profile::default()),
            "legacy" => Some(Profile {
                name: "legacy".into(),
                code: CodeWeights::legacy(),
                grep: GrepWeights::legacy(),
                planner: PlannerRules::legacy(),
                task_ranking: TaskRankingWeights::legacy(),
                ..Profile::default()
            }),
            _ => None,
        }
    }

    pub fn builtin_names() -> &'static [&'static str] {
        &["default", "legacy"]
    }

    /// A built-in profile by name, or a profile read from a JSON file (missing sections and
    /// fields take today's defaults).
    pub fn resolve(name_or_path: &str) -> crate::Result<Profile> {
        if let Some(p) = Profile::builtin(name_or_path) {
            return Ok(p);
        }
        let path = std::path::Path::new(name_or_path);
        if !name_or_path.ends_with(".json") && !path.is_file() {
            return Err(crate::EngineError::invalid_with_hint(
                format!("unknown profile `{name_or_path}`"),
                format!(
                    "built-in profiles are: {}; or pass a profile JSON file",
                    Profile::builtin_names().join(", ")
                ),
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| crate::EngineError::File {
            path: path.to_path_buf(),
            message: format!("cannot read profile: {e}"),
            hint: None,
        })?;
        serde_json::from_slice(&bytes).map_err(|e| crate::EngineError::Parse {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_differs_only_in_code_switches() {
        let legacy = Profile::builtin("legacy").unwrap();
        let today = Profile::default();
        assert_eq!(legacy.task, today.task);
        assert_eq!(legacy.path, today.path);
        assert_eq!(legacy.code.exact_stem, today.code.exact_stem);
        assert!(!legacy.code.camel_case && !legacy.code.symbol_scan);
        assert!(Profile::builtin("nope").is_none());
    }

    #[test]
    fn a_profile_round_trips_through_json_with_defaults() {
        let p: Profile =
            serde_json::from_str(r#"{"name":"mine","code":{"impl_boost":3}}"#).unwrap();
        assert_eq!(p.code.impl_boost, 3.0);
        assert_eq!(p.code.exact_stem, 20.0);
        assert_eq!(p.planner, PlannerRules::default());
    }
}
