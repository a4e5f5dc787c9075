//! The kept statistics of a tree ([`super::kept`]'s file) written straight to disk, a
//! bounded number of postings in memory at a time, so that `findbench index` takes the
//! same memory for their statistics whatever the tree's size.
//!
//! The files are counted as [`super::bm25f::FieldIndex::build`] counts them (the same
//! batches, in file order); the postings gather in a segment until it holds a budget of
//! them, and the segment is then written, sorted by term, as a run to a temporary file
//! beside the kept one. The runs cover ascending ranges of files, so a term's list is its
//! part of the first run, then of the second, and so on: a k-way merge of the runs by term,
//! each read in order through a small buffer, writes the vocabulary, the term table and
//! the lists in the kept file's layout, byte for byte what [`super::kept::write`] writes
//! from the statistics built in memory (more runs than [`FAN_IN`] are first merged a group
//! at a time into larger runs, so that the files open at once stay few). Each file's field
//! lengths (16 bytes a file) go to a temporary file as they are counted, with their CRC,
//! and the sampled files' (`length_sample.rs`, chosen by their paths before the count) are
//! kept aside for the average lengths: nothing is held per file. The lengths, the table
//! and the lists are appended after the header and the vocabulary; the header, which
//! counts them, is written last. Every temporary file is removed, whether the write
//! succeeds or fails.

use super::counted_files::CountedFiles;
use super::file_counts::{file_terms, FileTerms, COUNT_BATCH};
use super::kept::{self, HEADER_BYTES};
use super::length_sample::{averages_of, length_sample, Sampled};
use super::posting::{Posting, NF};
use crate::encoding::fx_hash::FxBuild;
use crate::encoding::sorted_heads::{pop_holders, Heads};
use crate::encoding::varint::put_varint;
use crate::profile::Profile;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How many postings a segment holds before it is written as a run: 12 bytes each (12 MB),
/// with at most as many terms and their lists' spare room besides.
pub(super) const SEGMENT_POSTINGS: usize = 1_000_000;

/// How many runs are merged at once (each through an open file and its buffer).
const FAN_IN: usize = 64;

/// How many bytes of each run the merge holds.
const RUN_BUFFER: usize = 64 * 1024;

/// Temporary files, removed when dropped (a renamed one is already gone).
struct Temps(Vec<PathBuf>);

impl Temps {
    fn add(&mut self, path: &Path, what: &str) -> PathBuf {
        let temp = kept::temp_beside(path, what);
        self.0.push(temp.clone());
        temp
    }
}

impl Drop for Temps {
    fn drop(&mut self) {
        for temp in &self.0 {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Writes the statistics of `files` (a tree's, or an index's records) for `profile` under
/// `key` to `path`, a segment of at most about `segment_postings` postings in memory at a
/// time; how many runs the postings were written in, or why not.
pub(super) fn write<F: CountedFiles + ?Sized>(
    files: &F,
    profile: &Profile,
    path: &Path,
    key: u64,
    segment_postings: usize,
) -> Result<usize, String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut temps = Temps(Vec::new());
    let written = (|| -> io::Result<usize> {
        let counted = counted_in_runs(files, profile, path, segment_postings, &mut temps)?;
        let mut runs = counted.runs;
        let counted_runs = runs.len();
        // each run is read through an open file: many are merged a group at a time first
        while runs.len() > FAN_IN {
            let mut merged = Vec::with_capacity(runs.len().div_ceil(FAN_IN));
            for group in runs.chunks(FAN_IN) {
                merged.push(merge_runs(group, temps.add(path, "run"))?);
            }
            runs = merged;
        }
        let average = averages_of(files, &counted.sample);
        let merged = temps.add(path, "tmp");
        merge(
            &runs,
            path,
            key,
            counted.lengths,
            average,
            &mut temps,
            &merged,
        )?;
        std::fs::rename(&merged, path)?;
        Ok(counted_runs)
    })();
    drop(temps);
    written.map_err(|e| format!("{}: {e}", path.display()))
}

/// What the count of every file leaves for the merge.
struct Counted {
    /// The runs the postings were written in, in file order.
    runs: Vec<PathBuf>,
    /// Every file's field lengths, in file order, as the kept file holds them.
    lengths: Lengths,
    /// The sampled files' lengths and text bytes, for the average lengths.
    sample: Vec<Sampled>,
}

/// The field lengths written to a temporary file as they are counted.
struct Lengths {
    file: BufWriter<File>,
    files: usize,
    bytes: u64,
    crc: crc32fast::Hasher,
}

impl Lengths {
    fn push(&mut self, len: &[u32; NF]) -> io::Result<()> {
        let mut bytes = [0u8; NF * 4];
        for (out, v) in bytes.chunks_exact_mut(4).zip(len) {
            out.copy_from_slice(&v.to_le_bytes());
        }
        self.crc.update(&bytes);
        self.file.write_all(&bytes)?;
        self.files += 1;
        self.bytes += bytes.len() as u64;
        Ok(())
    }
}

/// Counts every file of `files` in order: postings to runs, lengths to a temporary file,
/// and the lengths of the files the average lengths are measured on.
fn counted_in_runs<F: CountedFiles + ?Sized>(
    files: &F,
    profile: &Profile,
    path: &Path,
    segment_postings: usize,
    temps: &mut Temps,
) -> io::Result<Counted> {
    let mut segment: HashMap<String, Vec<Posting>, FxBuild> = HashMap::default();
    let mut held = 0usize;
    let mut runs = Vec::new();
    // chosen by path before the count (ascending), so that only theirs are kept
    let chosen = length_sample(files, profile.task_ranking.length_sample);
    let mut chosen_lengths: Vec<[u32; NF]> = Vec::with_capacity(chosen.len());
    let mut lengths = Lengths {
        file: BufWriter::new(read_back(&temps.add(path, "lengths"))?),
        files: 0,
        bytes: 0,
        crc: crc32fast::Hasher::new(),
    };
    for start in (0..files.len()).step_by(COUNT_BATCH) {
        let batch = files.batch(start, COUNT_BATCH);
        let per_file: Vec<FileTerms> = batch.par_iter().map(|f| file_terms(f, profile)).collect();
        drop(batch);
        for (len, counts) in per_file {
            let file = lengths.files as u32;
            held += counts.len();
            for (term, tf) in counts {
                segment.entry(term).or_default().push(Posting { file, tf });
            }
            if chosen.get(chosen_lengths.len()) == Some(&lengths.files) {
                chosen_lengths.push(len);
            }
            lengths.push(&len)?;
            if held >= segment_postings.max(1) {
                runs.push(write_run(&mut segment, temps.add(path, "run"))?);
                held = 0;
            }
        }
        // the names counted are read from the mapped symbol table: its pages read so far
        // are not held for the rest of the pass
        files.release_pages();
    }
    if !segment.is_empty() {
        runs.push(write_run(&mut segment, temps.add(path, "run"))?);
    }
    let bytes = files.text_bytes_of(&chosen);
    let sample = chosen_lengths.into_iter().zip(bytes).collect();
    Ok(Counted {
        runs,
        lengths,
        sample,
    })
}

/// Writes `segment` (emptied) to `run`, sorted by term: for each term, its length and
/// bytes, its count of postings, and each posting (the file as a delta from the previous
/// one of the list, the first from 0).
fn write_run(
    segment: &mut HashMap<String, Vec<Posting>, FxBuild>,
    run: PathBuf,
) -> io::Result<PathBuf> {
    let mut terms: Vec<(String, Vec<Posting>)> = segment.drain().collect();
    terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut out = BufWriter::new(File::create(&run)?);
    let mut bytes = Vec::new();
    for (term, list) in terms {
        bytes.clear();
        put_varint(&mut bytes, term.len() as u32);
        bytes.extend_from_slice(term.as_bytes());
        put_varint(&mut bytes, list.len() as u32);
        let mut last = 0u32;
        for p in &list {
            kept::put_posting(&mut bytes, p.file - last, &p.tf);
            last = p.file;
        }
        out.write_all(&bytes)?;
    }
    out.flush()?;
    Ok(run)
}

/// One run read in order: its next term, once read.
struct Run {
    reader: BufReader<File>,
    term: Vec<u8>,
}

impl Run {
    /// Reads the next term into `self.term`; false at the end of the run.
    fn next_term(&mut self) -> io::Result<bool> {
        if self.reader.fill_buf()?.is_empty() {
            return Ok(false);
        }
        let len = read_varint(&mut self.reader)? as usize;
        self.term.resize(len, 0);
        io::Read::read_exact(&mut self.reader, &mut self.term)?;
        Ok(true)
    }
}

fn damaged_run() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "a run of postings does not decode",
    )
}

/// Reads a LEB128 varint (`encoding/varint.rs`) from `reader`.
fn read_varint(reader: &mut impl BufRead) -> io::Result<u32> {
    let mut value: u32 = 0;
    for shift in (0..35).step_by(7) {
        let b = *reader.fill_buf()?.first().ok_or_else(damaged_run)?;
        reader.consume(1);
        value |= u32::from(b & 0x7f)
            .checked_shl(shift)
            .ok_or_else(damaged_run)?;
        if b < 0x80 {
            return Ok(value);
        }
    }
    Err(damaged_run())
}

/// The runs at `paths`, open, and the heap of their first terms.
fn open_runs(paths: &[PathBuf]) -> io::Result<(Vec<Run>, Heads)> {
    let mut open: Vec<Run> = Vec::with_capacity(paths.len());
    let mut heap = Heads::new();
    for (r, path) in paths.iter().enumerate() {
        let mut run = Run {
            reader: BufReader::with_capacity(RUN_BUFFER, File::open(path)?),
            term: Vec::new(),
        };
        if run.next_term()? {
            heap.push(Reverse((std::mem::take(&mut run.term), r)));
        }
        open.push(run);
    }
    Ok((open, heap))
}

/// Reads a term's next posting of `run`: its file (after `file`) and its frequencies.
fn next_posting(run: &mut Run, file: u32) -> io::Result<(u32, [u16; NF])> {
    let file = file
        .checked_add(read_varint(&mut run.reader)?)
        .ok_or_else(damaged_run)?;
    let mut tf = [0u16; NF];
    for v in tf.iter_mut() {
        *v = u16::try_from(read_varint(&mut run.reader)?).map_err(|_| damaged_run())?;
    }
    Ok((file, tf))
}

/// Merges `paths`, runs of ascending file ranges, into one run at `run`, as [`write_run`]
/// would write their postings together.
fn merge_runs(paths: &[PathBuf], run: PathBuf) -> io::Result<PathBuf> {
    let (mut open, mut heap) = open_runs(paths)?;
    let mut out = BufWriter::new(File::create(&run)?);
    let mut bytes = Vec::new();
    let mut parts = Vec::new();
    while let Some(term) = pop_holders(&mut heap, &mut parts) {
        let mut counts = Vec::with_capacity(parts.len());
        for &r in &parts {
            counts.push(read_varint(&mut open[r].reader)?);
        }
        let total = counts.iter().try_fold(0u32, |a, &c| a.checked_add(c));
        bytes.clear();
        put_varint(&mut bytes, term.len() as u32);
        bytes.extend_from_slice(&term);
        put_varint(&mut bytes, total.ok_or_else(damaged_run)?);
        let mut last = 0u32;
        for (&r, &count) in parts.iter().zip(&counts) {
            let run = &mut open[r];
            let mut file = 0u32;
            for _ in 0..count {
                let tf;
                (file, tf) = next_posting(run, file)?;
                let step = file.checked_sub(last).ok_or_else(damaged_run)?;
                kept::put_posting(&mut bytes, step, &tf);
                last = file;
            }
            if run.next_term()? {
                heap.push(Reverse((std::mem::take(&mut run.term), r)));
            }
        }
        out.write_all(&bytes)?;
    }
    out.flush()?;
    Ok(run)
}

/// Merges `runs` by term into `merged`: the header (written last), the file lengths (copied
/// from their temporary file), the vocabulary, then the table and the lists, each written
/// to a temporary file of its own as the terms come and appended.
fn merge(
    runs: &[PathBuf],
    path: &Path,
    key: u64,
    lengths: Lengths,
    average: [f64; NF],
    temps: &mut Temps,
    merged: &Path,
) -> io::Result<()> {
    let mut out = BufWriter::new(File::create(merged)?);
    out.write_all(&[0u8; HEADER_BYTES])?;
    let (files, length_bytes, lengths_crc) = (lengths.files, lengths.bytes, lengths.crc);
    let mut written = lengths.file.into_inner().map_err(|e| e.into_error())?;
    written.seek(SeekFrom::Start(0))?;
    io::copy(&mut written, &mut out)?;
    drop(written);
    let mut table = BufWriter::new(read_back(&temps.add(path, "table"))?);
    let mut lists = BufWriter::new(read_back(&temps.add(path, "lists"))?);

    let (mut open, mut heap) = open_runs(runs)?;
    let (mut vocab_len, mut lists_len, mut terms) = (0u64, 0u64, 0usize);
    let (mut entry, mut posting) = (Vec::new(), Vec::new());
    let mut parts = Vec::new();
    while let Some(term) = pop_holders(&mut heap, &mut parts) {
        let (word_at, list_at) = (vocab_len, lists_len);
        out.write_all(&term)?;
        out.write_all(b"\n")?;
        vocab_len += term.len() as u64 + 1;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&term);
        let mut last = 0u32;
        for &r in &parts {
            let run = &mut open[r];
            let count = read_varint(&mut run.reader)?;
            let mut file = 0u32;
            for _ in 0..count {
                let tf;
                (file, tf) = next_posting(run, file)?;
                posting.clear();
                let step = file.checked_sub(last).ok_or_else(damaged_run)?;
                kept::put_posting(&mut posting, step, &tf);
                last = file;
                crc.update(&posting);
                lists.write_all(&posting)?;
                lists_len += posting.len() as u64;
            }
            if run.next_term()? {
                heap.push(Reverse((std::mem::take(&mut run.term), r)));
            }
        }
        entry.clear();
        kept::put_entry(&mut entry, word_at, list_at, crc.finalize());
        table.write_all(&entry)?;
        terms += 1;
    }
    // the sentinel: where the last word and list end
    entry.clear();
    kept::put_entry(&mut entry, vocab_len, lists_len, 0);
    table.write_all(&entry)?;
    let table_len = ((terms + 1) * entry.len()) as u64;
    for part in [table, lists] {
        let mut part = part.into_inner().map_err(|e| e.into_error())?;
        part.seek(SeekFrom::Start(0))?;
        io::copy(&mut part, &mut out)?;
    }
    let mut out = out.into_inner().map_err(|e| e.into_error())?;
    let parts = [length_bytes, vocab_len, table_len, lists_len];
    out.seek(SeekFrom::Start(0))?;
    out.write_all(&kept::header_of(
        key,
        terms,
        average,
        parts,
        files,
        &lengths_crc,
    ))?;
    Ok(())
}

/// A new file written, then read back from its start.
fn read_back(path: &Path) -> io::Result<File> {
    File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
}

#[cfg(test)]
#[path = "kept_runs_tests.rs"]
mod tests;
