//! The legend under a chart: a colour swatch and a label per series.

use crate::report::escape::esc;
use std::fmt::Write;

pub(super) fn legend_html(legend: &[(&str, &str)]) -> String {
    let mut s = String::from("<p class=\"legend\">");
    for (color, label) in legend {
        let _ = write!(
            s,
            "<span class=\"swatch\" style=\"background:{color}\"></span>{}",
            esc(label)
        );
    }
    s.push_str("</p>\n");
    s
}
