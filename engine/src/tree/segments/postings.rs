//! The posting lists of the segments merged into one set of the four tables
//! `tree/postings.rs` describes, read in order and written as they are merged: the
//! vocabularies merged word by word, and a word's list the segments' lists one after the
//! other. A list starts with its first file's number and goes on in gaps; a segment's part
//! after the first starts with the gap from the last file of the part before.

use super::{invalid, put_u32, read_u32, Scratch, Segment, SortedStrings, SpillWriter, Spilled};
use crate::encoding::sorted_heads::{pop_holders, Heads};
use crate::encoding::varint::{get_varint, put_varint};
use std::cmp::Reverse;
use std::io::{self, BufRead, Read, Write};

/// A segment's words and their lists, read in order.
struct Words<'a> {
    vocabulary: SortedStrings<'a>,
    offsets: Box<dyn BufRead + 'a>,
    lists: Box<dyn BufRead + 'a>,
    at: u32,
}

impl Words<'_> {
    fn next(&mut self) -> io::Result<Option<Vec<u8>>> {
        self.vocabulary.next()
    }

    /// Reads the next word's list into `list`.
    fn list(&mut self, list: &mut Vec<u8>) -> io::Result<()> {
        let end = read_u32(&mut self.offsets)?;
        let n = end
            .checked_sub(self.at)
            .ok_or_else(|| invalid("posting list offsets out of order"))?;
        list.resize(n as usize, 0);
        self.lists.read_exact(list)?;
        self.at = end;
        Ok(())
    }
}

/// The posting tables of every segment's files, in order: the vocabulary, the word starts,
/// the list offsets and the lists, each spilled through `scratch`.
pub(in crate::tree) fn merge(segments: &[Segment], scratch: &Scratch) -> io::Result<[Spilled; 4]> {
    let mut open = Vec::with_capacity(segments.len());
    for segment in segments {
        let mut offsets = segment.postings_reader(2)?;
        let at = read_u32(&mut offsets)?;
        open.push(Words {
            vocabulary: SortedStrings::new(segment.postings_reader(0)?, segment.words()),
            offsets,
            lists: segment.postings_reader(3)?,
            at,
        });
    }
    let [mut vocabulary, mut starts, mut offsets, mut lists]: [SpillWriter; 4] = [
        scratch.writer()?,
        scratch.writer()?,
        scratch.writer()?,
        scratch.writer()?,
    ];
    let mut heap = Heads::with_capacity(open.len());
    for (i, words) in open.iter_mut().enumerate() {
        if let Some(w) = words.next()? {
            heap.push(Reverse((w, i)));
        }
    }
    let (mut vocabulary_at, mut lists_at) = (0u32, 0u32);
    let (mut holders, mut list, mut gap) = (Vec::new(), Vec::new(), Vec::new());
    // the parts in segment order: ascending files
    while let Some(word) = pop_holders(&mut heap, &mut holders) {
        put_u32(&mut starts, vocabulary_at)?;
        vocabulary.write_all(&word)?;
        vocabulary.write_all(b"\n")?;
        vocabulary_at += word.len() as u32 + 1;
        put_u32(&mut offsets, lists_at)?;
        let mut last: Option<u32> = None;
        for &i in &holders {
            let words = &mut open[i];
            words.list(&mut list)?;
            let mut at = 0;
            let first = get_varint(&list, &mut at).ok_or_else(|| invalid("an empty list"))?;
            let first_len = at;
            let mut file = first;
            while at < list.len() {
                let step = get_varint(&list, &mut at).ok_or_else(|| invalid("a damaged list"))?;
                file = file
                    .checked_add(step)
                    .ok_or_else(|| invalid("a list past the last file"))?;
            }
            let written = match last {
                None => {
                    lists.write_all(&list)?;
                    list.len()
                }
                Some(before) => {
                    let step = first
                        .checked_sub(before)
                        .filter(|&s| s > 0)
                        .ok_or_else(|| invalid("segments out of file order"))?;
                    gap.clear();
                    put_varint(&mut gap, step);
                    lists.write_all(&gap)?;
                    lists.write_all(&list[first_len..])?;
                    gap.len() + list.len() - first_len
                }
            };
            lists_at += written as u32;
            last = Some(file);
            if let Some(next) = words.next()? {
                heap.push(Reverse((next, i)));
            }
        }
    }
    put_u32(&mut offsets, lists_at)?;
    Ok([
        vocabulary.finish()?,
        starts.finish()?,
        offsets.finish()?,
        lists.finish()?,
    ])
}
