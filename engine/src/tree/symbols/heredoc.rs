//! Here-documents of Ruby and shell: the lines between `<<WORD` and `WORD` are text, not
//! code, so a `def` or `name()` in them declares nothing.

use super::language::{Heredocs, StringSyntax};
use super::lexical::{is_ident_char, skip_string};

/// [`heredoc_opened`] as a language whose strings are `strings` writes here-documents
/// (none where it writes no `<<EOT`).
pub(super) fn heredoc_opened_in<'l>(strings: &StringSyntax, line: &'l str) -> Option<&'l str> {
    match strings.heredocs {
        Heredocs::DoubleAngle { spaced } => heredoc_opened(line, spaced),
        Heredocs::None | Heredocs::TripleAngle => None,
    }
}

/// The word that ends the here-document `line` opens (`<<EOF`, `<<-EOF`, `<<~EOS`,
/// `<<'EOF'`, `<<"EOF"`), if it opens one. `spaced`: a space may stand between `<<` and
/// the word (shell); without it (Ruby, where `x << y` appends) the word must follow at once
/// and start with a capital letter or a quote.
pub(super) fn heredoc_opened(line: &str, spaced: bool) -> Option<&str> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' | b'`' => i = skip_string(bytes, i),
            b'#' if i == 0 || bytes[i - 1].is_ascii_whitespace() => return None,
            b'<' if bytes[i + 1] == b'<' => {
                // `<<<` is a here-string
                let here_string =
                    bytes.get(i + 2) == Some(&b'<') || (i > 0 && bytes[i - 1] == b'<');
                if !here_string {
                    if let Some(word) = word_after(&line[i + 2..], spaced) {
                        return Some(word);
                    }
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn word_after(rest: &str, spaced: bool) -> Option<&str> {
    let rest = rest.strip_prefix(['-', '~']).unwrap_or(rest);
    let rest = if spaced { rest.trim_start() } else { rest };
    let (rest, quote) = match rest.as_bytes().first() {
        Some(&q @ (b'\'' | b'"')) => (&rest[1..], Some(q as char)),
        _ => (rest, None),
    };
    let end = rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len());
    let word = &rest[..end];
    let first = word.chars().next()?;
    if !(first.is_alphabetic() || first == '_') {
        return None;
    }
    if let Some(q) = quote {
        return rest[end..].starts_with(q).then_some(word);
    }
    (spaced || first.is_ascii_uppercase()).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opened_by_each_form() {
        assert_eq!(heredoc_opened("cat <<EOF", true), Some("EOF"));
        assert_eq!(heredoc_opened("cat <<- 'EOS' > file", true), Some("EOS"));
        assert_eq!(heredoc_opened("  x = <<~SQL.strip", false), Some("SQL"));
        assert_eq!(heredoc_opened("foo(<<-\"EOS\")", false), Some("EOS"));
    }

    #[test]
    fn appends_here_strings_and_quoted_text_open_none() {
        assert_eq!(heredoc_opened("list << item", false), None);
        assert_eq!(heredoc_opened("class << self", false), None);
        assert_eq!(heredoc_opened("read x <<< \"$line\"", true), None);
        assert_eq!(heredoc_opened("read -ra parts <<<\"$1\"", true), None);
        assert_eq!(heredoc_opened("echo \"a <<EOF\"", true), None);
        assert_eq!(heredoc_opened("x = 1 # <<EOF", false), None);
        assert_eq!(heredoc_opened("(( x << 2 ))", true), None);
    }
}
