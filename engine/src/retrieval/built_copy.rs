//! Built copies: a bundle or minified file holds every word of the sources it was built
//! from, and a source map holds their whole text, yet neither is where a change goes. What
//! makes a file one is seen in the tree and in its text, not in its directory's name:
//! - a source map beside it (`axios.js` and `axios.js.map`): a build wrote both; a map
//!   named for the file's stem (`axios.js` and `axios.map`, as older bundlers name it) is
//!   one when its text opens as a source map (a JSON object with `version` and `sources`);
//! - it is itself the source map of a file of the tree (`axios.js.map`);
//! - it is minified: its first bytes average at least `minified_line_bytes` a line.

use crate::tree::{Tree, TreeFile};

/// How much of a file's start is measured for minification.
const HEAD_BYTES: usize = 8192;

/// Why `file` is a built copy, when it is one.
pub fn built_copy(tree: &Tree, file: &TreeFile, minified_line_bytes: usize) -> Option<String> {
    if tree.file(&format!("{}.map", file.path)).is_some() {
        return Some("a source map beside it".into());
    }
    if let Some(map) = stem_map(tree, &file.path) {
        return Some(format!("a source map beside it (`{map}`)"));
    }
    if let Some(built) = file.path.strip_suffix(".map") {
        if tree.file(built).is_some() {
            return Some(format!("the source map of `{built}`"));
        }
    }
    if minified_line_bytes == 0 {
        return None;
    }
    let head = file.folded_head(HEAD_BYTES)?;
    // a file shorter than its head's size is measured whole; a last line cut by the head
    // counts as one
    let lines = head.lines().count().max(1);
    let per_line = head.len() / lines;
    (head.len() >= minified_line_bytes.min(HEAD_BYTES) && per_line >= minified_line_bytes)
        .then(|| format!("minified ({per_line} bytes a line)"))
}

/// The source map named for the stem of `path` (`dist/axios.map` for `dist/axios.js`), when
/// the tree holds one whose text opens as a source map.
fn stem_map(tree: &Tree, path: &str) -> Option<String> {
    let (stem, ext) = path.rsplit_once('.')?;
    if ext == "map" {
        return None;
    }
    let map_path = format!("{stem}.map");
    let head = tree.file(&map_path)?.folded_head(MAP_HEAD_BYTES)?;
    let opens = head.trim_start().starts_with('{');
    (opens && head.contains("\"version\"") && head.contains("\"sources\"")).then_some(map_path)
}

/// How much of a map's start is read to tell a source map: its `version` and `sources`
/// come first.
const MAP_HEAD_BYTES: usize = 512;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_source_maps_and_minified_files_are_copies_and_their_sources_are_not() {
        let source = "import { mergeConfig } from './mergeConfig.js';\n\
                      export default function request(config) {\n  return mergeConfig(config);\n}\n"
            .repeat(20);
        let bundle = format!("/*! axios v1 */\n(function () {{\n{source}}})();\n");
        let minified = format!(
            "/*! axios v1 | MIT */\n{}\n",
            "function r(e){return m(e)}var a=function(t,n){return t+n};".repeat(60)
        );
        let map = r#"{"version":3,"sources":["../lib/core/request.js"],"sourcesContent":["..."]}"#;
        let tree = Tree::from_memory(
            "t",
            [
                ("lib/core/request.js", source.as_str()),
                ("dist/axios.js", bundle.as_str()),
                ("dist/axios.js.map", map),
                ("dist/axios.min.js", minified.as_str()),
                ("dist/lone.js.map", map),
                ("dist/axios.amd.js", bundle.as_str()),
                ("dist/axios.amd.map", map),
                ("src/world.c", "int main(void) { return 0; }\n"),
                (
                    "src/world.map",
                    "Memory Configuration\nName Origin Length\n",
                ),
                ("src/level.c", "int level(void) { return 1; }\n"),
                ("src/level.map", r#"{"tiles": [1, 2], "size": 2}"#),
                ("src/linked.c", "int linked(void) { return 2; }\n"),
                (
                    "src/linked.map",
                    "\"version\" 2 of the \"sources\" linked\n",
                ),
                ("README.md", "# axios\n"),
            ],
        );
        let why = |path: &str| built_copy(&tree, tree.file(path).unwrap(), 250);
        assert_eq!(why("lib/core/request.js"), None);
        assert_eq!(why("README.md"), None);
        assert_eq!(why("dist/axios.js").unwrap(), "a source map beside it");
        assert_eq!(
            why("dist/axios.js.map").unwrap(),
            "the source map of `dist/axios.js`"
        );
        assert!(why("dist/axios.min.js").unwrap().starts_with("minified ("));
        // a map of no file of the tree is not known to be a copy
        assert_eq!(why("dist/lone.js.map"), None);
        // a map named for the stem, as older bundlers wrote it, when it is a source map
        assert_eq!(
            why("dist/axios.amd.js").unwrap(),
            "a source map beside it (`dist/axios.amd.map`)"
        );
        // a `.map` beside a file that is no source map (a linker's, a game's level: JSON,
        // or the words without the object) is not one; nor is the map itself
        assert_eq!(why("src/world.c"), None);
        assert_eq!(why("src/level.c"), None);
        assert_eq!(why("src/linked.c"), None);
        assert_eq!(why("dist/axios.amd.map"), None);
        // measured on its text: a limit no line reaches takes nothing as minified
        assert_eq!(
            built_copy(&tree, tree.file("dist/axios.min.js").unwrap(), 5000),
            None
        );
    }
}
