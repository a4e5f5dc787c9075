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

/// The user question a trace (or its replayed case) belongs to, as a hash: an imported
/// trace's id is `SESSION/CALL` and every search of one turn asks that turn's question, so
/// the session and the normalised question key it; an id without `/` is a question of its
/// own. Searches of one question count once in pass rates, flip tests and clusters.
pub fn turn_key(id: &str, query: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    // SipHash with fixed keys: deterministic within a process, which is all grouping needs
    let mut h = std::hash::DefaultHasher::new();
    match id.rsplit_once('/') {
        Some((session, _)) => {
            session.hash(&mut h);
            normalise_question(query).hash(&mut h);
        }
        None => {
            0u8.hash(&mut h);
            id.hash(&mut h);
        }
    }
    h.finish()
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
