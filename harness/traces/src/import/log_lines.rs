//! The lines of an agent log, one JSON value each: blank lines skipped, a line that is not
//! UTF-8 or not JSON handed on as the reason, with its 1-based number, so the reader counts
//! it and goes on.

use serde_json::Value;
use std::io::BufRead;

/// Calls `each` with every non-blank line's number and its JSON (or why it is not JSON).
/// An error only when the file stops reading.
pub fn for_each_line(
    reader: &mut dyn BufRead,
    mut each: impl FnMut(usize, Result<Value, String>),
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let mut line = 0usize;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        line += 1;
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = std::str::from_utf8(&buf)
            .map_err(|e| format!("not UTF-8 ({e})"))
            .and_then(|text| {
                let text = text.trim_start_matches('\u{feff}').trim_end();
                serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))
            });
        each(line, parsed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lines_skips_blanks_and_names_what_is_not_json() {
        let mut seen = Vec::new();
        let text = "{\"a\":1}\n\n  \nnot json\n\u{feff}[2]";
        for_each_line(&mut text.as_bytes(), |n, v| seen.push((n, v))).unwrap();
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[0], (1, Ok(serde_json::json!({"a": 1}))));
        assert_eq!(seen[1].0, 4);
        assert!(seen[1].1.as_ref().unwrap_err().starts_with("not JSON"));
        assert_eq!(seen[2], (5, Ok(serde_json::json!([2]))));
    }
}
