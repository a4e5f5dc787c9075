//! The charts of report.html, as inline SVG built by hand: a latency histogram on a log
//! scale with the budget as a line, horizontal rate bars (0–100%), grouped count bars and
//! recall against the context budget as lines.
//! A few rectangles, lines and text labels each; every drawn number carries `data-metric`
//! and `data-value` like the page's tables.
//!
//! A file per chart ([`latency_histogram`], [`rate_bars`], [`count_bars`], [`recall_curve`]), with the
//! [`legend`] under a chart and the bar type and colours they share ([`palette`]).

pub mod count_bars;
pub mod latency_histogram;
pub mod legend;
pub mod palette;
pub mod rate_bars;
pub mod recall_curve;
