//! A result as shown: the positions of its best alignment traced back through the kept
//! matrix, as character offsets of the path as given, and a reason in words.

use super::request::PathMatch;
use super::scorer::Scorer;
use super::scratch::{Cut, Hit, Scratch};
use super::source::PathSource;

impl<'q> Scorer<'q> {
    /// Byte positions of the best alignment left in `scratch` by `align(.., true)`.
    pub(super) fn trace(&self, n: usize, m: usize, scratch: &Scratch) -> Vec<usize> {
        let last = &scratch.matrix[(m - 1) * n..m * n];
        let mut j = (0..n)
            .rev()
            .max_by(|&a, &b| last[a].total_cmp(&last[b]))
            .unwrap_or(0);
        let mut out = vec![j];
        for i in (1..m).rev() {
            j = scratch.back[i * n + j] as usize;
            out.push(j);
        }
        out.reverse();
        out
    }

    /// The full match object of a hit: positions as character offsets and a reason.
    pub(super) fn describe<S: PathSource>(
        &self,
        list: &S,
        hit: &Hit,
        scratch: &mut Scratch,
    ) -> PathMatch {
        let i = hit.index as usize;
        let full = list.given(i);
        let mut fold = std::mem::take(&mut scratch.fold);
        let Cut {
            path,
            text,
            name,
            cut,
            ..
        } = self.view(list, i, &mut fold);
        let q: Vec<u8> = if hit.dropped == u8::MAX {
            self.query.to_vec()
        } else {
            let k = hit.dropped as usize;
            [&self.query[..k], &self.query[k + 1..]].concat()
        };
        let bytes = match self.align(&q, path, text, name, scratch, true) {
            Some(_) => self.trace(path.len(), q.len(), scratch),
            None => Vec::new(),
        };
        let mut reason = describe_runs(path, &bytes, name);
        if hit.dropped != u8::MAX {
            let k = hit.dropped as usize;
            let shown = String::from_utf8_lossy(&self.query[k..k + 1]).into_owned();
            reason = format!(
                "one-letter typo (query letter {} `{shown}` unmatched); {reason}",
                k + 1
            );
        }
        // a multi-byte character matches byte by byte, `ß` as `ss`: report the character it
        // folds from once, as a character offset into the path as given
        let mut positions: Vec<u32> = Vec::with_capacity(bytes.len());
        let (mut seen, mut chars) = (0, 0);
        for &b in &bytes {
            let at = list.origin(i, cut + b);
            if !full.is_char_boundary(at) {
                continue;
            }
            chars += full[seen..at].chars().count() as u32;
            seen = at;
            if positions.last() != Some(&chars) {
                positions.push(chars);
            }
        }
        scratch.fold = fold;
        PathMatch {
            path: full.to_string(),
            score: (f64::from(hit.score) * 1000.0).round() / 1000.0,
            positions,
            reason,
        }
    }
}

/// "2 consecutive runs, boundary at `/` `_`, in file name".
fn describe_runs(path: &[u8], positions: &[usize], name: usize) -> String {
    if positions.is_empty() {
        return "subsequence match".into();
    }
    let runs = 1 + positions.windows(2).filter(|p| p[1] != p[0] + 1).count();
    let mut boundaries: Vec<String> = Vec::new();
    for &p in positions {
        let label = match p.checked_sub(1).map(|b| path[b]) {
            None => "start".to_string(),
            Some(c @ (b'/' | b'_' | b'-' | b'.' | b' ')) => format!("`{}`", c as char),
            _ => continue,
        };
        if !boundaries.contains(&label) {
            boundaries.push(label);
        }
    }
    let mut s = format!("{runs} consecutive run{}", if runs == 1 { "" } else { "s" });
    if !boundaries.is_empty() {
        s.push_str(&format!(", boundary at {}", boundaries.join(" ")));
    }
    if positions.iter().all(|&p| p >= name) {
        s.push_str(", in file name");
    }
    s
}
