//! CamelCase normalisation: `CommandRouter`, `command_router`, `command-router` and
//! `command router` all become the words `command`, `router`.

/// Splits an identifier or phrase into folded words: at spaces, `_`, `-`, `.`, `/`, at
/// lower-to-upper humps (`commandRouter`) and at the end of an acronym (`HTTPServer` ->
/// `http`, `server`). Digits stay with the letters before them.
pub fn split_words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut words);
            continue;
        }
        if c.is_uppercase() && !current.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            // `aB` starts a word; so does the last capital of `HTTPServer` before `e`
            if prev.is_lowercase() || prev.is_numeric() || (prev.is_uppercase() && next_lower) {
                flush(&mut current, &mut words);
            }
        }
        current.extend(c.to_lowercase());
    }
    flush(&mut current, &mut words);
    words
}

fn flush(current: &mut String, words: &mut Vec<String>) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

/// The snake_case form of an identifier: its words joined by `_`.
pub fn snake(text: &str) -> String {
    split_words(text).join("_")
}

/// True at byte `at` of `text` when a word starts there by CamelCase (a lower-case letter or
/// digit followed by an upper-case one).
pub fn is_hump(text: &[u8], at: usize) -> bool {
    at > 0 && text[at].is_ascii_uppercase() && (text[at - 1].is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_and_snake_agree() {
        assert_eq!(snake("CommandRouter"), "command_router");
        assert_eq!(snake("command_router"), "command_router");
        assert_eq!(snake("command-router"), "command_router");
        assert_eq!(snake("commandRouter"), "command_router");
    }

    #[test]
    fn acronyms_and_digits() {
        assert_eq!(split_words("HTTPServer"), ["http", "server"]);
        assert_eq!(split_words("parseV2Config"), ["parse", "v2", "config"]);
        assert_eq!(split_words("sha256sum"), ["sha256sum"]);
    }

    #[test]
    fn humps() {
        assert!(is_hump(b"fooBar", 3));
        assert!(!is_hump(b"foobar", 3));
        assert!(!is_hump(b"FOO", 1));
    }
}
