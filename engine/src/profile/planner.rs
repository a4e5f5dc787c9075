//! The section of `ask`'s planner: the word lists a question's term is planned with, and
//! the budget of its cascade.

use super::calibration::Calibration;
use super::range::{fixed, integer, real, NotTunable, Tunable};
use serde::{Deserialize, Serialize};

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
    /// A task (`task_ranking.min_task_terms` significant words) whose phrase named
    /// something of the tree (`for file` of "... check for file existence in AWS S3" names
    /// `forFile`) and whose files read held too little of the question is ranked by every
    /// word after all: a name two of its words happen to make is not what it is about.
    pub task_after_subject: bool,
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
    /// The held share a read's evidence must reach to answer `success`: the share of the
    /// question's terms, weighed by their inverse document frequency, the file holds as
    /// words or identifier parts (`modes/ask/confidence.rs`); a file below it is not the
    /// answer, and when no file read reaches it the outcome is `insufficient_evidence`.
    /// (Read from a profile under its former name `min_confidence` too.)
    #[serde(alias = "min_confidence")]
    pub min_held_share: f64,
    /// How an answer's held share becomes its `confidence`, the chance it is right
    /// (`profile/calibration.rs`): fitted on answered questions, not searched by `tune`.
    pub calibration: Calibration,
    /// The fewest letters a word of the question must have to be held by a part or an
    /// identifier it begins (`bin` of `cursor_binary`, `replayservice` of `ReplayService`)
    /// rather than only by a part made that word.
    pub evidence_min_prefix: usize,
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
            task_after_subject: false,
            min_held_share: 0.0,
            calibration: Calibration::default(),
            ..PlannerRules::default()
        }
    }
}

impl PlannerRules {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[
        integer("subject_widen", 0.0, 6.0),
        real("min_held_share", 0.0, 1.0),
        integer("evidence_min_prefix", 1.0, 8.0),
    ];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[
        fixed("max_iterations", BUDGET),
        fixed("read_attempts", BUDGET),
        fixed(
            "evidence_lines",
            "how many lines an answer quotes: its size, not its order",
        ),
        fixed(
            "max_terms",
            "a bound on the planning of a pasted issue, not a weight",
        ),
        fixed(
            "max_question_bytes",
            "a bound on the bytes of a question read, not a weight",
        ),
    ];
}

const BUDGET: &str =
    "the cascade's budget of calls: more finds as much or more, at a cost in time \
                      the objectives do not see";

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
            task_after_subject: true,
            max_iterations: 6,
            read_attempts: 2,
            read_requires_mention: true,
            exact_name_is_evidence: true,
            evidence_lines: 5,
            min_held_share: 0.5,
            calibration: Calibration::fitted(),
            evidence_min_prefix: 3,
            max_terms: 32,
            max_question_bytes: 64 * 1024,
        }
    }
}
