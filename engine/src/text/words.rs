//! Word boundaries in folded text.

/// A word is a maximal run of alphanumeric characters; these are byte ranges into the text.
pub fn word_spans(text: &str) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            if start.is_none() {
                start = Some(i);
            }
        } else if let Some(s) = start.take() {
            spans.push((s as u32, i as u32));
        }
    }
    if let Some(s) = start {
        spans.push((s as u32, text.len() as u32));
    }
    spans
}

/// The words of `text` (as [`word_spans`] finds them), in order, without allocating: what a
/// query walks instead of keeping every field's spans in memory. ASCII text is scanned byte
/// by byte (the common case, and the hot loop of typo matching).
pub fn words(text: &str) -> Words<'_> {
    Words {
        text,
        at: 0,
        ascii: text.is_ascii(),
    }
}

/// Iterator of [`words`].
pub struct Words<'a> {
    text: &'a str,
    at: usize,
    ascii: bool,
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        if self.ascii {
            while self.at < bytes.len() && !bytes[self.at].is_ascii_alphanumeric() {
                self.at += 1;
            }
            if self.at == bytes.len() {
                return None;
            }
            let start = self.at;
            while self.at < bytes.len() && bytes[self.at].is_ascii_alphanumeric() {
                self.at += 1;
            }
            return Some(&self.text[start..self.at]);
        }
        let rest = &self.text[self.at..];
        let mut chars = rest.char_indices();
        let Some(start) = chars
            .by_ref()
            .find(|(_, c)| c.is_alphanumeric())
            .map(|(i, _)| i)
        else {
            self.at = self.text.len();
            return None;
        };
        let end = chars
            .find(|(_, c)| !c.is_alphanumeric())
            .map_or(rest.len(), |(i, _)| i);
        self.at += end;
        Some(&rest[start..end])
    }
}

/// True when the character ending just before byte `at` is not alphanumeric (or `at` is 0).
pub fn is_boundary_before(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric())
}

/// True when the character starting at byte `at` is not alphanumeric (or `at` is the end).
pub fn is_boundary_after(text: &str, at: usize) -> bool {
    text[at..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_split_on_punctuation() {
        let t = "fix auth-bug, now";
        let words: Vec<&str> = word_spans(t)
            .iter()
            .map(|&(s, e)| &t[s as usize..e as usize])
            .collect();
        assert_eq!(words, ["fix", "auth", "bug", "now"]);
        for t in [t, "", "  ", "émail ßig—x9 ", "a"] {
            let spans: Vec<&str> = word_spans(t)
                .iter()
                .map(|&(s, e)| &t[s as usize..e as usize])
                .collect();
            assert_eq!(super::words(t).collect::<Vec<_>>(), spans, "{t:?}");
        }
    }

    #[test]
    fn boundaries() {
        let t = "reauth auth";
        assert!(is_boundary_before(t, 0));
        assert!(!is_boundary_before(t, 2));
        assert!(is_boundary_before(t, 7));
        assert!(is_boundary_after(t, 6));
        assert!(!is_boundary_after(t, 3));
    }
}
