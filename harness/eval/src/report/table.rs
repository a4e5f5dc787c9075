//! Every table of every report, drawn by `tabled`: GitHub-flavoured markdown (numbers
//! right-aligned with `--:`) for the `.md` files, and plain space-separated columns for the
//! console. A report builds a [`Table`] of strings; this module owns the layout.

use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Padding, Style};

/// How a column lines up: text left, numbers right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A header, its alignment and rows of cells (already formatted).
#[derive(Debug, Clone)]
pub struct Table {
    header: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table whose first column is left-aligned (names) and the others as given.
    pub fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            header: columns.iter().map(|(h, _)| h.to_string()).collect(),
            align: columns.iter().map(|(_, a)| *a).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row; cells beyond the header are dropped, missing ones are empty.
    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Table {
        let mut row: Vec<String> = cells.into_iter().map(|c| c.to_string()).collect();
        row.resize(self.header.len(), String::new());
        self.rows.push(row);
        self
    }

    /// Changes the alignment of column `i` (0-based).
    pub fn align(&mut self, i: usize, align: Align) -> &mut Table {
        if let Some(a) = self.align.get_mut(i) {
            *a = align;
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn build(&self, cell: impl Fn(&str) -> String) -> tabled::Table {
        let mut builder = Builder::default();
        builder.push_record(self.header.iter().map(|h| cell(h)));
        for row in &self.rows {
            builder.push_record(row.iter().map(|c| cell(c)));
        }
        let mut table = builder.build();
        for (i, a) in self.align.iter().enumerate() {
            if *a == Align::Right {
                table.modify(Columns::one(i), Alignment::right());
            }
        }
        table
    }

    /// The table in markdown, one line per row, `\n` after the last. Cells are escaped
    /// (`|` → `\|`, line breaks → spaces); right-aligned columns end their rule in `:`.
    pub fn markdown(&self) -> String {
        let mut table = self.build(md_cell);
        table.with(Style::markdown());
        let text = table.to_string();
        let mut out = String::with_capacity(text.len() + 8);
        for (i, line) in text.lines().enumerate() {
            if i == 1 {
                out.push_str(&self.rule(line));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
        out
    }

    /// The markdown rule line with `:` closing each right-aligned column.
    fn rule(&self, line: &str) -> String {
        let mut segments: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(str::to_string)
            .collect();
        for (segment, align) in segments.iter_mut().zip(&self.align) {
            if *align == Align::Right && segment.len() > 1 {
                segment.pop();
                segment.push(':');
            }
        }
        format!("|{}|", segments.join("|"))
    }

    /// The table for a terminal: columns two spaces apart, no borders, no trailing blanks.
    pub fn console(&self) -> String {
        let mut table = self.build(|c| c.replace('\n', " "));
        table.with(Style::empty()).with(Padding::new(0, 2, 0, 0));
        let mut out = String::new();
        for line in table.to_string().lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// A markdown table cell: `|` escaped, line breaks as spaces.
pub fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_pads_columns_and_marks_right_alignment() {
        let mut t = Table::new(&[("group", Align::Left), ("cases", Align::Right)]);
        t.row(["a|b", "7"]).row(["all", "12"]);
        assert_eq!(
            t.markdown(),
            "| group | cases |\n|------|------:|\n| a\\|b  |     7 |\n| all   |    12 |\n"
                .replace("|------|", "|-------|")
        );
    }

    #[test]
    fn console_columns_are_two_spaces_apart() {
        let mut t = Table::new(&[("suite", Align::Left), ("rate", Align::Right)]);
        t.row(["benchmark", "95.5%"]).row(["names", "100.0%"]);
        assert_eq!(
            t.console(),
            "suite        rate\nbenchmark   95.5%\nnames      100.0%\n"
        );
    }
}
