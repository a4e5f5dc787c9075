//! How a question is keyed when runs are grouped or compared: `clusters` groups traces by it,
//! `compare` pairs cases by it.

/// The question with case, whitespace and punctuation normalised away: lower case (Unicode),
/// punctuation replaced by a space, runs of whitespace collapsed. A `_ - . /` between two
/// letters or digits is kept, since it belongs to a name (`replay_service.cpp`).
pub fn normalise_question(query: &str) -> String {
    let chars: Vec<char> = query.chars().collect();
    let mut out = String::with_capacity(query.len());
    let mut pending_space = false;
    for (i, &c) in chars.iter().enumerate() {
        let keep = if c.is_alphanumeric() {
            true
        } else if matches!(c, '_' | '-' | '.' | '/') {
            let before = i > 0 && chars[i - 1].is_alphanumeric();
            let after = chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
            before && after
        } else {
            false
        };
        if keep {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_case_whitespace_and_punctuation() {
        assert_eq!(
            normalise_question("  Where is   REPLAY implemented?? "),
            "where is replay implemented"
        );
        assert_eq!(
            normalise_question("where is replay implemented"),
            normalise_question("Where is replay implemented.")
        );
        assert_eq!(
            normalise_question("find: \"cursor binary\"!"),
            "find cursor binary"
        );
        // name punctuation survives, loose punctuation does not
        assert_eq!(
            normalise_question("show replay_service.cpp - please"),
            "show replay_service.cpp please"
        );
        assert_eq!(normalise_question("Où est ÉTAT"), "où est état");
        assert_eq!(normalise_question("?!"), "");
    }
}
