//! The graph of a game's values: black's disc difference under perfect
//! play (or its estimate) before each move, as `wthor analyze` computes
//! it.
//!
//! ```text
//!  +64 ┤
//!      │ estimated ~, depth 16 ╎ exact
//!      │      ╭╮      exact part solid, estimates dashed
//!    0 ┼──────╯╰──╮───────────  the area above 0 dark (black ahead),
//!      │          ╰─●           below light (white ahead)
//!  -64 ┤            ↑ a mistake: a red dot, the largest ones labelled
//!      0   10   20   30   40   50   60
//! ```

use std::fmt::Write as _;

use crate::svg::{FONT, xml_escape};

/// The width of the picture, in SVG units (pixels at the natural size).
const WIDTH: u32 = 720;
/// The height of the picture.
const HEIGHT: u32 = 300;
/// The plot's place in the picture.
const LEFT: f64 = 48.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 30.0;
/// The values drawn: -64..=64 discs (a larger value is drawn at the edge).
const RANGE: f64 = 64.0;

/// One point of the graph: the position before a move (or the end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// Black's value: disc difference under perfect play, or an estimate.
    pub value: i32,
    /// Whether the value is exact (solved) rather than estimated.
    pub exact: bool,
    /// The plies of the search that estimated it (`None` when exact, or
    /// not known).
    pub depth: Option<u32>,
    /// The discs the move played from here lost (0 for a best move and for
    /// the final position), from the mover's side.
    pub loss: i32,
}

/// A game's graph: its points in order, the last one the final position;
/// a title (the game) written above.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Graph {
    /// The points, one per move and the final position.
    pub points: Vec<Point>,
    /// The text above the plot, if any.
    pub title: Option<String>,
    /// Mistakes lost at least this many discs to get a red dot (0: every
    /// move that lost discs).
    pub mistake_from: i32,
    /// The largest mistakes labelled with their move and loss.
    pub labels: usize,
}

/// The SVG drawing of `graph` (a complete document, ending with a line
/// end): black's value against the move number, the area above zero dark
/// (black ahead) and below light (white ahead), the estimated part of the
/// line dashed (labelled with the depths of its search) and the exact part
/// solid, mistakes as red dots.
#[must_use]
pub fn graph_svg(graph: &Graph) -> String {
    let n = graph.points.len().max(2) - 1;
    let plot_w = f64::from(WIDTH) - LEFT - RIGHT;
    let plot_h = f64::from(HEIGHT) - TOP - BOTTOM;
    let x = |i: usize| LEFT + plot_w * i as f64 / n as f64;
    let y = |v: i32| TOP + plot_h * (RANGE - f64::from(v).clamp(-RANGE, RANGE)) / (2.0 * RANGE);
    let zero = y(0);
    let mut s = String::with_capacity(8 * 1024);
    // `write!` to a String cannot fail.
    let _ = writeln!(
        s,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}, sans-serif" font-weight="bold">
<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbfaf7"/>"##
    );
    if let Some(title) = &graph.title {
        let t = xml_escape(title);
        let _ = writeln!(
            s,
            r##"<title>{t}</title>
<text x="{LEFT}" y="21" font-size="14" fill="#333333">{t}</text>"##
        );
    }
    // The grid: every 16 discs, every 10 moves.
    for v in (-64..=64).step_by(16) {
        let at = y(v);
        let (stroke, width) = if v == 0 {
            ("#555555", 1.5)
        } else {
            ("#e2ded6", 1.0)
        };
        let _ = writeln!(
            s,
            r##"<path d="M{LEFT:.1} {at:.1}H{:.1}" stroke="{stroke}" stroke-width="{width}"/>
<text x="{:.1}" y="{:.1}" font-size="11" fill="#666666" text-anchor="end">{}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            at + 4.0,
            if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            }
        );
    }
    for i in (0..=n).step_by(10) {
        let _ = writeln!(
            s,
            r##"<path d="M{:.1} {TOP:.1}V{:.1}" stroke="#e2ded6"/>
<text x="{:.1}" y="{:.1}" font-size="11" fill="#666666" text-anchor="middle">{i}</text>"##,
            x(i),
            TOP + plot_h,
            x(i),
            TOP + plot_h + 17.0
        );
    }
    if graph.points.is_empty() {
        s.push_str("</svg>\n");
        return s;
    }
    // Where the exact part begins: a band behind it and its label.
    if let Some(first) = graph.points.iter().position(|p| p.exact) {
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{TOP:.1}" width="{:.1}" height="{plot_h:.1}" fill="#2e8b57" fill-opacity="0.07"/>
<text x="{:.1}" y="{:.1}" font-size="11" fill="#2e6b47">exact</text>"##,
            x(first),
            x(n) - x(first),
            x(first) + 4.0,
            TOP + 12.0
        );
    }
    // The estimates' depths, written over their part when it has room.
    let depths = || {
        graph
            .points
            .iter()
            .filter(|p| !p.exact)
            .filter_map(|p| p.depth)
    };
    if let (Some(low), Some(high)) = (depths().min(), depths().max()) {
        let first_exact = graph.points.iter().position(|p| p.exact);
        if first_exact.is_none_or(|i| x(i) - LEFT >= 140.0) {
            let label = if low == high {
                format!("estimated ~, depth {low}")
            } else {
                format!("estimated ~, depths {low}–{high}")
            };
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#6b6658">{label}</text>"##,
                LEFT + 4.0,
                TOP + 12.0
            );
        }
    }
    // The areas: the line closed on the zero axis, clipped above and below.
    let mut line = String::new();
    for (i, p) in graph.points.iter().enumerate() {
        let _ = write!(
            line,
            "{}{:.1} {:.1}",
            if i == 0 { "M" } else { "L" },
            x(i),
            y(p.value)
        );
    }
    let last = graph.points.len() - 1;
    let _ = writeln!(
        s,
        r##"<clipPath id="above"><rect x="0" y="0" width="{WIDTH}" height="{zero:.1}"/></clipPath>
<clipPath id="below"><rect x="0" y="{zero:.1}" width="{WIDTH}" height="{HEIGHT}"/></clipPath>
<path d="{line}L{:.1} {zero:.1}L{:.1} {zero:.1}Z" fill="#222222" fill-opacity="0.75" clip-path="url(#above)"/>
<path d="{line}L{:.1} {zero:.1}L{:.1} {zero:.1}Z" fill="#c9c4b8" fill-opacity="0.8" clip-path="url(#below)"/>"##,
        x(last),
        x(0),
        x(last),
        x(0)
    );
    // The line: dashed between estimates, solid once exact.
    for (i, pair) in graph.points.windows(2).enumerate() {
        let dash = if pair[1].exact {
            ""
        } else {
            r#" stroke-dasharray="4 3""#
        };
        let _ = writeln!(
            s,
            r##"<path d="M{:.1} {:.1}L{:.1} {:.1}" stroke="#1b5e3a" stroke-width="2"{dash}/>"##,
            x(i),
            y(pair[0].value),
            x(i + 1),
            y(pair[1].value)
        );
    }
    // The mistakes, the largest labelled.
    let mut mistakes: Vec<(usize, &Point)> = graph
        .points
        .iter()
        .enumerate()
        .filter(|(_, p)| p.loss > 0 && p.loss >= graph.mistake_from)
        .collect();
    for &(i, p) in &mistakes {
        let _ = writeln!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="4" fill="#e53935" stroke="#ffffff" stroke-width="1"/>"##,
            x(i + 1),
            y(graph.points.get(i + 1).unwrap_or(p).value)
        );
    }
    mistakes.sort_by_key(|&(i, p)| (std::cmp::Reverse(p.loss), !p.exact, i));
    for &(i, p) in mistakes.iter().take(graph.labels) {
        let after = graph.points.get(i + 1).unwrap_or(p).value;
        // Above the dot when it is in the lower half, else below.
        let dy = if after < 0 { -9.0 } else { 17.0 };
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#b71c1c" text-anchor="middle">{}. -{}{}</text>"##,
            x(i + 1),
            y(after) + dy,
            i + 1,
            p.loss,
            if p.exact { "" } else { "~" }
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(value: i32, exact: bool, loss: i32) -> Point {
        Point {
            value,
            exact,
            depth: (!exact).then_some(16),
            loss,
        }
    }

    #[test]
    fn estimates_are_dashed_mistakes_dotted_and_labelled_largest_first() {
        let graph = Graph {
            points: vec![
                point(0, false, 6),
                point(-6, false, 0),
                point(-6, true, 2),
                point(-8, true, 20),
                point(12, true, 0),
                point(12, true, 0),
            ],
            title: Some("2001:3 <A & B>".into()),
            mistake_from: 2,
            labels: 2,
        };
        let svg = graph_svg(&graph);
        assert!(svg.starts_with("<?xml") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("stroke-dasharray").count(), 1);
        assert_eq!(svg.matches(r##"fill="#e53935""##).count(), 3);
        // Labels: the largest two, move numbers from 1.
        assert!(svg.contains(">4. -20<"), "{svg}");
        assert!(svg.contains(">1. -6~<"), "{svg}");
        assert!(!svg.contains(">3. -2<"));
        assert!(svg.contains("2001:3 &lt;A &amp; B&gt;"));
        assert!(svg.contains(">exact<"));
        // The estimates' depth over their part, when it has room.
        assert!(svg.contains(">estimated ~, depth 16<"), "{svg}");
        let mut narrow = vec![point(0, true, 0); 30];
        narrow[0] = point(0, false, 0);
        let narrow = graph_svg(&Graph {
            points: narrow,
            ..Graph::default()
        });
        assert!(!narrow.contains("estimated ~"), "{narrow}");
        let mut points = vec![point(0, false, 0); 30];
        points[7].depth = Some(12);
        points.extend([point(4, true, 0), point(4, true, 0)]);
        let wide = graph_svg(&Graph {
            points: points.clone(),
            ..Graph::default()
        });
        assert!(wide.contains(">estimated ~, depths 12–16<"), "{wide}");
        points[7].depth = Some(16);
        let one = graph_svg(&Graph {
            points,
            ..Graph::default()
        });
        assert!(one.contains(">estimated ~, depth 16<"), "{one}");
        // A value past the range is drawn at the edge, not outside.
        let big = graph_svg(&Graph {
            points: vec![point(100, true, 0), point(-100, true, 0)],
            ..Graph::default()
        });
        assert!(big.contains(&format!("M{LEFT:.1} {TOP:.1}L")), "{big}");
        // No points: the axes alone.
        assert!(graph_svg(&Graph::default()).ends_with("</svg>\n"));
    }
}
