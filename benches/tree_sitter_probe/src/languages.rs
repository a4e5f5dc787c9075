//! The 15 languages (16 grammars: TypeScript and TSX are two) and their tags queries.
//!
//! Shipped `queries/tags.scm` are used as the grammar crates export them; where a crate
//! exports none (Kotlin, Scala, bash) the probe's own `queries/*.scm` stand in.
//! TypeScript's shipped query holds only what TypeScript adds, so it is run after
//! JavaScript's, as the tree-sitter CLI does (`inherits: javascript`).

use tree_sitter::Language;
use tree_sitter_tags::TagsConfiguration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Rust,
    Python,
    Go,
    Java,
    Kotlin,
    C,
    Cpp,
    CSharp,
    JavaScript,
    TypeScript,
    Tsx,
    Ruby,
    Php,
    Swift,
    Scala,
    Bash,
}

pub const ALL: [Lang; 16] = [
    Lang::Rust,
    Lang::Python,
    Lang::Go,
    Lang::Java,
    Lang::Kotlin,
    Lang::C,
    Lang::Cpp,
    Lang::CSharp,
    Lang::JavaScript,
    Lang::TypeScript,
    Lang::Tsx,
    Lang::Ruby,
    Lang::Php,
    Lang::Swift,
    Lang::Scala,
    Lang::Bash,
];

impl Lang {
    /// By file extension; C/C++ headers follow findbench (`engine/src/tree/symbols.rs`): `.h` is C++.
    pub fn from_extension(ext: &str) -> Option<Lang> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "rs" => Lang::Rust,
            "py" | "pyi" => Lang::Python,
            "go" => Lang::Go,
            "java" => Lang::Java,
            "kt" | "kts" => Lang::Kotlin,
            "c" => Lang::C,
            "h" | "hh" | "hpp" | "hxx" | "cc" | "cpp" | "cxx" | "c++" | "ipp" | "inl" => Lang::Cpp,
            "cs" => Lang::CSharp,
            "js" | "jsx" | "mjs" | "cjs" => Lang::JavaScript,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "rb" => Lang::Ruby,
            "php" => Lang::Php,
            "swift" => Lang::Swift,
            "scala" | "sc" => Lang::Scala,
            "sh" | "bash" => Lang::Bash,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::Go => "go",
            Lang::Java => "java",
            Lang::Kotlin => "kotlin",
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::CSharp => "csharp",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Ruby => "ruby",
            Lang::Php => "php",
            Lang::Swift => "swift",
            Lang::Scala => "scala",
            Lang::Bash => "bash",
        }
    }

    pub fn language(self) -> Language {
        match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::Kotlin => tree_sitter_kotlin_ng::LANGUAGE.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Lang::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Lang::Php => tree_sitter_php::LANGUAGE_PHP.into(),
            Lang::Swift => tree_sitter_swift::LANGUAGE.into(),
            Lang::Scala => tree_sitter_scala::LANGUAGE.into(),
            Lang::Bash => tree_sitter_bash::LANGUAGE.into(),
        }
    }

    /// (tags query, locals query).
    fn queries(self) -> (String, String) {
        let js_ts = || {
            format!(
                "{}\n{}",
                tree_sitter_javascript::TAGS_QUERY,
                tree_sitter_typescript::TAGS_QUERY
            )
        };
        let (tags, locals): (String, &str) = match self {
            Lang::Rust => (tree_sitter_rust::TAGS_QUERY.into(), ""),
            Lang::Python => (tree_sitter_python::TAGS_QUERY.into(), ""),
            Lang::Go => (tree_sitter_go::TAGS_QUERY.into(), ""),
            Lang::Java => (tree_sitter_java::TAGS_QUERY.into(), ""),
            Lang::Kotlin => (include_str!("../queries/kotlin.scm").into(), ""),
            Lang::C => (tree_sitter_c::TAGS_QUERY.into(), ""),
            Lang::Cpp => (tree_sitter_cpp::TAGS_QUERY.into(), ""),
            // The shipped query (0.23.5) ends with a pattern whose capture `@module`
            // tree-sitter-tags refuses ("Invalid capture"); that one pattern is left out.
            Lang::CSharp => (
                tree_sitter_c_sharp::TAGS_QUERY.replace(
                    "(namespace_declaration name: (identifier) @name) @module",
                    "",
                ),
                "",
            ),
            Lang::JavaScript => (
                tree_sitter_javascript::TAGS_QUERY.into(),
                tree_sitter_javascript::LOCALS_QUERY,
            ),
            Lang::TypeScript | Lang::Tsx => (js_ts(), tree_sitter_typescript::LOCALS_QUERY),
            Lang::Ruby => (
                tree_sitter_ruby::TAGS_QUERY.into(),
                tree_sitter_ruby::LOCALS_QUERY,
            ),
            Lang::Php => (tree_sitter_php::TAGS_QUERY.into(), ""),
            // Swift's locals query uses editor captures (`@local.definition.import`) that
            // tree-sitter-tags refuses; its tags query runs without it.
            Lang::Swift => (tree_sitter_swift::TAGS_QUERY.into(), ""),
            Lang::Scala => (include_str!("../queries/scala.scm").into(), ""),
            Lang::Bash => (include_str!("../queries/bash.scm").into(), ""),
        };
        (tags, locals.to_string())
    }

    /// Patterns this probe adds to the shipped query for definitions it leaves out
    /// (`queries/extra/*.scm`: constructors, enums, type aliases, macros, template
    /// specialisations...), to show what completing the queries would buy.
    fn extra_query(self) -> &'static str {
        match self {
            Lang::Rust => include_str!("../queries/extra/rust.scm"),
            Lang::Java => include_str!("../queries/extra/java.scm"),
            Lang::CSharp => include_str!("../queries/extra/csharp.scm"),
            Lang::C => include_str!("../queries/extra/c.scm"),
            Lang::Cpp => include_str!("../queries/extra/cpp.scm"),
            Lang::TypeScript | Lang::Tsx => include_str!("../queries/extra/typescript.scm"),
            Lang::Swift => include_str!("../queries/extra/swift.scm"),
            _ => "",
        }
    }

    /// The tags configuration; with `definitions_only`, every pattern that captures a
    /// reference and no definition is disabled (the index needs definitions only); with
    /// `extended`, the probe's extra patterns follow the shipped ones.
    pub fn tags_configuration(
        self,
        definitions_only: bool,
        extended: bool,
    ) -> Result<TagsConfiguration, String> {
        let (mut tags, locals) = self.queries();
        if extended {
            tags.push('\n');
            tags.push_str(self.extra_query());
        }
        let mut config = TagsConfiguration::new(self.language(), &tags, &locals)
            .map_err(|e| format!("{}: tags query: {e}", self.name()))?;
        if definitions_only {
            let source = format!("{locals}{tags}");
            let count = config.query.pattern_count();
            for i in 0..count {
                let start = config.query.start_byte_for_pattern(i);
                let end = if i + 1 < count {
                    config.query.start_byte_for_pattern(i + 1)
                } else {
                    source.len()
                };
                let text = &source[start.min(source.len())..end.min(source.len())];
                if start >= locals.len()
                    && text.contains("@reference")
                    && !text.contains("@definition")
                {
                    config.query.disable_pattern(i);
                }
            }
        }
        Ok(config)
    }
}
