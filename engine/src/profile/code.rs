//! The section of `find code`: the cascade's step scores, symbol kinds, the implementation
//! boost and what makes a file a test, example, bench or generated.

use super::range::{fixed, real, NotTunable, Tunable};
use crate::tree::symbols::LANGUAGES;
use serde::{Deserialize, Serialize};

/// Weights and switches of `find code` (and of `grep`'s pattern handling): the spec's
/// cascade. A file scores the highest step it reaches, plus the implementation boost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CodeWeights {
    /// The file stem equals the term (folded, or both CamelCase-normalised): the file is
    /// named after it. Above every step where a file only mentions the term or its path
    /// merely holds it.
    pub exact_stem: f64,
    /// The same for a Rust, Python or TS/JS file (not `mod`, `lib`, `main`, `index`,
    /// `__init__`): the file is the module its stem names, so it defines the term, at the
    /// weight of a type definition.
    pub module_file: f64,
    /// A module file whose stem equals the term only once both are split into words
    /// (`is-network-error.ts` for `isNetworkError`): the term as written names an
    /// identifier, not the file, so a type or function defined with that exact name ranks
    /// above it; at the weight of the definitions of other kinds.
    pub module_file_normalised: f64,
    /// A definition of a type (class, struct, enum, trait, interface, type alias) named
    /// exactly the term. Above `exact_stem + impl_boost`: the file that defines the symbol
    /// outranks one only named like it.
    pub symbol_type: f64,
    /// A function or method named exactly the term.
    pub symbol_function: f64,
    /// A module, macro, constant or property named exactly the term.
    pub symbol_other: f64,
    /// A namespace (C++, C#, TypeScript) or Ruby module named exactly the term: a block any
    /// number of files may open, so the file mentions the name more than it defines it.
    /// Below `exact_stem` (the file named after the term), above the steps where only the
    /// path holds the term.
    pub symbol_namespace: f64,
    /// Subtracted from the three above when the line only declares the symbol (a
    /// prototype, a forward declaration, a trait method without a body, `mod name;`).
    pub symbol_declaration_penalty: f64,
    /// A definition of a member qualified by the term (`CommandRouter::route` for
    /// `CommandRouter`): where a declared type is implemented.
    pub symbol_member: f64,
    /// Added to a file that defines or declares the member a qualified term names and
    /// defines its owner too (`JsonReader.java` for `JsonReader.peek`; `modes/code/
    /// qualified.rs`): above the gap between a declaration and a definition of the member
    /// elsewhere (`symbol_declaration_penalty`) and between a type and a function, so
    /// that the owner's own member comes first.
    pub symbol_qualified: f64,
    /// A definition of the term's name inflected (`fixtures` for `fixture`, `load_files`
    /// for `load_file`): the same name, so above the steps where the path holds the term,
    /// below a file named after it.
    pub symbol_inflected: f64,
    /// A declaration whose name contains the term: the file mentions it. Below the steps
    /// where the path holds the term.
    pub symbol_partial: f64,
    /// Every word of a multi-word term occurs in the stem, not side by side: the path
    /// holds the words, below a stem that holds the term as written.
    pub all_words: f64,
    /// The stem contains the term: the path holds it.
    pub partial_stem: f64,
    /// The directory part of the path contains the term: the path holds it.
    pub directory: f64,
    /// Added to a matching implementation file when the request asks for one (`--impl`).
    pub impl_boost: f64,
    /// The implementation boost of a file whose best step is below `exact_stem` (its path
    /// only holds the term, or it only mentions it): small enough that every such step
    /// stays below a declaration (`symbol_namespace + impl_boost_weak` <
    /// `symbol_other - symbol_declaration_penalty`), so `--impl` orders these files among
    /// themselves but never puts one above a file, test or not, that defines or declares
    /// the term.
    pub impl_boost_weak: f64,
    /// Add the implementation boost to a test, example, bench or generated file too. Off,
    /// such a file is not where a thing is implemented, so `--impl` never lifts a test above
    /// the header of the same evidence.
    pub impl_boost_secondary: bool,
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
    /// a generated file): a tie-breaker, so it ranks below an implementation file of equal
    /// evidence, never below one of weaker evidence (it is smaller than the gap between any
    /// two steps, so an exact definition in a test still outranks a file that only mentions
    /// the term). 0 turns it off.
    pub test_penalty: f64,
    /// Directory names (any component of the path, compared folded) that hold tests; a
    /// component whose last word is one holds them too (`Newtonsoft.Json.Tests`, `commonTest`).
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

impl CodeWeights {
    /// The numbers `findbench tune` searches, with their ranges (`profile/tunable.rs`).
    pub const TUNABLE: &'static [Tunable] = &[
        real("exact_stem", 0.0, 64.0),
        real("module_file", 0.0, 64.0),
        real("module_file_normalised", 0.0, 64.0),
        real("symbol_type", 0.0, 64.0),
        real("symbol_function", 0.0, 64.0),
        real("symbol_other", 0.0, 64.0),
        real("symbol_namespace", 0.0, 64.0),
        real("symbol_declaration_penalty", 0.0, 16.0),
        real("symbol_member", 0.0, 64.0),
        real("symbol_qualified", 0.0, 32.0),
        real("symbol_inflected", 0.0, 64.0),
        real("symbol_partial", 0.0, 64.0),
        real("all_words", 0.0, 64.0),
        real("partial_stem", 0.0, 64.0),
        real("directory", 0.0, 64.0),
        real("impl_boost", 0.0, 32.0),
        real("impl_boost_weak", 0.0, 16.0),
        real("test_penalty", 0.0, 8.0),
    ];
    /// The numbers it leaves as they are, and why.
    pub const NOT_TUNABLE: &'static [NotTunable] = &[fixed(
        "generated_header_bytes",
        "how much of a file is read for generated markers: what a file is, not a weight",
    )];
}

impl Default for CodeWeights {
    fn default() -> Self {
        CodeWeights {
            exact_stem: 20.0,
            module_file: 32.0,
            module_file_normalised: 30.0,
            symbol_type: 32.0,
            symbol_function: 31.0,
            symbol_other: 30.0,
            symbol_namespace: 19.0,
            symbol_declaration_penalty: 4.0,
            symbol_member: 30.0,
            symbol_qualified: 6.0,
            symbol_inflected: 19.0,
            symbol_partial: 15.0,
            all_words: 17.0,
            partial_stem: 18.0,
            directory: 16.0,
            // above the gap between a header's type definition and the implementation file
            // named for it (32 - 20): asked for the implementation, that file comes first
            impl_boost: 13.0,
            impl_boost_weak: 6.0,
            impl_boost_secondary: false,
            camel_case: true,
            separator_pattern: true,
            word_match: true,
            symbol_scan: true,
            impl_extensions: implementation_extensions(),
            test_penalty: 0.5,
            test_dirs: ["test", "tests", "spec", "specs", "__tests__", "testdata"]
                .map(String::from)
                .to_vec(),
            test_names: test_names(),
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

/// The extensions of implementation files: each scanned language's
/// (`LanguageSpec::implementation_extensions`), and those of languages the tree does not scan.
fn implementation_extensions() -> Vec<String> {
    LANGUAGES
        .iter()
        .flat_map(|spec| spec.implementation_extensions)
        .chain(&["zig"])
        .map(|ext| ext.to_string())
        .collect()
}

/// The file-name patterns of tests: those of every language, then each scanned language's
/// own (`LanguageSpec::test_names`).
fn test_names() -> Vec<String> {
    ["*_test.*", "*_tests.*", "*.spec.*", "*.test.*"]
        .iter()
        .chain(LANGUAGES.iter().flat_map(|spec| spec.test_names))
        .map(|name| name.to_string())
        .collect()
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
            module_file_normalised: 20.0,
            all_words: 12.0,
            partial_stem: 10.0,
            directory: 5.0,
            impl_boost: 8.0,
            impl_boost_weak: 8.0,
            // the spec's handler boosted every `.cpp` file, tests included
            impl_boost_secondary: true,
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
            test_penalty: 6.0,
            ..CodeWeights::default()
        }
    }
}
