//! The SVG writer.

use std::fmt::Write as _;

use othello_core::{Color, Size, Square};

use crate::{Options, Position};

/// The width of a square, in SVG units (pixels at the natural size).
const CELL: u32 = 48;
/// The frame around the board, where the coordinates are.
const MARGIN: u32 = 28;
/// The frame without the coordinates.
const THIN_MARGIN: u32 = 4;
/// The font family of every text (see the crate docs).
pub(crate) const FONT: &str = "DejaVu Sans";

/// The width of the frame around the board.
fn margin(options: &Options) -> u32 {
    if options.coordinates {
        MARGIN
    } else {
        THIN_MARGIN
    }
}

/// The side of the picture in SVG units (its `viewBox`) for a board of
/// `size` drawn with `options`: 440 on 8x8 and 536 on 10x10 with the
/// coordinates, 392 and 488 without.
#[must_use]
pub fn picture_side(size: Size, options: &Options) -> u32 {
    2 * margin(options) + CELL * u32::from(size.side())
}

/// The SVG drawing of `position` (a complete document, ending with a line
/// end).
#[must_use]
pub fn svg(position: &Position, options: &Options) -> String {
    let size = position.size();
    let n = u32::from(size.side());
    let side = picture_side(size, options);
    let pixels = options.size.unwrap_or(side);
    let m = margin(options);
    let board = CELL * n;
    let mut s = String::with_capacity(16 * 1024);
    // `write!` to a String cannot fail.
    let _ = writeln!(
        s,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{pixels}" height="{pixels}" viewBox="0 0 {side} {side}" font-family="{FONT}, sans-serif" font-weight="bold">"#
    );
    if let Some(title) = &options.title {
        let _ = writeln!(s, "<title>{}</title>", xml_escape(title));
    }
    let _ = writeln!(
        s,
        r##"<rect width="{side}" height="{side}" fill="#3b2a1a"/>
<rect x="{m}" y="{m}" width="{board}" height="{board}" fill="#2e8b57"/>"##
    );
    // The grid.
    s.push_str(r##"<path fill="none" stroke="#123d24" stroke-width="1.5" d=""##);
    for i in 0..=n {
        let at = m + i * CELL;
        let _ = write!(s, "M{m} {at}H{}M{at} {m}V{}", m + board, m + board);
    }
    s.push_str("\"/>\n");
    if size == Size::Eight {
        for (c, r) in [(2, 2), (6, 2), (2, 6), (6, 6)] {
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{}" r="4" fill="#123d24"/>"##,
                m + c * CELL,
                m + r * CELL
            );
        }
    }
    // The coordinates.
    if options.coordinates {
        let coord_size = 15;
        for i in 0..n {
            let mid = m + i * CELL + CELL / 2;
            let letter = char::from(b'a' + i as u8);
            let _ = writeln!(
                s,
                r##"<text x="{mid}" y="{}" font-size="{coord_size}" fill="#f0e6d2" text-anchor="middle">{letter}</text>"##,
                baseline(m / 2, coord_size)
            );
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" font-size="{coord_size}" fill="#f0e6d2" text-anchor="middle">{}</text>"##,
                m / 2,
                baseline(mid, coord_size),
                i + 1
            );
        }
    }
    // The discs, their numbers and the last move.
    let radius = CELL * 42 / 100;
    let number_size = if size == Size::Ten { 16 } else { 18 };
    let last_move = position.last_move().filter(|_| options.last_move);
    for (i, disc) in position.squares().iter().enumerate() {
        let Some(color) = disc else { continue };
        let sq = Square::new_unchecked(i as u8);
        let (cx, cy) = center(sq, size, m);
        let (fill, stroke, ink) = match color {
            Color::Black => ("#111111", "#000000", "#f4f4f4"),
            Color::White => ("#f4f4f4", "#222222", "#111111"),
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#
        );
        let last = last_move == Some(sq);
        let number = position.number(sq).filter(|_| options.numbers);
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
    if let Some(side) = position.to_move().filter(|_| options.legal) {
        let fill = match side {
            Color::Black => "#111111",
            Color::White => "#f4f4f4",
        };
        for sq in position.legal_moves() {
            let (cx, cy) = center(sq, size, m);
            let _ = writeln!(
                s,
                r#"<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" fill-opacity="0.55"/>"#
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The centre of a square, with a frame of `margin`.
fn center(sq: Square, size: Size, margin: u32) -> (u32, u32) {
    (
        margin + u32::from(sq.col(size)) * CELL + CELL / 2,
        margin + u32::from(sq.row(size)) * CELL + CELL / 2,
    )
}

/// The baseline that centres digits and lower-case letters of `font_size`
/// vertically on `middle` (DejaVu's digits are 0.73 em high).
fn baseline(middle: u32, font_size: u32) -> u32 {
    middle + font_size * 36 / 100
}

/// Text as XML character data or attribute value.
pub(crate) fn xml_escape(text: &str) -> String {
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
