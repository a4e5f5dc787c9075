//! The page every report.html is: its inline stylesheet, title and metadata line around
//! the sections a run, a replay or a compare fills in.

use crate::report::escape::esc;

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1d2330; background: #fff; margin: 2rem auto; max-width: 1100px; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .6rem; padding-bottom: .25rem; border-bottom: 1px solid #d7dbe3; }
p.meta { color: #555e6e; margin: 0 0 1rem; }
.headline { display: flex; flex-wrap: wrap; gap: .8rem; margin: 1rem 0; }
.stat { border: 1px solid #d7dbe3; border-radius: 6px; padding: .5rem .9rem; min-width: 8rem; }
.stat b { display: block; font-size: 1.5rem; }
.stat .label { color: #555e6e; font-size: .85rem; }
.bad b { color: #b3261e; } .good b { color: #1e7b34; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #d7dbe3; padding: .25rem .55rem; text-align: left; vertical-align: top; }
th { background: #f2f4f8; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 600; }
svg { display: block; max-width: 100%; height: auto; margin: .4rem 0 1rem; }
svg text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: #1d2330; }
svg .axis { stroke: #8a93a3; stroke-width: 1; }
svg .grid { stroke: #e3e6ec; stroke-width: 1; }
.legend { font-size: .85rem; color: #555e6e; }
.swatch { display: inline-block; width: .8em; height: .8em; margin: 0 .3em 0 .8em; vertical-align: -.05em; }
.verdict-bad { color: #b3261e; font-weight: 600; } .verdict-good { color: #1e7b34; font-weight: 600; }
@media print { body { margin: 0; max-width: none; } section { break-inside: avoid; } h2 { break-after: avoid; } }
"#;

/// The whole page: `body` (sections, already HTML) under `title` and `meta`.
pub(super) fn page(title: &str, meta: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p class=\"meta\">{}</p>\n{body}</body>\n</html>\n",
        esc(title),
        esc(title),
        esc(meta)
    )
}
