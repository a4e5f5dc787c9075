//! What the index walk finds, sorted by path in bounded memory: the files ([`Listed`]) and
//! the directories and ignore files it stamps ([`Stamp`]). The walk's workers hand over
//! what they find a few thousand entries at a time; once that holds about a segment's bytes
//! (`tree/segments/mod.rs`) it is sorted and spilled as a run through the build's scratch,
//! and the runs are merged k ways as the build reads the files, or writes the stamps, in
//! path order (`tree/index_build.rs`). What fits in one run is sorted in memory and never
//! spilled. Either way the build never holds an entry for every file or directory of the
//! tree.

use super::segments::{Scratch, Spilled};
use super::stamp::Stamp;
use crate::encoding::sorted_heads::{pop_holders, Heads};
use std::cmp::Reverse;
use std::io::{self, BufRead, Read, Write};

/// One file the index walk found: its path as shown, its size and mtime, and why its
/// metadata could not be read, if it could not. Whether its record is read again or taken
/// from the last index is decided as the build meets it in path order
/// (`tree/reused_records.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Listed {
    pub path: String,
    pub size: u64,
    pub mtime: i64,
    pub failed: Option<String>,
}

/// An entry the walk finds, as a run holds and spills it.
pub(super) trait RunEntry: Sized {
    /// The path runs are sorted by: distinct among the entries of one walk.
    fn path(&self) -> &str;
    /// What holding it costs, roughly: the entry, its strings and an allocator's word each.
    fn held_bytes(&self) -> usize;
    fn write_to(&self, out: &mut dyn Write) -> io::Result<()>;
    /// The next entry of a run; `None` at its end.
    fn read_from(input: &mut dyn BufRead) -> io::Result<Option<Self>>;
}

impl RunEntry for Listed {
    fn path(&self) -> &str {
        &self.path
    }

    fn held_bytes(&self) -> usize {
        let failed = self.failed.as_ref().map_or(0, |why| why.len() + 16);
        std::mem::size_of::<Listed>() + self.path.len() + 16 + failed
    }

    fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        write_stat(out, &self.path, self.size, self.mtime)?;
        match &self.failed {
            None => out.write_all(&[0]),
            Some(why) => {
                out.write_all(&[1])?;
                write_bytes(out, why.as_bytes())
            }
        }
    }

    fn read_from(input: &mut dyn BufRead) -> io::Result<Option<Listed>> {
        let Some((path, size, mtime)) = read_stat(input)? else {
            return Ok(None);
        };
        let failed = match read_array::<1>(input)?[0] {
            0 => None,
            1 => Some(read_string(input)?),
            _ => return Err(invalid("a spilled walk entry of no known kind")),
        };
        Ok(Some(Listed {
            path,
            size,
            mtime,
            failed,
        }))
    }
}

impl RunEntry for Stamp {
    fn path(&self) -> &str {
        &self.path
    }

    fn held_bytes(&self) -> usize {
        std::mem::size_of::<Stamp>() + self.path.len() + 16
    }

    fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        write_stat(out, &self.path, self.size, self.mtime)?;
        match self.names {
            None => out.write_all(&[0]),
            Some(names) => {
                out.write_all(&[1])?;
                out.write_all(&names.to_le_bytes())
            }
        }
    }

    fn read_from(input: &mut dyn BufRead) -> io::Result<Option<Stamp>> {
        let Some((path, size, mtime)) = read_stat(input)? else {
            return Ok(None);
        };
        let names = match read_array::<1>(input)?[0] {
            0 => None,
            1 => Some(u64::from_le_bytes(read_array(input)?)),
            _ => return Err(invalid("a spilled stamp of no known kind")),
        };
        Ok(Some(Stamp {
            path,
            size,
            mtime,
            names,
        }))
    }
}

/// What every entry starts with: its path, size and mtime.
fn write_stat(out: &mut dyn Write, path: &str, size: u64, mtime: i64) -> io::Result<()> {
    write_bytes(out, path.as_bytes())?;
    out.write_all(&size.to_le_bytes())?;
    out.write_all(&mtime.to_le_bytes())
}

/// The path, size and mtime an entry starts with; `None` at the end of a run.
fn read_stat(input: &mut dyn BufRead) -> io::Result<Option<(String, u64, i64)>> {
    if input.fill_buf()?.is_empty() {
        return Ok(None);
    }
    let path = read_string(input)?;
    let size = u64::from_le_bytes(read_array(input)?);
    let mtime = i64::from_le_bytes(read_array(input)?);
    Ok(Some((path, size, mtime)))
}

fn write_bytes(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    let len = u32::try_from(bytes.len()).map_err(|_| invalid("a path over 4 GiB"))?;
    out.write_all(&len.to_le_bytes())?;
    out.write_all(bytes)
}

fn read_array<const N: usize>(input: &mut dyn BufRead) -> io::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    input.read_exact(&mut bytes)?;
    Ok(bytes)
}

fn read_string(input: &mut dyn BufRead) -> io::Result<String> {
    let len = u32::from_le_bytes(read_array(input)?) as usize;
    let mut bytes = Vec::with_capacity(len.min(1 << 16));
    input.take(len as u64).read_to_end(&mut bytes)?;
    if bytes.len() != len {
        return Err(invalid("a spilled walk entry cut short"));
    }
    String::from_utf8(bytes).map_err(|_| invalid("a spilled path not UTF-8"))
}

fn invalid(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why)
}

/// What the walk found so far: the entries held, and the runs spilled.
pub(super) struct FoundRuns<T> {
    scratch: Scratch,
    run_bytes: usize,
    held: Vec<T>,
    held_bytes: usize,
    runs: Vec<Spilled>,
    /// How many entries were taken.
    count: usize,
    /// The first spill that failed: the build then fails, and is done again in memory.
    failed: Option<io::Error>,
}

impl<T: RunEntry> FoundRuns<T> {
    /// Entries spilled through `scratch` in sorted runs of about `run_bytes`.
    pub(super) fn new(scratch: Scratch, run_bytes: usize) -> FoundRuns<T> {
        FoundRuns {
            scratch,
            run_bytes: run_bytes.max(1),
            held: Vec::new(),
            held_bytes: 0,
            runs: Vec::new(),
            count: 0,
            failed: None,
        }
    }

    /// How many entries were taken.
    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// Takes every entry of `found`, spilling a run when the entries held reach the bound.
    pub(super) fn take(&mut self, found: &mut Vec<T>) {
        self.count += found.len();
        self.held_bytes += found.iter().map(T::held_bytes).sum::<usize>();
        self.held.append(found);
        if self.held_bytes >= self.run_bytes {
            self.spill_held();
        }
    }

    /// Spills the entries held when a run was spilled already: they would otherwise be
    /// held until merged, and what fits in one run stays in memory.
    pub(super) fn settle(&mut self) {
        if !self.runs.is_empty() && !self.held.is_empty() {
            self.spill_held();
        }
    }

    fn spill_held(&mut self) {
        if self.failed.is_none() {
            if let Err(e) = self.spill() {
                self.failed = Some(e);
            }
        }
    }

    fn spill(&mut self) -> io::Result<()> {
        let mut held = std::mem::take(&mut self.held);
        self.held_bytes = 0;
        // paths are distinct: unstable is deterministic
        held.sort_unstable_by(|a, b| a.path().cmp(b.path()));
        let mut out = self.scratch.writer()?;
        for entry in &held {
            entry.write_to(&mut out)?;
        }
        drop(held);
        self.runs.push(out.finish()?);
        Ok(())
    }

    /// The entries in path order: those held when nothing was spilled, else every run
    /// (the rest held spilled as the last) merged.
    pub(super) fn sorted(mut self) -> io::Result<SortedFound<T>> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        if self.runs.is_empty() {
            let mut held = std::mem::take(&mut self.held);
            held.sort_unstable_by(|a, b| a.path().cmp(b.path()));
            return Ok(SortedFound::Held(held.into_iter()));
        }
        if !self.held.is_empty() {
            self.spill()?;
        }
        let mut merged = Merged {
            readers: Vec::with_capacity(self.runs.len()),
            next: Vec::with_capacity(self.runs.len()),
            heads: Heads::with_capacity(self.runs.len()),
            holders: Vec::new(),
        };
        for run in self.runs {
            merged.readers.push(run.into_reader()?);
            merged.next.push(None);
            merged.advance(merged.readers.len() - 1)?;
        }
        Ok(SortedFound::Merged(merged))
    }
}

/// The runs merged k ways (`encoding/sorted_heads.rs`): each run's next entry, its path
/// among the heads.
pub(super) struct Merged<T> {
    readers: Vec<Box<dyn BufRead>>,
    next: Vec<Option<T>>,
    heads: Heads,
    holders: Vec<usize>,
}

impl<T: RunEntry> Merged<T> {
    /// Reads run `run`'s next entry, its path pushed among the heads.
    fn advance(&mut self, run: usize) -> io::Result<()> {
        let next = T::read_from(&mut *self.readers[run])?;
        if let Some(entry) = &next {
            self.heads
                .push(Reverse((entry.path().as_bytes().to_vec(), run)));
        }
        self.next[run] = next;
        Ok(())
    }
}

/// The walk's entries in path order.
pub(super) enum SortedFound<T> {
    Held(std::vec::IntoIter<T>),
    Merged(Merged<T>),
}

impl<T: RunEntry> Iterator for SortedFound<T> {
    type Item = io::Result<T>;

    fn next(&mut self) -> Option<io::Result<T>> {
        match self {
            SortedFound::Held(held) => held.next().map(Ok),
            SortedFound::Merged(m) => {
                // paths are distinct: the one run holding the smallest
                pop_holders(&mut m.heads, &mut m.holders)?;
                let run = *m.holders.first()?;
                let entry = m.next[run].take()?;
                match m.advance(run) {
                    Ok(()) => Some(Ok(entry)),
                    Err(e) => Some(Err(e)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(i: usize) -> Listed {
        Listed {
            path: format!("d{}/f{i:04}.rs", i % 5),
            size: (i as u64) << 33 | 5,
            mtime: i as i64 * 1_000_000_007 - 3,
            failed: (i % 3 == 1).then(|| format!("denied é {i}")),
        }
    }

    /// Entries handed over in any order, a few at a time, come back sorted by path and
    /// whole, whether held, spilled to files or spilled to memory.
    #[test]
    fn entries_come_back_in_path_order_whole_however_they_were_spilled() {
        let dir = tempfile::tempdir().unwrap();
        let all: Vec<Listed> = (0..500).map(|i| listed((i * 37) % 500)).collect();
        let mut want = all.clone();
        want.sort_by(|a, b| a.path.cmp(&b.path));
        for (run_bytes, scratch) in [
            (usize::MAX, Scratch::memory()),
            (2000, Scratch::in_dir(dir.path().into(), "t")),
            (1, Scratch::memory()),
        ] {
            let mut runs = FoundRuns::new(scratch, run_bytes);
            for chunk in all.chunks(7) {
                runs.take(&mut chunk.to_vec());
            }
            let spilled = runs.runs.len();
            let got: Vec<Listed> = runs.sorted().unwrap().map(Result::unwrap).collect();
            assert_eq!(got, want, "runs of {run_bytes} bytes");
            match run_bytes {
                usize::MAX => assert_eq!(spilled, 0),
                _ => assert!(spilled > 10, "{spilled} runs of {run_bytes} bytes"),
            }
        }
        // the spilled files are removed once opened to be merged
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    fn stamp(path: &str) -> Stamp {
        Stamp {
            path: path.into(),
            size: 4096,
            mtime: 7,
            names: Some(9),
        }
    }

    /// What holding a stamp costs grows with its path, byte for byte, above the entry's size.
    #[test]
    fn a_stamps_cost_is_its_entry_and_its_path() {
        let (short, long) = (
            stamp("a").held_bytes(),
            stamp(&"a".repeat(101)).held_bytes(),
        );
        assert_eq!(long - short, 100);
        assert!(short > std::mem::size_of::<Stamp>(), "{short}");
    }

    /// What holding a walk entry costs: the entry, its path and its failure's reason, each
    /// string with an allocator's word (16 bytes) beside it.
    #[test]
    fn a_walk_entrys_cost_is_its_entry_its_path_and_its_reason() {
        let entry = |path: &str, failed: Option<&str>| Listed {
            path: path.into(),
            size: 1,
            mtime: 2,
            failed: failed.map(str::to_string),
        };
        let size = std::mem::size_of::<Listed>();
        assert_eq!(entry("abc", None).held_bytes(), size + 3 + 16);
        assert_eq!(
            entry("abc", Some("denied")).held_bytes(),
            size + 3 + 16 + 6 + 16
        );
    }

    /// Once a run is spilled, `settle` spills what is held too, so that nothing is held
    /// until the merge; what fits in one run stays in memory. Either way the stamps come
    /// back sorted and whole.
    #[test]
    fn settling_spills_what_is_held_only_once_a_run_was_spilled() {
        let all: Vec<Stamp> = (0..40)
            .map(|i| stamp(&format!("d{}", (i * 7) % 40)))
            .collect();
        let mut want = all.clone();
        want.sort_by(|a, b| a.path.cmp(&b.path));
        // a run of about 20 stamps: the first 30 spilled by `take`, the last 10 held
        let run = 20 * stamp("d10").held_bytes();
        let mut runs = FoundRuns::new(Scratch::memory(), run);
        for chunk in all.chunks(15) {
            runs.take(&mut chunk.to_vec());
        }
        assert_eq!((runs.runs.len(), runs.held.len()), (1, 10));
        runs.settle();
        assert_eq!((runs.runs.len(), runs.held.len()), (2, 0));
        assert_eq!(runs.len(), 40);
        let got: Vec<Stamp> = runs.sorted().unwrap().map(Result::unwrap).collect();
        assert_eq!(got, want);
        let mut held = FoundRuns::new(Scratch::memory(), usize::MAX);
        held.take(&mut all.clone());
        held.settle();
        assert_eq!((held.runs.len(), held.held.len()), (0, 40));
        let got: Vec<Stamp> = held.sorted().unwrap().map(Result::unwrap).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_run_cut_short_is_an_error_not_an_end() {
        let mut bytes = Vec::new();
        listed(1).write_to(&mut bytes).unwrap();
        listed(2).write_to(&mut bytes).unwrap();
        let cut = &bytes[..bytes.len() - 2];
        let mut input: &[u8] = cut;
        assert_eq!(Listed::read_from(&mut input).unwrap(), Some(listed(1)));
        assert!(Listed::read_from(&mut input).is_err());
        let mut input: &[u8] = &[];
        assert_eq!(Listed::read_from(&mut input).unwrap(), None);
    }
}
