//! The fingerprint of the engine's sources, computed by `engine/build.rs` from every
//! non-test source file: part of the header of the kept tree index (`tree/cache.rs`) and of
//! the kept ranking statistics (`retrieval/kept.rs`), so that a file kept by a build whose
//! code differs is rebuilt. No list of files is kept by hand.

include!(concat!(env!("OUT_DIR"), "/sources_fingerprint.rs"));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::fnv::fnv;
    use std::path::{Path, PathBuf};

    fn sources(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path: PathBuf = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                sources(&path, root, out);
            } else if name.ends_with(".rs") {
                out.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }

    /// Every source file that is not a test module is fingerprinted, including the ones
    /// that shape an index or the statistics (the symbol readers, the field split, the
    /// posting lists): a file added anywhere under `src/` is covered without a list.
    #[test]
    fn every_source_but_tests_is_fingerprinted() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        sources(&root, &root, &mut all);
        all.sort();
        let expected: Vec<&String> = all
            .iter()
            .filter(|f| !f.ends_with("/tests.rs") && !f.contains("/tests/"))
            .collect();
        assert_eq!(
            expected,
            FINGERPRINTED_SOURCES.iter().collect::<Vec<_>>(),
            "the fingerprinted files are not the crate's sources"
        );
        for shaping in [
            "tree/cache.rs",
            "tree/postings.rs",
            "tree/symbols/scanner.rs",
            "tree/symbols/python_text.rs",
            "retrieval/kept.rs",
            "retrieval/fields.rs",
            "retrieval/tokens.rs",
            "text/camel.rs",
        ] {
            assert!(
                FINGERPRINTED_SOURCES.contains(&shaping),
                "{shaping} shapes what is kept"
            );
        }
    }

    /// The fingerprint is the sources' bytes as they are now: a build that changed any
    /// of them has another.
    #[test]
    fn the_fingerprint_is_that_of_the_sources_bytes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let read: Vec<(Vec<u8>, Vec<u8>)> = FINGERPRINTED_SOURCES
            .iter()
            .map(|rel| {
                (
                    rel.as_bytes().to_vec(),
                    std::fs::read(root.join(rel)).unwrap(),
                )
            })
            .collect();
        let parts: Vec<&[u8]> = read
            .iter()
            .flat_map(|(name, bytes)| [name.as_slice(), bytes.as_slice()])
            .collect();
        assert_eq!(fnv(&parts), SOURCES_FINGERPRINT);
    }
}
