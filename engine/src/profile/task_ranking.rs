//! The section of ranking files by every word of a task: BM25F field weights, kind
//! priors, coverage and proximity.

use super::range::{fixed, integer, real, NotTunable, Tunable};
use serde::{Deserialize, Serialize};

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
    /// Weight of a term that comes from a code-shaped token of the question (an identifier
    /// in any case style, backticked code, a path or file name, `file.py:123`, a flag, a
    /// quoted message, a `scope:` prefix) relative to a prose word: its idf is multiplied
    /// by it (`retrieval/code_tokens.rs`). 1.0 weighs both alike: the default, since on
    /// projects held out of its making a higher weight alone gained nothing
    /// (`benches/RESULTS.md`, the signals of task localisation).
    pub code_tokens: f64,
    /// Factor of a built copy among the best files: a file with a source map beside it, a
    /// source map of a file of the tree, or a minified file (`retrieval/built_copy.rs`).
    /// 1.0 ranks a copy as its sources.
    pub built_copy: f64,
    /// Mean bytes per line of a file's first bytes from which it is minified.
    pub minified_line_bytes: usize,
    /// Share of a test file's score given to the file it tests (the source file its name
    /// names, nearest to it in the tree; `retrieval/tested_subject.rs`). 0 gives none.
    pub tested_subject: f64,
    /// Weight of the scope that opens a subject (`printer: ...`, `fix(helpers/url): ...`):
    /// a file whose path names every part of it, in order, has its score multiplied by
    /// `1 + subject_scope` (`retrieval/subject_scope.rs`). 0 weighs none; the default 1.0
    /// is the training projects' best of 0.5 to 4, held out in `benches/RESULTS.md` (a
    /// subject's scope and the names it quotes).
    pub subject_scope: f64,
    /// Weight of how often a ranked file changed before the revision asked about, where
    /// the tree's caller gave it the history (a git work tree, a `{git, rev}` fixture):
    /// its score is multiplied by `1 + history x ln(1 + c) / ln(1 + m)`, `c` the commits that
    /// changed it, `m` the most any file changed (`retrieval/history.rs`). 0 weighs none:
    /// the default, since on projects held out of its choice the weight `tune` chose lost
    /// (`benches/RESULTS.md`, the history of a task's files). With `co_change` also 0, the
    /// command line and the MCP server read no history.
    pub history: f64,
    /// How many commits before the revision asked about the history holds: the newest,
    /// merges left out.
    pub history_commits: usize,
    /// Share of the score of a best file by the question's words given to a ranked file
    /// that changed with it, times the share of its commits that changed both (the most
    /// of the `co_change_files` best; `retrieval/history.rs`). 0 gives none: the default,
    /// for the reason `history` is 0.
    pub co_change: f64,
    /// How many of the files an `insufficient_evidence` answer lists are the source files
    /// that changed most in the newest `history_commits` commits (sweeps left out), where
    /// the tree has a history: after the best `limit - history_listed` by the question's
    /// words, and wherever those are fewer (`retrieval/history.rs`, `most_changed`). A
    /// task whose words are not evidence of a file ("Fix a typo", "small refactor") most
    /// often changes a file that changed lately. 0 lists none; the command line and the
    /// MCP server read the history only when an answer lists them. The default 3 is the
    /// training projects' best of 1 to 4 (`benches/RESULTS.md`, the files that changed
    /// lately).
    pub history_listed: usize,
    /// How many commits old a change is when it counts half as much as one in the newest
    /// commit, in what `history_listed` ranks by: each commit weighs `0.5 ^ (age /
    /// half_life)`. 1.0, the default (the training projects' best of 0 to 100, with 0.5 to
    /// 5 alike), puts the files of the last few commits first, which is where work is going
    /// on; 0 counts every commit alike.
    pub history_listed_half_life: f64,
    /// How many of the places an answer *with* evidence leaves free (its files found are
    /// fewer than `limit`) go to the source files that changed most, ranked as for
    /// `history_listed`, where the tree has a history (`modes/ask/most_changed.rs`). A
    /// question that names a subject held by one or two files ("Fix the docs", "remove
    /// whitespace") often changes a file beside them that changed lately. 0 lists none; 1
    /// to 5 tie on the training projects, 3 (as `history_listed`) is the default
    /// (`benches/RESULTS.md`, the free places of an answer with evidence).
    pub history_filled: usize,
    /// How many of the best files by the question's words lift the files that changed
    /// with them.
    pub co_change_files: usize,
    /// A commit that changed more files than this is a sweep (a rename, a reformat, a
    /// licence header), which says nothing of which files change together: not counted
    /// for `co_change`.
    pub co_change_max_commit_files: usize,
    /// Weight of defining a name the question quotes (a code-shaped identifier of it:
    /// `parseNumber()`, `max_depth`, `` `Walk::new` ``): a file among the best
    /// `rerank_depth` that defines `k` of the `n` names some of them define has its score
    /// multiplied by `1 + defines_named x k / n` (`retrieval/references.rs`; a declaration
    /// without a body, or a test, does not define). 0 weighs none. The default 0.5 gained
    /// on five samples of projects held out of its choice, read from the question as written
    /// (`benches/RESULTS.md`, a subject's scope and the names it quotes).
    pub defines_named: f64,
    /// Share of the best score by the words a file the question names gets at least: by
    /// its path or file name (`licenses.go`, `src/walk.rs:120`), or for a name it quotes,
    /// its file name the name in any case style (`HttpException.java`, `json_null.py` for
    /// `JsonNull`), defining it, a source file (`retrieval/named_files.rs`). A task about a
    /// class changes the file that holds it, though its other words rank the files that
    /// use it above. 0 raises none; the
    /// default 1.0 (it ties the best, and comes first by its shorter path or later lifts)
    /// is the training projects' best, with 0.75 and 1.5 alike and 0.5 below at hit@1
    /// (`benches/RESULTS.md`, the file named for a quoted name).
    pub named_file: f64,
    /// Share of the score of one of the best `uses_defined_files` given to a file among the
    /// best `rerank_depth` that uses (writes as an identifier) the names it defines, times
    /// the share of those names it uses: the names counted are those holding a word of the
    /// question (`retrieval/references.rs`). 0 gives none.
    pub uses_defined: f64,
    /// How many of the best files lend the names whose users `uses_defined` lifts.
    pub uses_defined_files: usize,
    /// Weight of how many of the other best `rerank_depth` files write the names a file
    /// defines that hold a word of the question (its in-degree among them): its score is
    /// multiplied by `1 + referenced x ln(1 + r) / ln(d)`, `r` those files, `d` the best
    /// files counted (`retrieval/references.rs`). 0 weighs none.
    pub referenced: f64,
    /// How many files the average field lengths of BM25F are measured on: every file of a
    /// tree of at most this many, else this many chosen by a hash of their paths (the same
    /// files for the same tree, whichever call measures them). A question asked on a tree
    /// never indexed then reads these files and those holding its words, not every file.
    /// A text field's average is their length per byte of text times every file's mean
    /// (`retrieval/length_sample.rs`): from 256 files, as precise as the plain mean of 512.
    pub length_sample: usize,
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
}

impl TaskRankingWeights {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[
        integer("min_task_terms", 2.0, 6.0),
        real("k1", 0.1, 3.0),
        real("path.weight", 0.0, 8.0),
        real("path.b", 0.0, 1.0),
        real("symbols.weight", 0.0, 8.0),
        real("symbols.b", 0.0, 1.0),
        real("prose.weight", 0.0, 8.0),
        real("prose.b", 0.0, 1.0),
        real("code.weight", 0.0, 8.0),
        real("code.b", 0.0, 1.0),
        real("source_prior", 0.0, 2.0),
        real("test_prior", 0.0, 2.0),
        real("docs_prior", 0.0, 2.0),
        real("data_prior", 0.0, 2.0),
        real("other_prior", 0.0, 2.0),
        real("coverage", 0.0, 4.0),
        real("min_coverage", 0.0, 1.0),
        real("min_joint_coverage", 0.0, 1.0),
        real("subject_joint_coverage", 0.0, 1.0),
        real("proximity", 0.0, 3.0),
        integer("rerank_depth", 5.0, 200.0),
        real("code_tokens", 0.5, 6.0),
        real("built_copy", 0.0, 1.0),
        real("tested_subject", 0.0, 2.0),
        real("subject_scope", 0.0, 4.0),
        real("history", 0.0, 2.0),
        real("co_change", 0.0, 1.0),
        integer("co_change_files", 1.0, 5.0),
        integer("history_listed", 0.0, 5.0),
        real("history_listed_half_life", 0.0, 100.0),
        integer("history_filled", 0.0, 5.0),
        real("defines_named", 0.0, 2.0),
        real("named_file", 0.0, 1.5),
        real("uses_defined", 0.0, 1.0),
        integer("uses_defined_files", 1.0, 5.0),
        real("referenced", 0.0, 2.0),
    ];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[
        fixed(
            "length_sample",
            "how precisely the average field lengths are measured; a tree keeps the \
             statistics of the first profile that asks, so a change is not seen by a run",
        ),
        fixed(
            "history_commits",
            "a bound on the work of reading a repository's history, which the caller does \
             once per tree before any profile ranks",
        ),
        fixed(
            "co_change_max_commit_files",
            "what a sweep is, a commit too broad to say which files change together: \
             not a weight",
        ),
        fixed(
            "minified_line_bytes",
            "what a minified file is, measured on its text: not a weight",
        ),
    ];
}

impl Default for TaskRankingWeights {
    fn default() -> Self {
        TaskRankingWeights {
            enabled: true,
            min_task_terms: 3,
            // k1, the field weights and b, and source_prior are `findbench tune`'s on the
            // commit subjects and symbols of five projects, held out on five others
            // (docs/tuning.md, "The shipped default")
            k1: 3.0,
            path: FieldWeight {
                weight: 5.0,
                b: 0.3,
            },
            symbols: FieldWeight {
                weight: 8.0,
                b: 0.25,
            },
            prose: FieldWeight {
                weight: 1.0,
                b: 1.0,
            },
            code: FieldWeight {
                weight: 1.0,
                b: 0.0,
            },
            source_prior: 2.0,
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
            code_tokens: 1.0,
            built_copy: 0.2,
            minified_line_bytes: 250,
            tested_subject: 0.5,
            subject_scope: 1.0,
            history: 0.0,
            history_commits: 1000,
            co_change: 0.0,
            co_change_files: 3,
            history_listed: 3,
            history_listed_half_life: 1.0,
            history_filled: 3,
            co_change_max_commit_files: 30,
            defines_named: 0.5,
            named_file: 1.0,
            uses_defined: 0.0,
            uses_defined_files: 3,
            referenced: 0.0,
            length_sample: 256,
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
