//! A question as the reports people read show it: whole when short, its first
//! [`SHOWN_CHARS`] characters and its size when not. A trace can carry an issue pasted
//! whole (megabytes in one `query`); summary.md, report.html and junit.xml's test names
//! would otherwise copy it into every row that names it, and a table pads each row to its
//! widest cell. cases.jsonl, cases.csv and results.json keep every question whole.

use std::borrow::Cow;

/// Characters of a question the human reports show.
pub const SHOWN_CHARS: usize = 200;

/// `question` whole when it has at most [`SHOWN_CHARS`] characters; else its first ones and
/// `... (N bytes)`, N the whole question's size.
pub fn shown_question(question: &str) -> Cow<'_, str> {
    // at most SHOWN_CHARS bytes is at most SHOWN_CHARS characters: the common case, at no cost
    if question.len() <= SHOWN_CHARS {
        return Cow::Borrowed(question);
    }
    match question.char_indices().nth(SHOWN_CHARS) {
        None => Cow::Borrowed(question),
        Some((cut, _)) => Cow::Owned(format!(
            "{}... ({} bytes)",
            &question[..cut],
            question.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_question_is_cut_at_a_character_with_its_size() {
        assert_eq!(shown_question("where is replay"), "where is replay");
        let exact = "é".repeat(SHOWN_CHARS);
        assert_eq!(shown_question(&exact), exact.as_str());
        let long = format!("{}ü tail", "é".repeat(SHOWN_CHARS - 1));
        let shown = shown_question(&long);
        assert_eq!(
            shown,
            format!("{}ü... ({} bytes)", "é".repeat(SHOWN_CHARS - 1), long.len())
        );
    }
}
