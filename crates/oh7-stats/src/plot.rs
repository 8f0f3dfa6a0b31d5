//! Charts of the statistics, each written as PNG and SVG with plotters.
//!
//! PNG text is drawn with the DejaVu Sans font embedded in the crate (`assets/`, Bitstream Vera
//! license) through plotters' pure-Rust `ab_glyph` feature: no system font library is needed.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::estimate::{Cell, Hist, Mean};
use crate::oh7::{MAX_BET, Oh7Stats};
use crate::seven::{ACTION_CARDS, SevenStats};
use crate::{Rate, Stats};

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

const SIZE: (u32, u32) = (1000, 620);
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn register_font() {
    REGISTER.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            let _ = plotters::style::register_font("sans-serif", style, FONT);
        }
    });
}

/// One bar with its 95% interval.
#[derive(Clone, Copy, Debug)]
struct Bar {
    value: f64,
    lo: f64,
    hi: f64,
}

impl Bar {
    fn of(c: &Cell, scale: f64) -> Bar {
        Bar { value: c.value * scale, lo: c.lo * scale, hi: c.hi * scale }
    }
}

/// A grouped bar chart: one group per category, one bar per series in each group.
struct Bars {
    file: String,
    title: String,
    x_desc: String,
    y_desc: String,
    categories: Vec<String>,
    series: Vec<(String, Vec<Option<Bar>>)>,
    percent: bool,
}

/// A line chart (distributions).
struct Lines {
    file: String,
    title: String,
    x_desc: String,
    y_desc: String,
    series: Vec<(String, Vec<(f64, f64)>)>,
}

type DrawResult = Result<(), String>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// The chart area both kinds of chart use: a caption, margins and label areas around axes of `x`
/// and `y`.
type Chart2d<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn chart_on<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
    x: Range<f64>,
    y: Range<f64>,
) -> Result<Chart2d<'a, DB>, String> {
    ChartBuilder::on(root)
        .caption(title, ("sans-serif", 26))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y)
        .map_err(err)
}

/// The legend box, upper right.
fn draw_legend<'a, DB: DrawingBackend + 'a>(chart: &mut Chart2d<'a, DB>) -> DrawResult {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(err)
}

fn draw_bars<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, c: &Bars) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    let n = c.categories.len().max(1);
    let mut ymax = c.series.iter().flat_map(|(_, v)| v.iter().flatten().map(|b| b.hi.max(b.value))).fold(0.0, f64::max);
    let mut ymin = c.series.iter().flat_map(|(_, v)| v.iter().flatten().map(|b| b.lo.min(b.value))).fold(0.0, f64::min);
    if ymax <= ymin {
        ymax = ymin + 1.0;
    }
    let pad = (ymax - ymin) * 0.08;
    ymax += pad;
    if ymin < 0.0 {
        ymin -= pad;
    }
    let mut chart = chart_on(&root, &c.title, -0.5f64..(n as f64 - 0.5), ymin..ymax)?;
    let cats = c.categories.clone();
    let xfmt = move |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
            cats[i as usize].clone()
        } else {
            String::new()
        }
    };
    let percent = c.percent;
    let yfmt = move |y: &f64| if percent { format!("{y:.0}%") } else { format!("{y:.1}") };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n + 1)
        .x_label_formatter(&xfmt)
        .y_label_formatter(&yfmt)
        .x_desc(c.x_desc.as_str())
        .y_desc(c.y_desc.as_str())
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(err)?;
    let k = c.series.len().max(1) as f64;
    let width = 0.8 / k;
    for (j, (name, bars)) in c.series.iter().enumerate() {
        let colour = PALETTE[j % PALETTE.len()];
        let rects = bars.iter().enumerate().filter_map(|(i, b)| {
            let b = (*b)?;
            let x0 = i as f64 - 0.4 + j as f64 * width;
            Some(Rectangle::new([(x0 + 0.01, 0.0), (x0 + width - 0.01, b.value)], colour.mix(0.85).filled()))
        });
        let s = chart.draw_series(rects).map_err(err)?;
        if c.series.len() > 1 {
            s.label(name.as_str()).legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], colour.filled()));
        }
        let whiskers = bars.iter().enumerate().filter_map(|(i, b)| {
            let b = (*b)?;
            let xm = i as f64 - 0.4 + (j as f64 + 0.5) * width;
            (b.hi > b.lo).then(|| ErrorBar::new_vertical(xm, b.lo, b.value, b.hi, BLACK.stroke_width(1), 8))
        });
        chart.draw_series(whiskers).map_err(err)?;
    }
    if c.series.len() > 1 {
        draw_legend(&mut chart)?;
    }
    root.present().map_err(err)
}

fn draw_lines<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, c: &Lines) -> DrawResult {
    root.fill(&WHITE).map_err(err)?;
    let pts = || c.series.iter().flat_map(|(_, v)| v.iter());
    let (mut x0, mut x1) = pts().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    let ymax = pts().map(|p| p.1).fold(0.0, f64::max).max(1e-9) * 1.1;
    let mut chart = chart_on(&root, &c.title, x0..x1, 0.0..ymax)?;
    chart
        .configure_mesh()
        .x_desc(c.x_desc.as_str())
        .y_desc(c.y_desc.as_str())
        .y_label_formatter(&|y| format!("{y:.1}%"))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(err)?;
    for (j, (name, v)) in c.series.iter().enumerate() {
        let colour = PALETTE[j % PALETTE.len()];
        chart
            .draw_series(LineSeries::new(v.iter().copied(), colour.stroke_width(2)))
            .map_err(err)?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3)));
    }
    draw_legend(&mut chart)?;
    root.present().map_err(err)
}

enum Chart {
    Bars(Bars),
    Lines(Lines),
}

impl Chart {
    fn file(&self) -> &str {
        match self {
            Chart::Bars(b) => &b.file,
            Chart::Lines(l) => &l.file,
        }
    }
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> DrawResult {
        match self {
            Chart::Bars(b) => draw_bars(root, b),
            Chart::Lines(l) => draw_lines(root, l),
        }
    }
}

/// A histogram as a distribution line: (value, % of the total), grouping values into bins of
/// `bin` (the bin's lower end is shown).
fn hist_line(h: &Hist, bin: i64) -> Vec<(f64, f64)> {
    let total = h.total().max(1) as f64;
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (&k, &c) in &h.0 {
        let b = k.div_euclid(bin) * bin;
        match out.last_mut() {
            Some(last) if last.0 == b as f64 => last.1 += 100.0 * c as f64 / total,
            _ => out.push((b as f64, 100.0 * c as f64 / total)),
        }
    }
    out
}

fn bin_for(h: &Hist) -> i64 {
    match (h.0.keys().next(), h.0.keys().next_back()) {
        (Some(a), Some(b)) if b - a > 60 => ((b - a) / 50).max(1),
        _ => 1,
    }
}

fn hist_bars(h: &Hist) -> (Vec<String>, Vec<Option<Bar>>) {
    let total = h.total().max(1);
    let (Some(&lo), Some(&hi)) = (h.0.keys().next(), h.0.keys().next_back()) else { return (vec![], vec![]) };
    let mut cats = Vec::new();
    let mut bars = Vec::new();
    for k in lo..=hi {
        cats.push(k.to_string());
        let hits = h.0.get(&k).copied().unwrap_or(0);
        bars.push((hits > 0).then(|| Bar::of(&Rate { hits, n: total }.cell(), 100.0)));
    }
    (cats, bars)
}

/// A histogram as a bar chart of shares: `unit` names what is counted (`games`, …).
fn hist_chart(file: &str, title: String, x_desc: &str, unit: &str, h: &Hist) -> Chart {
    let (cats, bars) = hist_bars(h);
    Chart::Bars(Bars {
        file: file.into(),
        title,
        x_desc: x_desc.into(),
        y_desc: format!("{unit} (%)"),
        categories: cats,
        series: vec![(unit.into(), bars)],
        percent: true,
    })
}

/// Points per round by bot (seat name); with a single name, by seat.
fn points_chart<P>(
    file: &str,
    tag: &str,
    y_desc: &str,
    by_name: &BTreeMap<String, P>,
    by_seat: &[P],
    points: impl Fn(&P) -> &Mean,
) -> Chart {
    let (cats, bars): (Vec<String>, Vec<Option<Bar>>) = if by_name.len() > 1 {
        by_name.iter().map(|(n, p)| (n.clone(), Some(Bar::of(&points(p).cell(), 1.0)))).unzip()
    } else {
        let name = by_name.keys().next().cloned().unwrap_or_default();
        by_seat
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("seat {i} ({name})"), Some(Bar::of(&points(p).cell(), 1.0))))
            .unzip()
    };
    Chart::Bars(Bars {
        file: file.into(),
        title: format!("Points per round by bot ({tag})"),
        x_desc: if by_name.len() > 1 { "bot (seat name)".into() } else { "seat".into() },
        y_desc: y_desc.into(),
        categories: cats,
        series: vec![("points per round".into(), bars)],
        percent: false,
    })
}

fn oh7_charts(s: &Oh7Stats) -> Vec<Chart> {
    let mut charts = Vec::new();
    let what = match s.presets.keys().cloned().collect::<Vec<_>>().as_slice() {
        [one] => one.clone(),
        many => many.join("+"),
    };
    let players: Vec<String> = s.players.keys().map(|p| p.to_string()).collect();
    let tag = format!("{what}, {} players, {} games", players.join("/"), s.games);

    // Bet success by bet value, one series per seat name.
    let used: Vec<usize> = (0..=MAX_BET).filter(|&v| s.by_bet[v].n > 0).collect();
    let series: Vec<(String, Vec<Option<Bar>>)> = if s.by_name.len() > 1 {
        s.by_name
            .iter()
            .map(|(n, p)| {
                (
                    n.clone(),
                    used.iter().map(|&v| (p.by_bet[v].n > 0).then(|| Bar::of(&p.by_bet[v].cell(), 100.0))).collect(),
                )
            })
            .collect()
    } else {
        vec![("all players".into(), used.iter().map(|&v| Some(Bar::of(&s.by_bet[v].cell(), 100.0))).collect())]
    };
    charts.push(Chart::Bars(Bars {
        file: "bet_success".into(),
        title: format!("Bet success by bet value ({tag})"),
        x_desc: "bet (tricks announced)".into(),
        y_desc: "bets made (%), 95% interval".into(),
        categories: used.iter().map(|v| v.to_string()).collect(),
        series,
        percent: true,
    }));

    charts.push(points_chart(
        "points_per_round",
        &tag,
        "points per round, 95% interval",
        &s.by_name,
        &s.by_seat,
        |p| &p.points,
    ));
    charts.push(hist_chart(
        "rounds_per_game",
        format!("Rounds per game ({tag})"),
        "rounds in the game",
        "games",
        &s.rounds_per_game,
    ));

    let tr = s.trump_rates();
    charts.push(Chart::Bars(Bars {
        file: "trump_selection".into(),
        title: format!("Trump selection rate ({tag})"),
        x_desc: "trump suit".into(),
        y_desc: "rounds (%), 95% interval".into(),
        categories: tr.iter().map(|(s, _)| s.letter().to_string()).collect(),
        series: vec![("rounds".into(), tr.iter().map(|(_, r)| Some(Bar::of(&r.cell(), 100.0))).collect())],
        percent: true,
    }));

    let bin = bin_for(&s.final_hist).max(bin_for(&s.winner_score));
    let mut series = vec![
        ("final score, all players".to_string(), hist_line(&s.final_hist, bin)),
        ("final score, winners".to_string(), hist_line(&s.winner_score, bin)),
    ];
    if s.by_name.len() > 1 {
        for (n, p) in &s.by_name {
            series.push((format!("final score, {n}"), hist_line(&p.final_score, bin)));
        }
    }
    charts.push(Chart::Lines(Lines {
        file: "score_distribution".into(),
        title: format!("Final score distribution ({tag})"),
        x_desc: if bin > 1 { format!("final score (bins of {bin})") } else { "final score".into() },
        y_desc: "players (%)".into(),
        series,
    }));

    charts.push(hist_chart(
        "points_distribution",
        format!("Points per round, distribution ({tag})"),
        "points scored in a round",
        "player-rounds",
        &s.points_hist,
    ));
    charts
}

fn seven_charts(s: &SevenStats) -> Vec<Chart> {
    let mut charts = Vec::new();
    let players: Vec<String> = s.players.keys().map(|p| p.to_string()).collect();
    let tag = format!("Seven, {} players, {} games", players.join("/"), s.games);

    charts.push(hist_chart(
        "seven_rounds_per_game",
        format!("Rounds per game ({tag})"),
        "rounds in the game",
        "games",
        &s.rounds_per_game,
    ));
    charts.push(points_chart(
        "seven_points_per_round",
        &tag,
        "points added per round (lower is better), 95% interval",
        &s.by_name,
        &s.by_seat,
        |p| &p.points,
    ));

    let maxp = s.players.keys().copied().max().unwrap_or(2) as i64;
    let places: Vec<String> =
        (1..=maxp).map(|k| if k == maxp { "won".to_string() } else { format!("eliminated #{k}") }).collect();
    let series = (1..=maxp)
        .map(|k| {
            (
                places[(k - 1) as usize].clone(),
                s.by_seat.iter().map(|p| Some(Bar::of(&p.place.share(k).cell(), 100.0))).collect(),
            )
        })
        .collect();
    charts.push(Chart::Bars(Bars {
        file: "seven_elimination_order".into(),
        title: format!("Elimination order by seat ({tag})"),
        x_desc: "seat".into(),
        y_desc: "games (%), 95% interval".into(),
        categories: (0..s.by_seat.len()).map(|i| format!("seat {i}")).collect(),
        series,
        percent: true,
    }));

    let rounds = s.rounds.max(1) as f64;
    charts.push(Chart::Bars(Bars {
        file: "seven_action_cards".into(),
        title: format!("Action-card use ({tag})"),
        x_desc: "card played".into(),
        y_desc: "plays per round".into(),
        categories: ACTION_CARDS.iter().map(|c| c.to_string()).collect(),
        series: vec![(
            "plays per round".into(),
            (0..ACTION_CARDS.len())
                .map(|i| {
                    let v = s.plays[i] as f64 / rounds;
                    Some(Bar { value: v, lo: v, hi: v })
                })
                .collect(),
        )],
        percent: false,
    }));

    let bin = bin_for(&s.points_hist).max(5);
    charts.push(Chart::Lines(Lines {
        file: "seven_points_distribution".into(),
        title: format!("Points per round, distribution ({tag})"),
        x_desc: format!("points added in a round (bins of {bin})"),
        y_desc: "player-rounds (%)".into(),
        series: vec![("points per player per round".into(), hist_line(&s.points_hist, bin))],
    }));
    charts
}

/// Write every chart of `stats` into `dir` (created if missing) as PNG and SVG; returns the
/// files written.
pub fn write_charts(stats: &Stats, dir: &Path) -> Result<Vec<PathBuf>, String> {
    register_font();
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut charts = Vec::new();
    if stats.oh7.games > 0 {
        charts.extend(oh7_charts(&stats.oh7));
    }
    if stats.seven.games > 0 {
        charts.extend(seven_charts(&stats.seven));
    }
    let mut files = Vec::new();
    for c in &charts {
        let png = dir.join(format!("{}.png", c.file()));
        c.draw(BitMapBackend::new(&png, SIZE).into_drawing_area()).map_err(|e| format!("{}: {e}", png.display()))?;
        files.push(png);
        let svg = dir.join(format!("{}.svg", c.file()));
        c.draw(SVGBackend::new(&svg, SIZE).into_drawing_area()).map_err(|e| format!("{}: {e}", svg.display()))?;
        files.push(svg);
    }
    Ok(files)
}
