//! Reading the best candidates until one holds evidence: a read's evidence counts only when
//! the file holds enough of the question (its held share, the rarer words weighing most,
//! `confidence.rs`); a file that holds less is read and set aside as weak.

use super::calls::{Cascade, Tool};
use super::confidence;
use super::found::AskMatch;
use super::read::{read_file, Read, Reading};
use crate::profile::Profile;
use crate::text::term::Term;
use crate::tree::Tree;

/// What a read looks for: the term its lines must mention, the question's terms as the
/// ranking makes them, and each term's weight in the held share.
pub(super) struct Sought<'a> {
    pub term: &'a Term,
    pub terms: &'a [String],
    pub weights: &'a [f64],
}

/// The read an answer's confidence is of: the share of the question it held, and whether
/// its file was ranked by a task's words (which the calibration tells apart).
#[derive(Debug, Clone, Copy)]
pub(super) struct Best {
    pub held_share: f64,
    pub ranked: bool,
}

/// Every read of a cascade: the reads and the evidence that counted, the read the
/// answer's confidence is of (the selected file, else the read whose evidence held the
/// largest share), and how many reads held evidence below the profile's share.
#[derive(Default)]
pub(super) struct Reads {
    pub reading: Reading,
    pub best: Option<Best>,
    pub weak: usize,
}

impl Reads {
    /// True once a read's evidence counted.
    pub fn answered(&self) -> bool {
        self.reading.evidence.is_some()
    }

    /// True when `path` was read already.
    fn has_read(&self, path: &str) -> bool {
        self.reading.reads.iter().any(|r| r.path == path)
    }
}

/// Reads up to `planner.read_attempts` of `matches`, best first, skipping files read
/// already, until one's evidence counts or the cascade's budget is spent.
pub(super) fn read_best(
    tree: &Tree,
    matches: &[AskMatch],
    sought: &Sought<'_>,
    profile: &Profile,
    cascade: &mut Cascade,
    reads: &mut Reads,
) {
    let rules = &profile.planner;
    let unread = matches.iter().filter(|m| !reads.has_read(&m.path));
    for m in unread.take(rules.read_attempts.max(1)).collect::<Vec<_>>() {
        if !cascade.take(Tool::Read, &m.path) {
            break;
        }
        let Read {
            mut result,
            evidence,
            held,
        } = read_file(tree, m, sought.term, sought.terms, profile);
        let held_share = confidence::held_share(sought.weights, &held);
        let enough = held_share >= rules.min_held_share;
        let this = Best {
            held_share,
            ranked: m.ranked,
        };
        if evidence.is_some() {
            if reads.best.is_none_or(|b| held_share > b.held_share) {
                reads.best = Some(this);
            }
            if !enough {
                reads.weak += 1;
                result.evidence = false;
                result.note = format!(
                    "{}; held share {held_share:.2}, below {:.2}: the question's rarer words are not in it",
                    result.note, rules.min_held_share
                );
            }
        }
        let counts = evidence.is_some() && enough;
        cascade.found(usize::from(counts));
        reads.reading.reads.push(result);
        if counts {
            reads.reading.evidence = evidence;
            reads.best = Some(this);
            break;
        }
    }
}
