//! The languages whose declarations are scanned, known by a file's extension.

use serde::{Deserialize, Serialize};

/// Source languages whose declarations are scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Rust,
    Python,
    Go,
    TypeScript,
    JavaScript,
    Java,
    Kotlin,
    CSharp,
    Ruby,
    Php,
    Swift,
    Scala,
    Shell,
}

impl Language {
    /// The language of a file by its (folded) extension.
    pub fn from_extension(ext: &str) -> Option<Language> {
        Some(match ext {
            "c" => Language::C,
            "h" | "hh" | "hpp" | "hxx" | "cc" | "cpp" | "cxx" | "c++" | "ipp" | "inl" => {
                Language::Cpp
            }
            "rs" => Language::Rust,
            "py" | "pyi" => Language::Python,
            "go" => Language::Go,
            "ts" | "tsx" | "mts" | "cts" => Language::TypeScript,
            "js" | "jsx" | "mjs" | "cjs" => Language::JavaScript,
            "java" => Language::Java,
            "kt" | "kts" => Language::Kotlin,
            "cs" => Language::CSharp,
            "rb" | "rake" => Language::Ruby,
            "php" => Language::Php,
            "swift" => Language::Swift,
            "scala" | "sc" => Language::Scala,
            "sh" | "bash" | "zsh" | "ksh" => Language::Shell,
            _ => return None,
        })
    }
}

impl Language {
    /// Its recogniser reads a line alone and changes nothing the next lines are read with
    /// (the state a scan carries is updated before it): a line that declares no name the
    /// caller keeps may be passed over (`super::scan_lines_keeping`).
    pub(crate) fn declares_line_by_line(self) -> bool {
        matches!(
            self,
            Language::Rust | Language::Python | Language::Ruby | Language::Shell
        )
    }

    /// A scan given the lines that may declare a kept name reads only those in full: a
    /// language that declares line by line passes the others over, and C and C++ keep
    /// following their braces, comments and open statements on them
    /// (`Scanner::passes_over_c_line`). A name is written on the line that declares it.
    pub(crate) fn skims_lines(self) -> bool {
        self.declares_line_by_line() || matches!(self, Language::C | Language::Cpp)
    }

    pub(super) fn is_script(self) -> bool {
        matches!(self, Language::TypeScript | Language::JavaScript)
    }

    /// `'...'` is a string (not only a one-character literal) in this language.
    pub(super) fn single_quote_strings(self) -> bool {
        matches!(
            self,
            Language::TypeScript | Language::JavaScript | Language::Java | Language::Php
        )
    }
}
