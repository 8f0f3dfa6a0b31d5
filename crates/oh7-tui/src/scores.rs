//! The score table by round, one column per player, drawn the same way for Oh 7 and Seven: the
//! latest rounds that fit, then the totals. Columns narrow from 6 to 5 characters when the table
//! would not fit, and the box takes the width its columns need, so that no column is cut at 80
//! columns (9 players at the most).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

/// One player's points in one round, with a one-character mark after them (`✓`: made the bet
/// in Oh 7, went out in Seven; a space for none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The points, or `-` for a seat that did not play the round.
    pub text: String,
    /// The mark.
    pub mark: char,
}

/// A score table: the column names, the rounds (number and one cell per player), the totals.
#[derive(Clone, Debug, Default)]
pub struct ScoreTable {
    /// The players' names (`You`, `P1`, …), at most 4 characters.
    pub names: Vec<String>,
    /// The finished rounds, oldest first.
    pub rounds: Vec<(u32, Vec<Cell>)>,
    /// The totals now.
    pub totals: Vec<i64>,
    /// What the marks mean, shown under the totals when there is room (all the rounds shown,
    /// and the width).
    pub legend: Option<String>,
}

/// The round-number column and the two borders.
const FIXED: u16 = 3 + 2;
/// The narration beside the table keeps at least this many columns.
const LOG_MIN: u16 = 20;

/// The width of a score box for `players` in a row of `width` columns (the rest goes to the
/// narration): a third to a half of the row with 6-character columns when they fit there,
/// otherwise as wide as 5-character columns need.
pub fn box_width(players: usize, width: u16) -> u16 {
    let n = players as u16;
    let base = (6 * n + 6).min(width / 2).max(width / 3);
    if FIXED + 6 * n <= base { base } else { base.max(FIXED + 5 * n).min(width.saturating_sub(LOG_MIN)) }
}

/// The column width that fits in a box `width` wide.
fn column(players: usize, width: u16) -> usize {
    if FIXED + 6 * players as u16 <= width { 6 } else { 5 }
}

/// Draw `table` in `area` under `title`.
pub fn draw(f: &mut Frame, area: Rect, title: String, table: &ScoreTable) {
    let n = table.names.len();
    let col = column(n, area.width);
    let mut lines = Vec::new();
    let mut head = "#  ".to_string();
    for name in &table.names {
        head += &format!("{name:>col$}");
    }
    lines.push(Line::styled(head, Style::default().fg(Color::DarkGray)));
    let legend = table.legend.as_ref().filter(|l| {
        area.height as usize >= table.rounds.len() + 5 && l.chars().count() <= area.width.saturating_sub(2) as usize
    });
    let room = (area.height as usize).saturating_sub(4 + legend.is_some() as usize);
    let rounds = &table.rounds;
    for (number, cells) in rounds.iter().skip(rounds.len().saturating_sub(room)) {
        let mut l = format!("{number:<3}");
        for c in cells {
            l += &format!("{:>w$}{}", c.text, c.mark, w = col - 1);
        }
        lines.push(Line::from(l));
    }
    let mut tot = "Σ  ".to_string();
    for t in &table.totals {
        tot += &format!("{t:>w$} ", w = col - 1);
    }
    lines.push(Line::styled(tot, Style::default().add_modifier(Modifier::BOLD)));
    if let Some(l) = legend {
        lines.push(Line::styled(l.clone(), Style::default().fg(Color::DarkGray)));
    }
    f.render_widget(Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)), area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_character_columns_where_they_fit_five_otherwise() {
        // 100 columns, 4 players: the width the table always had.
        assert_eq!(box_width(4, 100), 33);
        assert_eq!(column(4, 33), 6);
        // 80 columns, 6 players: 6-character columns need 41 of the 40; 5-character ones fit.
        assert_eq!(box_width(6, 80), 40);
        assert_eq!(column(6, 40), 5);
        // 80 columns, 9 players: the box grows to what 5-character columns need.
        assert_eq!(box_width(9, 80), 50);
        assert_eq!(column(9, 50), 5);
        for n in 2..=9 {
            let w = box_width(n, 80);
            assert!(FIXED + column(n, w) as u16 * n as u16 <= w, "{n} players at 80 columns");
            assert!(80 - w >= LOG_MIN);
        }
    }
}
