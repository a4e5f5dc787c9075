//! gzip for the report files that grow with the number of cases: their names when
//! compressed and the encoder, below every module that writes or reads them.

use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::Write;

/// The files `--out-compress` writes gzipped, and their names then.
pub const GZIPPED: [(&str, &str); 3] = [
    ("cases.jsonl", "cases.jsonl.gz"),
    ("cases.csv", "cases.csv.gz"),
    ("junit.xml", "junit.xml.gz"),
];

/// The name `name` is written under: with `.gz` when compressed and it is one of
/// [`GZIPPED`].
pub fn file_name(name: &'static str, compress: bool) -> &'static str {
    match GZIPPED.iter().find(|(plain, _)| *plain == name) {
        Some((_, gz)) if compress => gz,
        _ => name,
    }
}

/// A gzip stream into `w`. The fast level: a million-trace replay's case files shrink
/// tenfold at it, while the default level would take several times longer for a few
/// percent more.
pub fn encoder<W: Write>(w: W) -> GzEncoder<W> {
    flate2::GzBuilder::new().write(w, Compression::fast())
}

/// `bytes` gzipped.
pub fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut e = encoder(Vec::with_capacity(bytes.len() / 4 + 64));
    e.write_all(bytes)?;
    e.finish()
}
