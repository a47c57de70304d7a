//! The PNG of a drawing (the `png` feature).

use crate::Error;
use crate::svg::FONT;

/// The PNG of an SVG drawing at `scale` (1: one pixel per pixel of the
/// SVG's `width` and `height`), rendered with the embedded DejaVu Sans
/// Bold font only.
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
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_font_data(dejavu::sans::bold().to_vec());
    fonts.set_sans_serif_family(FONT);
    options.font_family = FONT.to_owned();
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| Error::Parse(e.to_string()))?;
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
