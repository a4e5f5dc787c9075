//! C and C++: `#define` macros, classes, structs, unions, enums and namespaces, typedefs
//! (function pointers and `typedef struct {...} name;` included), `using` aliases, and
//! functions and methods, with the attributes, export macros and storage words before them.

use super::c_like::{c_like_function, strip_template};
use super::language::Language;
use super::lexical::{
    declared_after, is_ident_char, is_statement_word, leading_ident, strip_word, strip_words, trim,
    trim_end, trim_start,
};
use super::scanner::Scanner;
use super::symbol::SymbolKind;

impl<'a> Scanner<'a> {
    pub(super) fn c_family(&mut self, s: &'a str, indented: bool) -> Option<(SymbolKind, &'a str)> {
        // a preprocessor line is a line of its own, whatever the line above left open
        // (`DOCTEST_MSVC_SUPPRESS_WARNING(4623)` above a `#define`)
        if let Some(rest) = s.strip_prefix('#') {
            self.prev_type_line = false;
            return declared_after(trim_start(rest), "define").map(|n| (SymbolKind::Macro, n));
        }
        let prev_type_line = std::mem::replace(&mut self.prev_type_line, false);
        if self.open_statement && !prev_type_line {
            return None;
        }
        if is_macro_call_line(s) {
            return None;
        }
        if self.typedef_open && s.starts_with('}') && !indented {
            self.typedef_open = false;
            let rest = trim_start(&s[1..]);
            let rest = strip_attributes(rest);
            let name = leading_ident(rest)?;
            return Some((SymbolKind::Type, name));
        }
        if indented && self.in_block() {
            // a type defined in a function's body (`struct id_adapter {` in fmt's parser)
            return local_type(s);
        }
        let s = strip_template(s)?;
        if s.starts_with("using namespace") {
            return None;
        }
        let before_attributes = s;
        let mut s = strip_attributes(s);
        // a macro with arguments before the name may hold the return type:
        // `CJSON_PUBLIC(cJSON *) cJSON_Parse(`
        let typed_by_macro = s.len() != before_attributes.len()
            && leading_ident(before_attributes).is_some_and(is_macro_name);
        let mut typedef = false;
        loop {
            let before = s;
            s = strip_words(
                s,
                &[
                    "export",
                    "extern",
                    "static",
                    "inline",
                    "constexpr",
                    "consteval",
                    "constinit",
                    "\"C\"",
                    "\"C++\"",
                    "__extension__",
                ],
            );
            if let Some(rest) = strip_word(s, "typedef") {
                typedef = true;
                s = rest;
            }
            s = strip_attributes(s);
            if s == before {
                break;
            }
        }
        for (word, kind) in [
            ("class", SymbolKind::Class),
            ("struct", SymbolKind::Struct),
            ("union", SymbolKind::Union),
            ("namespace", SymbolKind::Namespace),
            ("enum", SymbolKind::Enum),
        ] {
            // most lines start with none of them: the first byte tells
            if s.as_bytes().first() != word.as_bytes().first() {
                continue;
            }
            let Some(rest) = strip_word(s, word).or_else(|| {
                // `struct{` and `enum{` with no name before the brace
                s.strip_prefix(word).filter(|r| r.starts_with('{'))
            }) else {
                continue;
            };
            let rest = strip_attributes(strip_words(rest, &["class", "struct"]));
            let mut name = leading_ident(rest);
            let mut after = name.map_or(rest, |n| trim_start(&rest[n.len()..]));
            // an export macro between the keyword and the name: `class GTEST_API_ Name {`
            if let (Some(n), Some(next)) = (name, leading_ident(after)) {
                if is_macro_name(n) && !matches!(next, "final") {
                    name = Some(next);
                    after = trim_start(&after[next.len()..]);
                }
            }
            let after = after.strip_prefix("final").map_or(after, str::trim_start);
            let opens = after.starts_with('{')
                || (after.starts_with(':') && !after.starts_with("::"))
                || after.is_empty();
            if typedef {
                if opens && !after.contains('}') {
                    self.typedef_open = true;
                } else if let Some(alias) = typedef_name(after) {
                    return Some((SymbolKind::Type, alias));
                }
                return name.filter(|_| opens).map(|n| (kind, n));
            }
            let name = name?;
            if opens || after.starts_with(';') {
                return Some((kind, name));
            }
            // `struct stat st;`, `struct node *next(...)`: a variable or a function
            break;
        }
        if typedef {
            // a type given by a macro call was stripped as an attribute, leaving the name:
            // `typedef GTEST_REMOVE_REFERENCE_AND_CONST_(Optional) OptionalView;`
            let alone = leading_ident(s).filter(|n| trim_start(&s[n.len()..]).starts_with(';'));
            return typedef_name(s).or(alone).map(|n| (SymbolKind::Type, n));
        }
        if let Some(rest) = strip_word(s, "using") {
            let name = leading_ident(rest)?;
            return rest[name.len()..]
                .trim_start()
                .starts_with('=')
                .then_some((SymbolKind::Type, name));
        }
        let s = strip_words(s, &["virtual", "explicit", "friend", "const", "unsigned"]);
        let in_class = self.in_class();
        let name = match c_like_function(s, !in_class && !typed_by_macro) {
            Some(name) => name,
            // a C++ return type may stand above an indented name in a namespace's body
            None if prev_type_line && (!indented || self.language == Language::Cpp) => {
                let name = c_like_function(s, false)?;
                // a macro call below a type is no function's name (`GMOCK_MATCHER_(T)`)
                if is_macro_name(name) {
                    return None;
                }
                name
            }
            None => {
                self.prev_type_line = !indented && is_type_line(s)
                    || (self.language == Language::Cpp && !self.in_block() && ends_return_type(s));
                return None;
            }
        };
        let kind = if name.contains("::") || in_class {
            SymbolKind::Method
        } else {
            SymbolKind::Function
        };
        Some((kind, name))
    }
}

/// `s` without leading attributes and export macros: `[[nodiscard]]`,
/// `__attribute__((x))`, `__declspec(dllexport)`, `alignas(8)`, and an ALL_CAPS macro with
/// arguments (`LIB_DEPRECATED("msg")`) before the declaration proper.
pub(super) fn strip_attributes(mut s: &str) -> &str {
    loop {
        if let Some(rest) = s.strip_prefix("[[") {
            match rest.find("]]") {
                Some(end) => s = trim_start(&rest[end + 2..]),
                None => return s,
            }
            continue;
        }
        // every attribute below starts with `_`, `a` or a capital: a line whose first byte is
        // another is passed over before its first word is cut
        if !matches!(
            trim_start(s).as_bytes().first(),
            Some(b'_' | b'a' | b'A'..=b'Z')
        ) {
            return s;
        }
        let Some(word) = leading_ident(s) else {
            return s;
        };
        let rest = trim_start(&s[word.len()..]);
        let is_attribute = matches!(word, "__attribute__" | "__declspec" | "alignas")
            || (word.len() > 2
                && word.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
                && word
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'));
        if !is_attribute || !rest.starts_with('(') {
            return s;
        }
        // the macro's balanced arguments, then something that can be declared
        let mut depth = 0;
        let mut close = None;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            return s;
        };
        let after = trim_start(&rest[close + 1..]);
        if leading_ident(after).is_none() && !after.starts_with("[[") {
            return s;
        }
        s = after;
    }
}

/// A line that is only a macro called with arguments (`JSON_HEDLEY_NON_NULL(3)` above a
/// method, `DOCTEST_GCC_SUPPRESS_WARNING("-Wsign-promo")`): an annotation of what follows
/// or a statement of its own, never a declaration, and it leaves no statement open.
pub(super) fn is_macro_call_line(s: &str) -> bool {
    // a macro's name starts with a capital: most lines are passed over on their first byte
    if !trim_start(s)
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_uppercase)
    {
        return false;
    }
    let Some(name) = leading_ident(s) else {
        return false;
    };
    if !is_macro_name(name) {
        return false;
    }
    let rest = trim_start(&s[name.len()..]);
    let Some(args) = rest.strip_prefix('(') else {
        return false;
    };
    let mut depth = 1;
    for (i, c) in args.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return matches!(trim(&args[i + 1..]), "" | ";");
                }
            }
            _ => {}
        }
    }
    false
}

/// A class, struct, union or enum defined inside a block: its name, when a body or a base
/// list follows it on the line (`struct stat st;` declares a variable); or a `using` alias
/// (`using ToType = typename std::remove_cv<...>`).
fn local_type(s: &str) -> Option<(SymbolKind, &str)> {
    if let Some(rest) = strip_word(s, "using") {
        let name = leading_ident(rest)?;
        return rest[name.len()..]
            .trim_start()
            .starts_with('=')
            .then_some((SymbolKind::Type, name));
    }
    for (word, kind) in [
        ("class", SymbolKind::Class),
        ("struct", SymbolKind::Struct),
        ("union", SymbolKind::Union),
        ("enum", SymbolKind::Enum),
    ] {
        let Some(rest) = strip_word(s, word) else {
            continue;
        };
        let rest = strip_words(rest, &["class", "struct"]);
        let name = leading_ident(rest)?;
        let after = trim_start(&rest[name.len()..]);
        let after = after.strip_prefix("final").map_or(after, str::trim_start);
        let opens = after.starts_with('{') || (after.starts_with(':') && !after.starts_with("::"));
        return opens.then_some((kind, name));
    }
    None
}

/// An ALL_CAPS name (`GTEST_API_`, `LIB_EXPORT`): a macro, not a type's name.
fn is_macro_name(word: &str) -> bool {
    word.len() > 2
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word.contains('_')
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The name a `typedef` gives: `(*name)` of a function pointer, else the last identifier
/// before the closing `;` (and any array bounds).
pub(super) fn typedef_name(s: &str) -> Option<&str> {
    // a function pointer: `(*name)`, `(APIENTRYP name)`: the last word of the first group
    if let Some((_, rest)) = s.split_once('(') {
        if let Some((group, after)) = rest.split_once(')') {
            // the parameters may follow on the next line: `typedef int (*curl_debug_callback)`
            let wrapped = trim(after).is_empty() && trim_start(group).starts_with('*');
            if trim_start(after).starts_with('(') || wrapped {
                let start = group
                    .rfind(|c: char| !is_ident_char(c))
                    .map_or(0, |i| i + 1);
                let name = &group[start..];
                return (!name.is_empty()).then_some(name);
            }
        }
    }
    let end = s.find(';')?;
    let head = trim_end(&s[..end]);
    let head = head.split('[').next()?.trim_end();
    let start = head.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
    let name = &head[start..];
    (!name.is_empty() && start > 0 && !name.starts_with(|c: char| c.is_ascii_digit()))
        .then_some(name)
}

/// A line that is only a return type (`static int`, `struct node *`), as GNU style writes
/// above a function's name.
pub(super) fn is_type_line(s: &str) -> bool {
    !s.is_empty()
        && !s.contains(['(', ')', ';', '{', '}', '=', '#', ',', '"', '<', ':'])
        && s.ends_with(|c: char| is_ident_char(c) || c == '*')
        && s.split_whitespace().count() <= 4
        && !is_statement_word(leading_ident(s).unwrap_or(""))
}

/// A C++ line that is only a return type, the name below it: qualified, with template
/// arguments (`internal::AnyOfMatcher<typename std::decay<const Args&>::type...>`,
/// `typename std::enable_if<B, T>::type`, `const Foo&`). It ends with a name, `>`, `*` or
/// `&`, its angle brackets balance, and outside them it holds nothing a statement or an
/// expression would (`;`, braces, `=`, `,`, parentheses, operators, a string).
fn ends_return_type(s: &str) -> bool {
    if is_statement_word(leading_ident(s).unwrap_or(""))
        || !s.ends_with(|c: char| is_ident_char(c) || matches!(c, '>' | '*' | '&'))
    {
        return false;
    }
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            ';' | '{' | '}' | '=' | ',' | '(' | ')' | '"' | '\'' | '#' | '?' | '|' | '!' | '+'
            | '-' | '/' | '%' | '^' | '[' | ']'
                if depth == 0 =>
            {
                return false;
            }
            _ => {}
        }
    }
    depth == 0
}
