//! What a declaration is: its kind, how `find code` weighs the kind, and the symbol found.

use serde::{Deserialize, Serialize};

/// What a declaration declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SymbolKind {
    Class,
    Struct,
    Enum,
    Union,
    Trait,
    Interface,
    Record,
    Type,
    Namespace,
    Module,
    Function,
    Method,
    Macro,
    Const,
    /// A singleton object (Kotlin and Scala `object`).
    Object,
    /// Members added to a type declared elsewhere (Swift `extension`): declares, never
    /// defines, the type it names.
    Extension,
    /// A property with accessors (C#).
    Property,
}

/// How `find code` weighs a kind (see `CodeWeights`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolClass {
    Type,
    Function,
    Other,
}

impl SymbolKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Class => "class",
            SymbolKind::Struct => "struct",
            SymbolKind::Enum => "enum",
            SymbolKind::Union => "union",
            SymbolKind::Trait => "trait",
            SymbolKind::Interface => "interface",
            SymbolKind::Record => "record",
            SymbolKind::Type => "type",
            SymbolKind::Namespace => "namespace",
            SymbolKind::Module => "module",
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Macro => "macro",
            SymbolKind::Const => "const",
            SymbolKind::Object => "object",
            SymbolKind::Extension => "extension",
            SymbolKind::Property => "property",
        }
    }

    pub fn class(self) -> SymbolClass {
        match self {
            SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Union
            | SymbolKind::Trait
            | SymbolKind::Interface
            | SymbolKind::Record
            | SymbolKind::Type
            | SymbolKind::Object
            | SymbolKind::Extension => SymbolClass::Type,
            SymbolKind::Function | SymbolKind::Method => SymbolClass::Function,
            SymbolKind::Namespace
            | SymbolKind::Module
            | SymbolKind::Macro
            | SymbolKind::Const
            | SymbolKind::Property => SymbolClass::Other,
        }
    }
}

/// One declaration found in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    pub kind: SymbolKind,
    /// The name as written, qualified when the source qualifies it (`ReplayService::replay`).
    pub name: String,
    /// The declared name's words joined by `_` (the last segment of a qualified name).
    pub snake: String,
    /// 1-based line number of the line that holds the name.
    pub line: u32,
    /// The line defines the symbol (a body, a value, a type's fields); false for a
    /// declaration only: a prototype, a forward declaration, a trait or interface method
    /// without a body, `mod name;`.
    pub definition: bool,
    /// A test function (Rust `#[test]`, `#[tokio::test]` on the lines above).
    pub test: bool,
}

impl Symbol {
    /// Whether this is where the name whose snake form is `snake` is defined, outside a
    /// test: what a task that quotes the name is likely to change (a declaration only,
    /// or a test of the same name, is not).
    pub fn defines(&self, snake: &str) -> bool {
        self.definition && !self.test && self.snake == snake
    }
}
