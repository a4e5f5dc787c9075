//! What the charts share: a bar (value, colour, results.json path) and the colours.

/// One bar: its value, colour and the results.json path of the value.
pub(crate) type Bar = (f64, &'static str, String);

/// A labelled group of bars.
pub(crate) type BarGroup = (String, Vec<Bar>);

pub(crate) const PASS: &str = "#2f8f4e";
pub(crate) const IE: &str = "#e08a1e";
pub(crate) const FAIL: &str = "#c23b33";
pub(crate) const BEFORE: &str = "#8a93a3";
pub(crate) const AFTER: &str = "#2f6fbf";
pub(crate) const BUDGET: &str = "#c23b33";

/// The colours of a chart's lines, in order (a series past the last takes the first again).
pub(crate) const SERIES: [&str; 6] = [AFTER, PASS, IE, FAIL, BEFORE, "#7a4fbf"];
