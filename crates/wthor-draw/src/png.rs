//! The PNG of a drawing (the `png` feature).
//!
//! `resvg` draws the picture without its text feature (a shaper and a
//! font database, 14 CPU-s of a fresh build of 2 minutes, for the
//! coordinates and move numbers of a board): before it parses the SVG,
//! each `<text>` becomes a `<path>` of the glyph outlines of the DejaVu
//! Sans Bold font, read by `ttf-parser`, set one after the other by their
//! advances and the font's kerning pairs. The SVG itself keeps its
//! `<text>`, selectable in a browser.

use std::fmt::Write as _;

use resvg::{tiny_skia, usvg};

use crate::Error;

/// The PNG of an SVG drawing at `scale` (1: one pixel per pixel of the
/// SVG's `width` and `height`), its text in the embedded DejaVu Sans Bold
/// font only.
///
/// The text is that of the drawings of this crate: `<text>` elements with
/// `x`, `y`, `font-size`, `fill` and `text-anchor` (`start`, `middle`,
/// `end`) on the element itself, on one line.
///
/// # Errors
/// [`Error::Parse`] when `svg` is not an SVG drawing, [`Error::EmptyPicture`]
/// when the scale leaves no pixel, [`Error::Pixmap`] when the pixels cannot
/// be had, [`Error::Encode`] when the encoder fails.
///
/// ```
/// use othello_core::{Board, Board8};
/// use wthor_draw::{Options, Position};
///
/// let svg = wthor_draw::svg(&Position::from_board(&Board8::start()), &Options::default());
/// let png = wthor_draw::png(&svg, 0.5)?;
/// assert_eq!(&png[1..4], b"PNG");
/// assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 220); // width
/// # Ok::<(), wthor_draw::Error>(())
/// ```
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, Error> {
    let outlined = text_as_paths(svg)?;
    let tree = usvg::Tree::from_str(&outlined, &usvg::Options::default())
        .map_err(|e| Error::Parse(e.to_string()))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or(Error::EmptyPicture(scale))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or(Error::Pixmap {
        width: size.width(),
        height: size.height(),
    })?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| Error::Encode(e.to_string()))
}

/// `svg` with each `<text>` element replaced by a `<path>` of its glyphs.
pub(crate) fn text_as_paths(svg: &str) -> Result<String, Error> {
    let doc = usvg::roxmltree::Document::parse(svg).map_err(|e| Error::Parse(e.to_string()))?;
    let face = font();
    let mut out = String::with_capacity(svg.len() * 2);
    let mut copied = 0;
    for node in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let range = node.range();
        if range.start < copied {
            continue; // inside a text already replaced
        }
        out.push_str(&svg[copied..range.start]);
        let number = |name: &str, default: f32| {
            node.attribute(name)
                .and_then(|v| v.trim().parse::<f32>().ok())
                .unwrap_or(default)
        };
        let text: String = node
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        let anchor = match node.attribute("text-anchor") {
            Some("middle") => Anchor::Middle,
            Some("end") => Anchor::End,
            _ => Anchor::Start,
        };
        let d = outline(
            &face,
            &text,
            number("x", 0.0),
            number("y", 0.0),
            number("font-size", 16.0),
            anchor,
        );
        let fill = node.attribute("fill").unwrap_or("#000000");
        let _ = write!(
            out,
            r#"<path fill="{}" d="{d}"/>"#,
            crate::svg::xml_escape(fill)
        );
        copied = range.end;
    }
    out.push_str(&svg[copied..]);
    Ok(out)
}

/// The embedded font.
fn font() -> ttf_parser::Face<'static> {
    ttf_parser::Face::parse(dejavu::sans::bold(), 0).expect("the dejavu crate's font parses")
}

/// Where `x` is on the line of text.
#[derive(Clone, Copy)]
enum Anchor {
    Start,
    Middle,
    End,
}

/// The SVG path data of `text` set at (`x`, `y`) (`y` the baseline) in
/// `face` at `size` units to the em.
fn outline(
    face: &ttf_parser::Face<'_>,
    text: &str,
    x: f32,
    y: f32,
    size: f32,
    anchor: Anchor,
) -> String {
    let glyphs: Vec<ttf_parser::GlyphId> = text
        .chars()
        .map(|c| face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0)))
        .collect();
    // The pen position of each glyph, in font units.
    let mut pens = Vec::with_capacity(glyphs.len());
    let mut pen = 0.0_f32;
    for (k, &glyph) in glyphs.iter().enumerate() {
        if k > 0 {
            pen += f32::from(kerning(face, glyphs[k - 1], glyph));
        }
        pens.push(pen);
        pen += f32::from(face.glyph_hor_advance(glyph).unwrap_or(0));
    }
    let scale = size / f32::from(face.units_per_em());
    let width = pen * scale;
    let left = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width / 2.0,
        Anchor::End => x - width,
    };
    let mut path = PathData {
        d: String::new(),
        x: left,
        y,
        scale,
    };
    for (&glyph, &at) in glyphs.iter().zip(&pens) {
        path.x = left + at * scale;
        let _ = face.outline_glyph(glyph, &mut path);
    }
    path.d
}

/// The horizontal kerning between two glyphs, in font units (0 when the
/// font has no pair for them).
fn kerning(
    face: &ttf_parser::Face<'_>,
    left: ttf_parser::GlyphId,
    right: ttf_parser::GlyphId,
) -> i16 {
    face.tables()
        .kern
        .iter()
        .flat_map(|kern| kern.subtables)
        .filter(|sub| sub.horizontal && !sub.variable)
        .find_map(|sub| sub.glyphs_kerning(left, right))
        .unwrap_or(0)
}

/// Writes glyph outlines as SVG path data, from font units (y up) to the
/// picture's (y down) at the glyph's origin.
struct PathData {
    d: String,
    x: f32,
    y: f32,
    scale: f32,
}

impl PathData {
    fn point(&mut self, x: f32, y: f32) {
        let _ = write!(
            self.d,
            "{:.2} {:.2} ",
            self.x + x * self.scale,
            self.y - y * self.scale
        );
    }
}

impl ttf_parser::OutlineBuilder for PathData {
    fn move_to(&mut self, x: f32, y: f32) {
        self.d.push('M');
        self.point(x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.d.push('L');
        self.point(x, y);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.d.push('Q');
        self.point(x1, y1);
        self.point(x, y);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.d.push('C');
        self.point(x1, y1);
        self.point(x2, y2);
        self.point(x, y);
    }

    fn close(&mut self) {
        self.d.push('Z');
    }
}
