//! `cases.jsonl` (or `cases.jsonl.gz`): one case a line, every field written
//! ([`crate::case_json`]), beside every results.json, whose `cases_file` names it. Read back
//! one line at a time: a line that is not a case (another version's, or cut short by a
//! killed writer) is an error naming the file, the line and the field.

use crate::case::CaseResult;
use crate::case_codec::{decode_case, CaseWire};
use crate::error::{HarnessError, Origin, Result};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The file name of the cases, plain or gzipped (`--out-compress`).
pub fn name(compress: bool) -> &'static str {
    crate::gzip_file::file_name("cases.jsonl", compress)
}

/// How to get a complete results directory: the hint of every error reading one.
pub const HOW_TO_GET_ONE: &str =
    "write one with `findbench run PATH... --out DIR` or `findbench replay TRACES... --out DIR` \
     (this version), and pass DIR or DIR/results.json";

/// A results document or cases file that cannot be used: what is wrong, where, and how to
/// get a complete one.
pub fn incomplete(origin: Origin, what: impl std::fmt::Display) -> HarnessError {
    HarnessError::invalid_at(
        origin,
        format!("{what}: not a complete findbench results.json and cases.jsonl"),
    )
    .with_hint(HOW_TO_GET_ONE)
}

/// The cases of a cases file, one line at a time.
pub struct CasesReader {
    path: PathBuf,
    lines: Box<dyn BufRead + Send>,
    line: usize,
    buf: Vec<u8>,
}

impl CasesReader {
    /// Opens `path` (gzip by its magic bytes, whatever its name).
    pub fn open(path: &Path) -> Result<CasesReader> {
        let file = std::fs::File::open(path).map_err(|e| {
            HarnessError::file(path, format!("cannot read cases: {e}")).with_hint(HOW_TO_GET_ONE)
        })?;
        let mut reader = std::io::BufReader::with_capacity(256 * 1024, file);
        let gzipped = reader
            .fill_buf()
            .map(|b| b.starts_with(&[0x1f, 0x8b]))
            .map_err(|e| HarnessError::file(path, format!("cannot read cases: {e}")))?;
        let lines: Box<dyn BufRead + Send> = if gzipped {
            Box::new(std::io::BufReader::with_capacity(
                256 * 1024,
                flate2::bufread::MultiGzDecoder::new(reader),
            ))
        } else {
            Box::new(reader)
        };
        Ok(CasesReader {
            path: path.to_path_buf(),
            lines,
            line: 0,
            buf: Vec::with_capacity(4096),
        })
    }

    /// The next case, or `None` at the end of the file.
    pub fn next_case(&mut self) -> Result<Option<CaseResult>> {
        loop {
            self.buf.clear();
            let read = self.lines.read_until(b'\n', &mut self.buf).map_err(|e| {
                HarnessError::file_at(
                    Origin::at(&self.path, self.line + 1, None),
                    format!("cannot read cases: {e}"),
                )
                .with_hint(HOW_TO_GET_ONE)
            })?;
            if read == 0 {
                return Ok(None);
            }
            self.line += 1;
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let origin = || Origin::at(&self.path, self.line, None);
            if !self.buf.ends_with(b"\n") {
                return Err(incomplete(origin(), "the last line is cut short"));
            }
            let wire: CaseWire = serde_json::from_slice(&self.buf).map_err(|e| {
                incomplete(origin(), crate::results_error::describe(&self.buf, &e).1)
            })?;
            let id = wire.id.clone();
            let case = decode_case(wire).map_err(|e| {
                let e = <serde_json::Error as serde::de::Error>::custom(e);
                let what = crate::results_error::describe(&self.buf, &e).1;
                incomplete(Origin::at(&self.path, self.line, id.as_deref()), what)
            })?;
            return Ok(Some(case));
        }
    }

    /// Lines read so far.
    pub fn line(&self) -> usize {
        self.line
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Iterator for CasesReader {
    type Item = Result<CaseResult>;

    fn next(&mut self) -> Option<Result<CaseResult>> {
        self.next_case().transpose()
    }
}

/// Every case of `path`; `expected` cases when the results.json says how many there are
/// (fewer or more is an error: a cases file cut at a line's end reads as whole otherwise).
pub fn read_all(path: &Path, expected: Option<usize>) -> Result<Vec<CaseResult>> {
    let mut reader = CasesReader::open(path)?;
    let mut cases = Vec::new();
    while let Some(case) = reader.next_case()? {
        cases.push(case);
    }
    check_count(&reader, cases.len(), expected)?;
    Ok(cases)
}

/// An error unless `read` cases are the `expected` ones.
pub fn check_count(reader: &CasesReader, read: usize, expected: Option<usize>) -> Result<()> {
    match expected {
        Some(n) if n != read => Err(incomplete(
            Origin::at(reader.path(), reader.line(), None),
            format!("{read} cases where its results.json counts {n}"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Status;

    fn case(id: &str) -> CaseResult {
        CaseResult {
            id: id.into(),
            status: Status::Pass,
            outcome: "success".into(),
            duration_ms: 1.5,
            ..CaseResult::default()
        }
    }

    fn jsonl(cases: &[CaseResult]) -> Vec<u8> {
        let mut out = Vec::new();
        for c in cases {
            serde_json::to_writer(&mut out, c).unwrap();
            out.push(b'\n');
        }
        out
    }

    #[test]
    fn plain_and_gzipped_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [case("a"), case("b")];
        let plain = dir.path().join("cases.jsonl");
        std::fs::write(&plain, jsonl(&cases)).unwrap();
        assert_eq!(read_all(&plain, Some(2)).unwrap(), cases);
        let gz = dir.path().join("cases.jsonl.gz");
        std::fs::write(&gz, crate::report::gzip::gzip(&jsonl(&cases)).unwrap()).unwrap();
        assert_eq!(read_all(&gz, None).unwrap(), cases);
    }

    #[test]
    fn a_cut_line_a_missing_field_and_a_short_file_name_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cases.jsonl");
        let text = jsonl(&[case("a"), case("b")]);
        std::fs::write(&path, &text[..text.len() - 9]).unwrap();
        let e = read_all(&path, None).unwrap_err();
        assert_eq!(e.exit_code(), crate::error::exit::INVALID);
        assert!(
            e.to_string()
                .contains("cases.jsonl:2: the last line is cut short"),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("not a complete findbench results.json"),
            "{e}"
        );
        std::fs::write(
            &path,
            "{\"id\":\"x\",\"outcome\":\"success\",\"duration_ms\":1}\n",
        )
        .unwrap();
        let e = read_all(&path, None).unwrap_err().to_string();
        assert!(
            e.contains("cases.jsonl:1: case `x`: field `status` is missing"),
            "{e}"
        );
        std::fs::write(
            &path,
            "{\"id\":\"x\",\"outcome\":\"success\",\"status\":\"pass\",\"duration_ms\":\"slow\"}\n",
        )
        .unwrap();
        let e = read_all(&path, None).unwrap_err().to_string();
        assert!(
            e.contains(
                "cases.jsonl:1: field `duration_ms`: expected a number, found the text \"slow\""
            ),
            "{e}"
        );
        std::fs::write(&path, jsonl(&[case("a")])).unwrap();
        let e = read_all(&path, Some(2)).unwrap_err().to_string();
        assert!(e.contains("1 cases where its results.json counts 2"), "{e}");
    }
}
