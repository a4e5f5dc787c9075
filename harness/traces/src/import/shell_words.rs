//! A shell command line cut into simple commands and their words, as far as recognising a
//! search needs: quotes and backslashes honoured, `|`, `||`, `&&`, `;`, `&` and newlines
//! separating commands, redirections dropped. Nothing is expanded and nothing runs.

/// One simple command of a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// The command as written, trimmed.
    pub raw: String,
    /// Its words with quotes removed, redirections left out.
    pub words: Vec<String>,
    /// Whether it reads a pipe (`... | this`): then `grep x` filters text, it searches no tree.
    pub after_pipe: bool,
}

/// Splits `script` into simple commands.
pub fn segments(script: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut start = 0usize;
    let mut after_pipe = false;
    let mut chars = script.char_indices().peekable();
    let mut finish = |words: &mut Vec<String>, end: usize, start: usize, after_pipe: bool| {
        let raw = script[start..end].trim().to_string();
        let words = drop_redirections(std::mem::take(words));
        if !words.is_empty() {
            out.push(Segment {
                raw,
                words,
                after_pipe,
            });
        }
    };
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for (_, q) in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some((_, q)) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => match chars.peek() {
                            Some(&(_, n @ ('"' | '\\' | '$' | '`'))) => {
                                word.push(n);
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        _ => word.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some((_, '\n')) | None => {}
                    Some((_, n)) => word.push(n),
                }
            }
            '|' | '&' | ';' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                let doubled =
                    matches!(chars.peek(), Some(&(_, n)) if n == c && c != '\n' && c != ';');
                // `2>&1` and `&>` are redirections, not separators
                if c == '&'
                    && (word_ends_redirect(&words) || matches!(chars.peek(), Some(&(_, '>'))))
                {
                    word.push('&');
                    in_word = true;
                    continue;
                }
                finish(&mut words, i, start, after_pipe);
                if doubled {
                    chars.next();
                }
                after_pipe = c == '|' && !doubled;
                start = i + if doubled { 2 } else { 1 };
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    finish(&mut words, script.len(), start, after_pipe);
    out
}

/// Whether the last word is a redirection waiting for `&` (`2>` of `2>&1`).
fn word_ends_redirect(words: &[String]) -> bool {
    words.last().is_some_and(|w| w.ends_with('>'))
}

/// Leaves out `>file`, `2>/dev/null`, `< in`, `2>&1`: they name no search input.
fn drop_redirections(words: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let mut skip_next = false;
    for w in words {
        if skip_next {
            skip_next = false;
            continue;
        }
        let bare = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&');
        if bare.starts_with('>') || bare.starts_with('<') {
            // `>` alone takes the next word as its target; `>file` and `2>&1` are whole
            let op = bare.trim_start_matches(['>', '<', '&', '|']);
            skip_next = op.is_empty();
            continue;
        }
        out.push(w);
    }
    out
}

/// Quotes `words` back into one command line (for an argv given as an array).
pub fn join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
            if plain {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &str) -> Vec<(Vec<String>, bool)> {
        segments(script)
            .into_iter()
            .map(|s| (s.words, s.after_pipe))
            .collect()
    }

    fn w(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn quotes_separators_and_pipes() {
        assert_eq!(
            words(r#"cd src && rg -n "cursor binary" --glob '*.cpp' | head -20; echo done"#),
            vec![
                (w(&["cd", "src"]), false),
                (w(&["rg", "-n", "cursor binary", "--glob", "*.cpp"]), false),
                (w(&["head", "-20"]), true),
                (w(&["echo", "done"]), false),
            ]
        );
        assert_eq!(
            words("grep -rn foo\\ bar . 2>/dev/null || true"),
            vec![
                (w(&["grep", "-rn", "foo bar", "."]), false),
                (w(&["true"]), false)
            ]
        );
        assert_eq!(
            words("rg x 2>&1 > out.txt\nfind . -name '*.h' &"),
            vec![
                (w(&["rg", "x"]), false),
                (w(&["find", ".", "-name", "*.h"]), false)
            ]
        );
    }

    #[test]
    fn raw_text_is_kept_per_command() {
        let s = segments("cd a && rg -n 'x y' src | wc -l");
        assert_eq!(s[1].raw, "rg -n 'x y' src");
        assert_eq!(s[2].raw, "wc -l");
    }

    #[test]
    fn an_argv_is_quoted_back() {
        assert_eq!(
            join(&w(&["rg", "-n", "cursor binary", "it's"])),
            r#"rg -n 'cursor binary' 'it'\''s'"#
        );
        let back = segments(&join(&w(&["rg", "a b", "it's"])));
        assert_eq!(back[0].words, w(&["rg", "a b", "it's"]));
    }
}
