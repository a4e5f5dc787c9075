//! The symbol tables of the segments merged into one, in the layout
//! `tree/symbol_table/mod.rs` describes, read in order and written as they are merged.
//!
//! The dictionaries are merged first (the sorted strings of every segment, each once): each
//! string's number in the merged table is its place, each segment's numbers are mapped to
//! those, and a string's symbol lists are the segments' lists one after the other, each
//! symbol moved by the symbols of the segments before. Then the table is written: the
//! counts, the files' starts, the records (their string renumbered, their name moved by the
//! names before), the merged arrays, and the names.

use super::{invalid, put_u32, read_u32, Scratch, Segment, SortedStrings, SpillWriter};
use crate::encoding::sorted_heads::{pop_holders, Heads};
use crate::tree::symbol_table::{Layout, COUNTS, RECORD};
use std::cmp::Reverse;
use std::io::{self, BufRead, Read, Write};

/// A segment's strings, read in order, with the symbol lists of each.
struct Strings<'a> {
    dictionary: SortedStrings<'a>,
    snakes: Lists<'a>,
    qualified: Lists<'a>,
}

/// A table's lists of symbols per string: the starts and the lists, read in order.
struct Lists<'a> {
    starts: Box<dyn BufRead + 'a>,
    list: Box<dyn BufRead + 'a>,
    at: u32,
}

impl<'a> Lists<'a> {
    /// The lists whose starts (one per string, and the end) and entries (`total`) are at
    /// `starts` and `list` of a table of `strings` strings.
    fn open(
        segment: &'a Segment,
        (starts, list): (usize, usize),
        strings: usize,
        total: usize,
    ) -> io::Result<Self> {
        let mut starts = segment.table_reader(starts..starts + (strings + 1) * 4)?;
        let at = read_u32(&mut starts)?;
        Ok(Lists {
            starts,
            list: segment.table_reader(list..list + total * 4)?,
            at,
        })
    }

    /// Copies the next string's list to `out`, each symbol moved by `base`; its length.
    fn copy_next(&mut self, base: u32, out: &mut dyn Write) -> io::Result<u32> {
        let end = read_u32(&mut self.starts)?;
        let n = end
            .checked_sub(self.at)
            .ok_or_else(|| invalid("symbol list starts out of order"))?;
        for _ in 0..n {
            let symbol = read_u32(&mut self.list)?;
            put_u32(out, base + symbol)?;
        }
        self.at = end;
        Ok(n)
    }
}

impl Strings<'_> {
    fn next(&mut self) -> io::Result<Option<Vec<u8>>> {
        self.dictionary.next()
    }
}

/// The layout of a segment's table, from its counts.
fn layout_of(segment: &Segment) -> io::Result<Layout> {
    let mut r = segment.table_reader(0..COUNTS * 4)?;
    let mut counts = [0usize; COUNTS];
    for c in counts.iter_mut() {
        *c = read_u32(&mut r)? as usize;
    }
    Layout::of(counts).ok_or_else(|| invalid("a symbol table whose counts do not fit"))
}

/// Writes the symbol table of every segment's files, in order, to `out`.
pub(in crate::tree) fn merge(
    segments: &[Segment],
    scratch: &Scratch,
    out: &mut dyn Write,
) -> io::Result<()> {
    let layouts: Vec<Layout> = segments.iter().map(layout_of).collect::<io::Result<_>>()?;
    // where each segment's symbols and names start in the merged table
    let (mut symbol_base, mut name_base) = (Vec::new(), Vec::new());
    let (mut symbols, mut names, mut files, mut qualified) = (0u32, 0u32, 0u32, 0u32);
    for l in &layouts {
        symbol_base.push(symbols);
        name_base.push(names);
        symbols += l.symbols as u32;
        names += l.names.len() as u32;
        files += l.files as u32;
        qualified += l.qualified as u32;
    }
    let merged = merge_strings(segments, &layouts, &symbol_base, scratch)?;
    for c in [
        files,
        symbols,
        merged.strings,
        qualified,
        merged.dictionary_bytes,
        names,
    ] {
        put_u32(out, c)?;
    }
    for ((segment, l), &base) in segments.iter().zip(&layouts).zip(&symbol_base) {
        let mut starts = segment.table_reader(l.file_start..l.file_start + l.files * 4)?;
        for _ in 0..l.files {
            put_u32(out, base + read_u32(&mut starts)?)?;
        }
    }
    put_u32(out, symbols)?;
    for (i, (segment, l)) in segments.iter().zip(&layouts).enumerate() {
        let mut records = segment.table_reader(l.record..l.record + l.symbols * RECORD)?;
        let mut record = [0u8; RECORD];
        for _ in 0..l.symbols {
            records.read_exact(&mut record)?;
            let u32_at = |at: usize| {
                u32::from_le_bytes([record[at], record[at + 1], record[at + 2], record[at + 3]])
            };
            let string = merged.numbers[i]
                .get(u32_at(0) as usize)
                .copied()
                .ok_or_else(|| invalid("a symbol's string out of its dictionary"))?;
            put_u32(out, string)?;
            put_u32(out, u32_at(4))?;
            put_u32(out, name_base[i] + u32_at(8))?;
            out.write_all(&record[12..])?;
        }
    }
    for part in merged.parts {
        part.finish()?.copy_to(out)?;
    }
    for (segment, l) in segments.iter().zip(&layouts) {
        io::copy(&mut segment.table_reader(l.names.clone())?, out)?;
    }
    Ok(())
}

/// The merged dictionary and what is built with it.
struct Merged {
    strings: u32,
    dictionary_bytes: u32,
    /// Per segment, the merged number of each of its strings.
    numbers: Vec<Vec<u32>>,
    /// The string starts, the snake list starts and lists, the qualifier list starts and
    /// lists, and the dictionary, in the table's order.
    parts: [SpillWriter; 6],
}

fn merge_strings(
    segments: &[Segment],
    layouts: &[Layout],
    symbol_base: &[u32],
    scratch: &Scratch,
) -> io::Result<Merged> {
    let mut open = Vec::with_capacity(segments.len());
    for (segment, l) in segments.iter().zip(layouts) {
        open.push(Strings {
            dictionary: SortedStrings::new(segment.table_reader(l.dictionary.clone())?, l.strings),
            snakes: Lists::open(
                segment,
                (l.snake_list_start, l.snake_list),
                l.strings,
                l.symbols,
            )?,
            qualified: Lists::open(
                segment,
                (l.qualifier_list_start, l.qualifier_list),
                l.strings,
                l.qualified,
            )?,
        });
    }
    let mut parts = [
        scratch.writer()?,
        scratch.writer()?,
        scratch.writer()?,
        scratch.writer()?,
        scratch.writer()?,
        scratch.writer()?,
    ];
    let mut heap = Heads::with_capacity(open.len());
    for (i, strings) in open.iter_mut().enumerate() {
        if let Some(s) = strings.next()? {
            heap.push(Reverse((s, i)));
        }
    }
    let mut numbers: Vec<Vec<u32>> = layouts
        .iter()
        .map(|l| Vec::with_capacity(l.strings))
        .collect();
    let (mut strings, mut dictionary_bytes, mut snakes, mut qualified) = (0u32, 0u32, 0u32, 0u32);
    let mut holders = Vec::new();
    // the lists in segment order: ascending symbols
    while let Some(string) = pop_holders(&mut heap, &mut holders) {
        let [string_start, snake_start, snake_list, qualifier_start, qualifier_list, dictionary] =
            &mut parts;
        put_u32(string_start, dictionary_bytes)?;
        dictionary.write_all(&string)?;
        dictionary.write_all(b"\n")?;
        dictionary_bytes += string.len() as u32 + 1;
        put_u32(snake_start, snakes)?;
        put_u32(qualifier_start, qualified)?;
        for &i in &holders {
            let s = &mut open[i];
            snakes += s.snakes.copy_next(symbol_base[i], snake_list)?;
            qualified += s.qualified.copy_next(symbol_base[i], qualifier_list)?;
            numbers[i].push(strings);
            if let Some(next) = s.next()? {
                heap.push(Reverse((next, i)));
            }
        }
        strings += 1;
    }
    put_u32(&mut parts[0], dictionary_bytes)?;
    put_u32(&mut parts[1], snakes)?;
    put_u32(&mut parts[3], qualified)?;
    Ok(Merged {
        strings,
        dictionary_bytes,
        numbers,
        parts,
    })
}
