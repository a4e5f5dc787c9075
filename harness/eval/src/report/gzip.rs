//! `--out-compress`: the report files that grow with the number of cases (`cases.jsonl`,
//! `cases.csv`, `junit.xml`) written gzipped, under their name with `.gz`. One gzip member
//! per file, no name and no time in its header, so the bytes depend on the content alone
//! (`gzip -dc`, DuckDB, pandas and jq through `zcat` read them as they are).

use super::exporter::{Exporter, ReportContext};
use crate::error::Result;

pub use crate::gzip_file::{encoder, file_name, gzip, GZIPPED};

/// An exporter whose file is written gzipped, under its name with `.gz`.
pub struct Gzipped<E>(pub E);

impl<D: ?Sized, E: Exporter<D>> Exporter<D> for Gzipped<E> {
    fn file_name(&self) -> &'static str {
        file_name(self.0.file_name(), true)
    }

    fn render(&self, doc: &D, context: &ReportContext<'_>) -> Result<Vec<u8>> {
        let plain = self.0.render(doc, context)?;
        gzip(&plain).map_err(|e| crate::error::HarnessError::Internal(format!("gzip: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_same_content_gives_the_same_bytes_and_reads_back() {
        let text = b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n";
        let (a, b) = (gzip(text).unwrap(), gzip(text).unwrap());
        assert_eq!(a, b);
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&a[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text);
        assert_eq!(file_name("cases.csv", true), "cases.csv.gz");
        assert_eq!(file_name("cases.csv", false), "cases.csv");
        assert_eq!(file_name("summary.md", true), "summary.md");
    }
}
