//! Reports: sections of labelled rows of [`Cell`]s, shown as text tables, JSON or CSV, and the
//! side-by-side comparison of two reports.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::estimate::{Cell, CellKind, Z95};

/// A whole report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The sections, in order.
    pub sections: Vec<Section>,
}

/// One table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// A stable machine name (`oh7.players`, `seven.actions`, …).
    pub id: String,
    /// The title shown above the table.
    pub title: String,
    /// Column headers (the row label column not included).
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<Row>,
}

/// One row of a table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The row label.
    pub label: String,
    /// One cell per column (`None`: not applicable).
    pub cells: Vec<Option<Cell>>,
}

impl Section {
    /// An empty section.
    pub fn new(id: &str, title: &str, columns: &[&str]) -> Section {
        Section {
            id: id.to_string(),
            title: title.to_string(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }
    /// Append a row.
    pub fn row(&mut self, label: impl Into<String>, cells: Vec<Option<Cell>>) {
        self.rows.push(Row { label: label.into(), cells });
    }
    /// Append a row of cells that all apply.
    pub fn row_all(&mut self, label: impl Into<String>, cells: Vec<Cell>) {
        self.row(label, cells.into_iter().map(Some).collect());
    }
}

/// How many decimals a figure deserves given the half-width of its 95% interval: two
/// significant digits of the half-width (±0.16 → 2 decimals, ±1.5 → 1, ±23 → 0), at most 4.
pub fn decimals(half: f64) -> usize {
    if half.is_nan() || half <= 0.0 || !half.is_finite() {
        return 2;
    }
    (1 - half.log10().floor() as i64).clamp(0, 4) as usize
}

/// A cell as text: `43.2% ±0.5`, `1.25 ±0.03`, `1234`, rounded to what the interval justifies.
/// `ci` adds the ± half-width.
pub fn fmt_cell(c: &Cell, ci: bool) -> String {
    if c.n == 0 && c.kind != CellKind::Count {
        return "-".to_string();
    }
    let half = (c.hi - c.lo) / 2.0;
    match c.kind {
        CellKind::Rate => {
            let d = decimals(100.0 * half).min(2);
            if ci {
                format!("{:.d$}% ±{:.d$}", 100.0 * c.value, 100.0 * half)
            } else {
                format!("{:.d$}%", 100.0 * c.value)
            }
        }
        CellKind::Mean => {
            let d = decimals(half);
            if ci { format!("{:.d$} ±{:.d$}", c.value, half) } else { format!("{:.d$}", c.value) }
        }
        CellKind::Count if c.value.fract() == 0.0 => format!("{}", c.value as i64),
        CellKind::Count => format!("{:.2}", c.value),
    }
}

/// Lay out rows of strings as an aligned table (first column left-aligned, the others right).
pub fn layout(header: &[String], rows: &[Vec<String>]) -> String {
    let cols = header.len();
    let mut w = vec![0usize; cols];
    for r in std::iter::once(header).chain(rows.iter().map(|r| r.as_slice())) {
        for (i, s) in r.iter().enumerate().take(cols) {
            w[i] = w[i].max(s.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, r: &[String]| {
        let mut l = String::new();
        for (i, s) in r.iter().enumerate().take(cols) {
            let pad = w[i] - s.chars().count();
            if i == 0 {
                l.push_str(s);
                l.push_str(&" ".repeat(pad));
            } else {
                l.push_str("  ");
                l.push_str(&" ".repeat(pad));
                l.push_str(s);
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&mut out, header);
    let total: usize = w.iter().sum::<usize>() + 2 * (cols.saturating_sub(1));
    out.push_str(&"-".repeat(total));
    out.push('\n');
    for r in rows {
        line(&mut out, r);
    }
    out
}

impl Report {
    /// Readable tables; rates and means carry their 95% interval as `±half-width`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for s in &self.sections {
            let _ = writeln!(out, "== {} ==", s.title);
            let mut header = vec![String::new()];
            header.extend(s.columns.iter().cloned());
            let rows: Vec<Vec<String>> = s
                .rows
                .iter()
                .map(|r| {
                    let mut v = vec![r.label.clone()];
                    v.extend(r.cells.iter().map(|c| c.as_ref().map_or(String::new(), |c| fmt_cell(c, true))));
                    v
                })
                .collect();
            out.push_str(&layout(&header, &rows));
            out.push('\n');
        }
        out
    }

    /// JSON: every section with every cell (`value`, `lo`, `hi`, `se`, `n`, `kind`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a report serializes")
    }

    /// CSV, one line per cell: `section,row,column,value,lo,hi,n`.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("section,row,column,value,lo,hi,n\n");
        for s in &self.sections {
            for r in &s.rows {
                for (col, c) in s.columns.iter().zip(&r.cells) {
                    if let Some(c) = c {
                        let _ = writeln!(
                            out,
                            "{},{},{},{},{},{},{}",
                            csv_field(&s.id),
                            csv_field(&r.label),
                            csv_field(col),
                            num(c.value),
                            num(c.lo),
                            num(c.hi),
                            c.n
                        );
                    }
                }
            }
        }
        out
    }

    /// The section with this id.
    pub fn section(&self, id: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.id == id)
    }

    /// The cell of section `id`, row `row`, column `col`.
    pub fn cell(&self, id: &str, row: &str, col: &str) -> Option<Cell> {
        let s = self.section(id)?;
        let ci = s.columns.iter().position(|c| c == col)?;
        s.rows.iter().find(|r| r.label == row)?.cells.get(ci).copied().flatten()
    }
}

fn num(x: f64) -> String {
    if x.is_nan() { String::new() } else { format!("{x}") }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// One compared figure: A, B and the difference B − A with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    /// Section title.
    pub section: String,
    /// Row label.
    pub row: String,
    /// Column header.
    pub column: String,
    /// A's figure.
    pub a: Option<Cell>,
    /// B's figure.
    pub b: Option<Cell>,
    /// B − A.
    pub diff: Option<f64>,
    /// Lower end of the 95% interval of the difference (normal, independent samples).
    pub lo: Option<f64>,
    /// Upper end.
    pub hi: Option<f64>,
    /// Whether the interval excludes 0.
    pub significant: bool,
}

/// Compare two reports cell by cell (sections, rows and columns matched by name; cells only one
/// side has are kept with the other side empty).
pub fn compare(a: &Report, b: &Report) -> Vec<Diff> {
    let mut out = Vec::new();
    let mut ids: Vec<&str> = a.sections.iter().map(|s| s.id.as_str()).collect();
    for s in &b.sections {
        if !ids.contains(&s.id.as_str()) {
            ids.push(&s.id);
        }
    }
    for id in ids {
        let (sa, sb) = (a.section(id), b.section(id));
        let base = sa.or(sb).expect("one side has it");
        let mut rows: Vec<&str> = sa.map(|s| s.rows.iter().map(|r| r.label.as_str()).collect()).unwrap_or_default();
        if let Some(sb) = sb {
            for r in &sb.rows {
                if !rows.contains(&r.label.as_str()) {
                    rows.push(&r.label);
                }
            }
        }
        let mut cols: Vec<&str> = base.columns.iter().map(|c| c.as_str()).collect();
        if let Some(sb) = sb {
            for c in &sb.columns {
                if !cols.contains(&c.as_str()) {
                    cols.push(c);
                }
            }
        }
        for row in &rows {
            for col in &cols {
                let ca = a.cell(id, row, col);
                let cb = b.cell(id, row, col);
                if ca.is_none() && cb.is_none() {
                    continue;
                }
                let mut d = Diff {
                    section: base.title.clone(),
                    row: row.to_string(),
                    column: col.to_string(),
                    a: ca,
                    b: cb,
                    diff: None,
                    lo: None,
                    hi: None,
                    significant: false,
                };
                if let (Some(x), Some(y)) = (ca, cb)
                    && x.n > 0
                    && y.n > 0
                    && !x.value.is_nan()
                    && !y.value.is_nan()
                {
                    let diff = y.value - x.value;
                    d.diff = Some(diff);
                    if x.kind != CellKind::Count {
                        let se = (x.se * x.se + y.se * y.se).sqrt();
                        d.lo = Some(diff - Z95 * se);
                        d.hi = Some(diff + Z95 * se);
                        d.significant = se > 0.0 && (diff - Z95 * se > 0.0 || diff + Z95 * se < 0.0);
                    }
                }
                out.push(d);
            }
        }
    }
    out
}

fn fmt_diff(d: &Diff) -> String {
    let kind = d.a.or(d.b).map(|c| c.kind).unwrap_or(CellKind::Count);
    let Some(v) = d.diff else { return String::new() };
    let (k, unit) = if kind == CellKind::Rate { (100.0, " pts") } else { (1.0, "") };
    match (d.lo, d.hi) {
        (Some(lo), Some(hi)) => {
            let p = decimals(k * (hi - lo) / 2.0);
            let star = if d.significant { " *" } else { "" };
            format!("{:+.p$}{unit} [{:+.p$}, {:+.p$}]{star}", k * v, k * lo, k * hi)
        }
        // A count: whole, or two decimals for a figure without an interval.
        _ if v.fract() == 0.0 => format!("{:+}", v as i64),
        _ => format!("{:+.2}", v),
    }
}

/// The comparison as text, one table per section: A, B, B − A with its 95% interval (`*` when
/// the interval excludes 0; rate differences in percentage points).
pub fn compare_text(diffs: &[Diff], name_a: &str, name_b: &str) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < diffs.len() {
        let title = &diffs[i].section;
        let mut rows = Vec::new();
        while i < diffs.len() && &diffs[i].section == title {
            let d = &diffs[i];
            let label = if d.column.is_empty() || d.column == "value" {
                d.row.clone()
            } else {
                format!("{} / {}", d.row, d.column)
            };
            rows.push(vec![
                label,
                d.a.as_ref().map_or("-".into(), |c| fmt_cell(c, false)),
                d.b.as_ref().map_or("-".into(), |c| fmt_cell(c, false)),
                fmt_diff(d),
            ]);
            i += 1;
        }
        let _ = writeln!(out, "== {title} ==");
        let header = vec![String::new(), format!("A: {name_a}"), format!("B: {name_b}"), "B - A [95% CI]".into()];
        out.push_str(&layout(&header, &rows));
        out.push('\n');
    }
    out
}

/// The comparison as CSV: `section,row,column,a,b,diff,lo,hi,significant`.
pub fn compare_csv(diffs: &[Diff]) -> String {
    let mut out = String::from("section,row,column,a,b,diff,lo,hi,significant\n");
    let o = |x: Option<f64>| x.map_or(String::new(), num);
    for d in diffs {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            csv_field(&d.section),
            csv_field(&d.row),
            csv_field(&d.column),
            o(d.a.map(|c| c.value)),
            o(d.b.map(|c| c.value)),
            o(d.diff),
            o(d.lo),
            o(d.hi),
            d.significant
        );
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn figures_are_rounded_to_their_interval() {
        use super::decimals;
        assert_eq!(decimals(0.16), 2);
        assert_eq!(decimals(1.5), 1);
        assert_eq!(decimals(23.0), 0);
        assert_eq!(decimals(0.000_01), 4);
        // No interval: two decimals.
        assert_eq!(decimals(0.0), 2);
        assert_eq!(decimals(f64::NAN), 2);
    }

    use super::*;
    use crate::estimate::Rate;

    #[test]
    fn compare_flags_a_clear_difference_only() {
        let mut a = Report::default();
        let mut s = Section::new("t", "T", &["made"]);
        s.row_all("x", vec![Rate { hits: 300, n: 1000 }.cell()]);
        s.row_all("y", vec![Rate { hits: 500, n: 1000 }.cell()]);
        a.sections.push(s);
        let mut b = a.clone();
        b.sections[0].rows[0].cells[0] = Some(Rate { hits: 400, n: 1000 }.cell());
        b.sections[0].rows[1].cells[0] = Some(Rate { hits: 510, n: 1000 }.cell());
        let d = compare(&a, &b);
        assert_eq!(d.len(), 2);
        assert!(d[0].significant && (d[0].diff.unwrap() - 0.1).abs() < 1e-12);
        assert!(!d[1].significant);
        let text = compare_text(&d, "a", "b");
        assert!(text.contains("+10.0 pts [+5.8, +14.2] *"), "{text}");
        assert!(compare_csv(&d).lines().count() == 3);
    }

    #[test]
    fn text_json_csv() {
        let mut r = Report::default();
        let mut s = Section::new("t", "Title", &["rate", "count"]);
        s.row_all("row, one", vec![Rate { hits: 1, n: 4 }.cell(), Cell::count(7)]);
        r.sections.push(s);
        let t = r.to_text();
        assert!(t.contains("== Title =="));
        assert!(t.contains("25% ±"), "{t}");
        let csv = r.to_csv();
        assert!(csv.contains("t,\"row, one\",count,7,7,7,7"), "{csv}");
        let back: Report = serde_json::from_value(r.to_json()).unwrap();
        assert_eq!(back, r);
    }
}
