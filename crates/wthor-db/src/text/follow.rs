//! The game of a transcript or GGF file that may still be growing (a game
//! being entered live), for `wthor stream --follow`.
//!
//! What is read, each time the file is read again:
//! - a GGF game (the text holds `(;`): its first game, read by the one GGF
//!   reader ([`super::ggf::parse_ggf_growing`]): the size, `PB`, `PW`, `PC`
//!   (as the tournament), the year of `DT` ([`super::ggf::year`]), and the
//!   moves whose property is closed (`]`); the record is complete at `;)`;
//! - otherwise a transcript: the first line (`f5d6c3…`, any case,
//!   separators and passes as [`parse_transcript`] takes them); the line is
//!   complete at its line end. Before that, a move being typed at the end of
//!   the file is not taken yet (`f5d` is `f5`; on 10x10 a final `a1` waits,
//!   since it may become `a10`).

use othello_core::notation::{TranscriptError, parse_transcript};
use othello_core::{Move, Size};

use super::ggf::{GgfError, parse_ggf_growing};

/// Why a followed file cannot be read (no more text can mend it).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FollowError {
    /// The GGF game.
    #[error(transparent)]
    Ggf(#[from] GgfError),
    /// The transcript.
    #[error("reading the transcript")]
    Transcript(#[from] TranscriptError),
}

/// What the file holds so far.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Followed {
    /// The moves read so far, passes included.
    pub moves: Vec<Move>,
    /// Black's name (GGF `PB`), or empty.
    pub black: String,
    /// White's name (GGF `PW`), or empty.
    pub white: String,
    /// The place (GGF `PC`), or empty.
    pub tournament: String,
    /// The year of GGF `DT`, if any.
    pub year: Option<u16>,
    /// Whether the record is closed (GGF `;)`, a transcript's line end).
    pub complete: bool,
}

/// Reads the game of `text`; `size` is the size of a transcript (a GGF
/// game states its own).
///
/// # Errors
/// [`FollowError`] for text that is no game and that more text cannot
/// mend.
pub fn read_followed(text: &str, size: Size) -> Result<(Size, Followed), FollowError> {
    if text.contains("(;") {
        let g = parse_ggf_growing(text)?;
        let text = |key: &str| g.get(key).map_or_else(String::new, |v| v.trim().to_owned());
        let followed = Followed {
            black: text("PB"),
            white: text("PW"),
            tournament: text("PC"),
            year: g.year(),
            complete: g.complete,
            moves: g.moves,
        };
        return Ok((g.size, followed));
    }
    let (line, complete) = match text.find('\n') {
        Some(end) => (&text[..end], true),
        None => (text, false),
    };
    let mut line = line.strip_suffix('\r').unwrap_or(line);
    if !complete && size == Size::Ten {
        // A final `a1` may still become `a10`.
        let b = line.as_bytes();
        if b.len() >= 2 && b[b.len() - 1] == b'1' && b[b.len() - 2].is_ascii_alphabetic() {
            line = &line[..line.len() - 2];
        }
    }
    let moves = match parse_transcript(line, size) {
        Ok(moves) => moves,
        // A move being typed at the end: take what comes before it.
        Err(e) if !complete && e.position() + 1 >= line.len() => {
            parse_transcript(&line[..e.position()], size)?
        }
        Err(e) => return Err(e.into()),
    };
    Ok((
        size,
        Followed {
            moves,
            complete,
            ..Followed::default()
        },
    ))
}
