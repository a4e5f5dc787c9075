//! Whether a declaration of Kotlin, Swift, Scala, C# or PHP has a body: these write a
//! function without one (an interface or protocol requirement, an abstract member) by
//! ending it where a body would start, at the end of its line (Kotlin, Swift, Scala) or
//! at a `;` (C#, PHP), and give a body as a block `{`, an expression after `=` (Kotlin,
//! Scala) or after `=>` (C#, PHP's arrow functions have no name).

use super::lexical::{comment_end, skip_string};

/// How far past a declaration's name its body is looked for.
pub(super) const LOOKAHEAD: usize = 4096;

/// What follows a declaration's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Follows {
    /// A body `{`: a definition.
    Body,
    /// `;` first: a declaration only.
    Semicolon,
    /// A `,` or nothing recognisable (an initialiser list, a call spread over lines).
    Other,
}

/// Where a declaration without a body ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ends {
    /// At the end of its signature's last line.
    AtNewline,
    /// At a `;`.
    AtSemicolon,
}

/// What follows the name that ends at `from`: [`Follows::Body`] when a `{`, `=` or `=>`
/// comes first outside parentheses and brackets, [`Follows::Semicolon`] when the
/// declaration ends first (a `;`, a `}` closing the enclosing body, or the end of the
/// signature), [`Follows::Other`] when nothing is found within the lookahead.
pub(super) fn ends_in_body(text: &[u8], from: usize, ends: Ends) -> Follows {
    let end = text.len().min(from + LOOKAHEAD);
    let mut depth = 0i32;
    let mut i = from;
    while i < end {
        match text[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'"' => i = skip_string(text, i),
            b'/' if text.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &text[i..end]).map_or(end, |n| i + n) - 1;
            }
            b'/' if text.get(i + 1) == Some(&b'*') => {
                i = comment_end(&text[i + 2..end]).map_or(end, |n| i + 2 + n + 1);
            }
            _ if depth > 0 => {}
            b'{' => return Follows::Body,
            b'}' | b';' => return Follows::Semicolon,
            b'=' => {
                let next = text.get(i + 1).copied();
                let prev = if i > 0 { text[i - 1] } else { b' ' };
                let arrow = next == Some(b'>');
                if matches!(prev, b'=' | b'!' | b'<' | b'>') || next == Some(b'=') {
                    // a comparison in a constraint (`where Element == Int`)
                } else if !arrow || ends == Ends::AtSemicolon {
                    // Scala's `=>` is a function type; C#'s an expression body
                    return Follows::Body;
                }
                i += usize::from(arrow);
            }
            b'\n' if ends == Ends::AtNewline && !continues(&text[i + 1..end]) => {
                return Follows::Semicolon
            }
            _ => {}
        }
        i += 1;
    }
    Follows::Other
}

/// The next non-blank line goes on with the signature above it: a body, a return type or
/// constraint, or a type going on (`->`, `:`, `where`, `throws`).
fn continues(rest: &[u8]) -> bool {
    let at = rest
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let rest = &rest[at..];
    [
        &b"{"[..],
        b"=",
        b":",
        b"->",
        b".",
        b")",
        b",",
        b"where",
        b"throws",
        b"rethrows",
        b"async",
        b"with",
        b"extends",
        b"//",
        b"/*",
    ]
    .iter()
    .any(|p| rest.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(src: &str, ends: Ends) -> Follows {
        ends_in_body(src.as_bytes(), 0, ends)
    }

    #[test]
    fn bodies_blocks_and_expressions() {
        assert_eq!(of("(a: Int): Int {\n", Ends::AtNewline), Follows::Body);
        assert_eq!(of("(a: Int = 1) = a + 1\n", Ends::AtNewline), Follows::Body);
        assert_eq!(
            of("(\n  a: Int,\n  b: Int\n): Int =\n  a\n", Ends::AtNewline),
            Follows::Body
        );
        assert_eq!(
            of("() -> Int\n    where T: Equatable {\n", Ends::AtNewline),
            Follows::Body
        );
        assert_eq!(of("() => x;\n", Ends::AtSemicolon), Follows::Body);
        assert_eq!(of(" { get; set; }\n", Ends::AtSemicolon), Follows::Body);
    }

    #[test]
    fn requirements_and_abstract_members_end_without_a_body() {
        assert_eq!(
            of("(a: Int): Int\n    fun next() {}\n", Ends::AtNewline),
            Follows::Semicolon
        );
        assert_eq!(
            of("() throws -> Data\n}\n", Ends::AtNewline),
            Follows::Semicolon
        );
        assert_eq!(
            of(": Int => Int\n  def y = 1\n", Ends::AtNewline),
            Follows::Semicolon
        );
        assert_eq!(of("(int x);\n", Ends::AtSemicolon), Follows::Semicolon);
        assert_eq!(of("(): string;\n", Ends::AtSemicolon), Follows::Semicolon);
        assert_eq!(
            of("<T>() where T == Int\n}", Ends::AtNewline),
            Follows::Semicolon
        );
    }
}
