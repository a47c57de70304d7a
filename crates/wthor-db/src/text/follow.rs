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

#[cfg(test)]
mod tests {
    use super::*;
    use othello_core::notation::write_transcript;

    fn moves(text: &str, size: Size) -> (String, bool) {
        let (size, game) = read_followed(text, size).unwrap();
        (write_transcript(&game.moves, size), game.complete)
    }

    #[test]
    fn a_move_being_typed_is_not_taken_yet() {
        assert_eq!(moves("f5d", Size::Eight), ("f5".to_owned(), false));
        assert_eq!(moves("f5d6", Size::Eight), ("f5d6".to_owned(), false));
        assert_eq!(
            moves("f5 D6\r\nrest", Size::Eight),
            ("f5d6".to_owned(), true)
        );
        assert_eq!(moves("f5 pa", Size::Eight), ("f5pa".to_owned(), false));
        assert_eq!(moves("g6a1", Size::Ten), ("g6".to_owned(), false));
        assert_eq!(moves("g6a10", Size::Ten), ("g6a10".to_owned(), false));
        assert_eq!(moves("g6a1\n", Size::Ten), ("g6a1".to_owned(), true));
        assert!(read_followed("f5z9d6", Size::Eight).is_err());
        assert!(read_followed("f5z\n", Size::Eight).is_err());
    }

    #[test]
    fn ggf_properties_and_moves() {
        let text = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio 1200]PW[x]TY[8]\
                    BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
                    B[d3//0.01]W[C5/1.0/2]B[f";
        let (size, game) = read_followed(text, Size::Ten).unwrap();
        assert_eq!(size, Size::Eight);
        let (_, unix) = read_followed(
            &text.replace("2003.12.15_12:33:18.MST", "1071516798"),
            Size::Eight,
        )
        .unwrap();
        assert_eq!(unix.year, Some(2003));
        assert_eq!(write_transcript(&game.moves, size), "d3c5");
        assert_eq!(
            (
                game.black.as_str(),
                game.white.as_str(),
                game.tournament.as_str()
            ),
            ("Saio 1200", "x", "GGS/os")
        );
        assert_eq!((game.year, game.complete), (Some(2003), false));
        let (_, game) = read_followed(&format!("{text}6]W[PA] ;)"), Size::Eight).unwrap();
        assert_eq!(game.moves.len(), 4);
        assert_eq!(game.moves[3], Move::Pass);
        assert!(game.complete);
        assert!(
            read_followed("(;TY[8]BO[8 ", Size::Eight)
                .unwrap()
                .1
                .moves
                .is_empty()
        );
        assert!(
            read_followed(
                "(;BO[8 ------------------------------------------------------------**** *]",
                Size::Eight
            )
            .is_err()
        );
        assert!(read_followed("(;TY[6]", Size::Eight).is_err());
        assert!(read_followed("(;TY[8]B[z9]", Size::Eight).is_err());
    }
}
