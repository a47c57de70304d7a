//! Pictures of a position: an SVG drawing, and the same drawing rasterised
//! to PNG with `resvg`.
//!
//! The drawing: a dark frame with the coordinates (letters above the
//! columns, numbers left of the rows, row 1 at the top as in WTHOR), the
//! green board with its grid (and the four dots of the 8x8 board), the
//! discs, a red dot on the last disc played (a red ring around it when the
//! discs are numbered), the move numbers on the discs (`--numbers`: the
//! move that put a disc there, whatever its colour now), and small dots of
//! the side to move's colour on its legal moves (`--legal`).
//!
//! Text is written as SVG `<text>` in the font family "DejaVu Sans", bold.
//! For the PNG, the DejaVu Sans Bold font of the `dejavu` crate (its bytes
//! compiled into the binary) is the only font `resvg` knows: the picture
//! does not depend on the fonts installed on the machine, and is the same
//! everywhere. (Drawing the glyphs as paths would have meant a home-made
//! font; a real font keeps the SVG's text selectable in a browser.)

use std::fmt::Write as _;

use anyhow::Context as _;
use othello_core::{Color, Size, Square};
use wthor_db::position_line::PositionLine;

/// The width of a square, in SVG units (pixels at scale 1).
const CELL: u32 = 48;
/// The frame around the board, where the coordinates are.
const MARGIN: u32 = 28;
/// The font family of every text (see the module docs).
const FONT: &str = "DejaVu Sans";

/// What to draw besides the board and the discs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Options {
    /// The move numbers on the discs.
    pub(crate) numbers: bool,
    /// The legal moves of the side to move.
    pub(crate) legal: bool,
}

/// The side of the picture, in SVG units, for a board of `size`.
pub(crate) fn picture_side(size: Size) -> u32 {
    2 * MARGIN + CELL * u32::from(size.side())
}

/// The SVG drawing of `line`; `numbers[i]` is the number of the move that
/// put the disc on square `i` (bit order), `title` the picture's title.
pub(crate) fn svg(
    line: &PositionLine,
    numbers: &[Option<u32>],
    title: &str,
    options: Options,
) -> String {
    let size = line.size();
    let n = u32::from(size.side());
    let side = picture_side(size);
    let board = CELL * n;
    let mut s = String::with_capacity(16 * 1024);
    // `write!` to a String cannot fail.
    let _ = writeln!(
        s,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}" font-family="{FONT}, sans-serif" font-weight="bold">
<title>{}</title>
<rect width="{side}" height="{side}" fill="#3b2a1a"/>
<rect x="{MARGIN}" y="{MARGIN}" width="{board}" height="{board}" fill="#2e8b57"/>"##,
        xml_escape(title)
    );
    // The grid.
    s.push_str(r##"<path fill="none" stroke="#123d24" stroke-width="1.5" d=""##);
    for i in 0..=n {
        let at = MARGIN + i * CELL;
        let _ = write!(
            s,
            "M{MARGIN} {at}H{}M{at} {MARGIN}V{}",
            MARGIN + board,
            MARGIN + board
        );
    }
    s.push_str("\"/>\n");
    if size == Size::Eight {
        for (c, r) in [(2, 2), (6, 2), (2, 6), (6, 6)] {
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{}" r="4" fill="#123d24"/>"##,
                MARGIN + c * CELL,
                MARGIN + r * CELL
            );
        }
    }
    // The coordinates.
    let coord_size = 15;
    for i in 0..n {
        let mid = MARGIN + i * CELL + CELL / 2;
        let letter = char::from(b'a' + i as u8);
        let _ = writeln!(
            s,
            r##"<text x="{mid}" y="{}" font-size="{coord_size}" fill="#f0e6d2" text-anchor="middle">{letter}</text>"##,
            baseline(MARGIN / 2, coord_size)
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="{coord_size}" fill="#f0e6d2" text-anchor="middle">{}</text>"##,
            MARGIN / 2,
            baseline(mid, coord_size),
            i + 1
        );
    }
    // The discs, their numbers and the last move.
    let radius = CELL * 42 / 100;
    let number_size = if size == Size::Ten { 16 } else { 18 };
    for (i, disc) in line.squares().iter().enumerate() {
        let Some(color) = disc else { continue };
        let sq = Square::new_unchecked(i as u8);
        let (cx, cy) = center(sq, size);
        let (fill, stroke, ink) = match color {
            Color::Black => ("#111111", "#000000", "#f4f4f4"),
            Color::White => ("#f4f4f4", "#222222", "#111111"),
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#
        );
        let last = line.last_move() == Some(sq);
        let number = numbers
            .get(i)
            .copied()
            .flatten()
            .filter(|_| options.numbers);
        if let Some(k) = number {
            let _ = writeln!(
                s,
                r#"<text x="{cx}" y="{}" font-size="{number_size}" fill="{ink}" text-anchor="middle">{k}</text>"#,
                baseline(cy, number_size)
            );
        }
        if last && number.is_some() {
            // A red ring: a red number would not read on a black disc.
            let _ = writeln!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#e53935" stroke-width="3"/>"##,
                radius + 1
            );
        } else if last {
            let _ = writeln!(s, r##"<circle cx="{cx}" cy="{cy}" r="6" fill="#e53935"/>"##);
        }
    }
    if let Some(side) = line.to_move().filter(|_| options.legal) {
        let fill = match side {
            Color::Black => "#111111",
            Color::White => "#f4f4f4",
        };
        for sq in line.legal_moves() {
            let (cx, cy) = center(sq, size);
            let _ = writeln!(
                s,
                r#"<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" fill-opacity="0.55"/>"#
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The centre of a square.
fn center(sq: Square, size: Size) -> (u32, u32) {
    (
        MARGIN + u32::from(sq.col(size)) * CELL + CELL / 2,
        MARGIN + u32::from(sq.row(size)) * CELL + CELL / 2,
    )
}

/// The baseline that centres digits and lower-case letters of `font_size`
/// vertically on `middle` (DejaVu's digits are 0.73 em high).
fn baseline(middle: u32, font_size: u32) -> u32 {
    middle + font_size * 36 / 100
}

/// Text as XML character data or attribute value.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow, even escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The PNG of an SVG drawing at `scale` (1 = one pixel per SVG unit),
/// rendered with the embedded DejaVu Sans Bold font only.
pub(crate) fn png(svg: &str, scale: f32) -> anyhow::Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_font_data(dejavu::sans::bold().to_vec());
    fonts.set_sans_serif_family(FONT);
    options.font_family = FONT.to_owned();
    let tree = usvg::Tree::from_str(svg, &options).context("the SVG drawing does not parse")?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .with_context(|| format!("scale {scale} gives an empty picture"))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .with_context(|| format!("cannot make a {}x{} picture", size.width(), size.height()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().context("cannot encode the PNG")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_forbidden_characters() {
        assert_eq!(
            xml_escape("a<b>&\"c'\u{1}\té"),
            "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}\té"
        );
    }
}
