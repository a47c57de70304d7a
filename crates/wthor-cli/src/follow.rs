//! The game of a transcript or GGF file that may still be growing (a game
//! being entered live), for `wthor stream --follow`.
//!
//! What is read, each time the file is read again:
//! - a GGF game (the text holds `(;`): its first game, `TY`/`BO` for the
//!   size (the start position must be the standard one), `PB`, `PW`, `PC`
//!   (as the tournament), the year of `DT` (`2003.…` or `2014-…`), and the moves `B[..]`/`W[..]`
//!   whose property is closed (`]`); the record is complete at `;)`;
//! - otherwise a transcript: the first line (`f5d6c3…`, any case,
//!   separators and passes as [`parse_transcript`] takes them); the line is
//!   complete at its line end. Before that, a move being typed at the end of
//!   the file is not taken yet (`f5d` is `f5`; on 10x10 a final `a1` waits,
//!   since it may become `a10`).
//!
//! This is a small reader of the GGF properties a stream needs, not a full
//! GGF parser (comments, clocks and evaluations are skipped).

use anyhow::Context as _;
use othello_core::notation::parse_transcript;
use othello_core::{Move, Size, Square};

/// What the file holds so far.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Followed {
    /// The moves read so far, passes included.
    pub(crate) moves: Vec<Move>,
    /// Black's name (GGF `PB`), or empty.
    pub(crate) black: String,
    /// White's name (GGF `PW`), or empty.
    pub(crate) white: String,
    /// The place (GGF `PC`), or empty.
    pub(crate) tournament: String,
    /// The year of GGF `DT`, if any.
    pub(crate) year: Option<u16>,
    /// Whether the record is closed (GGF `;)`, a transcript's line end).
    pub(crate) complete: bool,
}

/// Reads the game of `text`; `size` is the size of a transcript (a GGF
/// game states its own).
pub(crate) fn read_followed(text: &str, size: Size) -> anyhow::Result<(Size, Followed)> {
    if let Some(start) = text.find("(;") {
        return read_ggf(&text[start + 2..]);
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
            parse_transcript(&line[..e.position()], size).context("reading the transcript")?
        }
        Err(e) => return Err(e).context("reading the transcript"),
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

/// The properties of a GGF game from just after its `(;`.
fn read_ggf(text: &str) -> anyhow::Result<(Size, Followed)> {
    let mut game = Followed::default();
    let mut size = None;
    let mut moves = Vec::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if trimmed.starts_with(";)") {
            game.complete = true;
            break;
        }
        let Some(open) = trimmed.find('[') else { break };
        let key = trimmed[..open].trim();
        let Some(close) = trimmed[open..].find(']') else {
            break; // a property still being written
        };
        let value = &trimmed[open + 1..open + close];
        rest = &trimmed[open + close + 1..];
        match key {
            "PB" => game.black = value.trim().to_owned(),
            "PW" => game.white = value.trim().to_owned(),
            "PC" => game.tournament = value.trim().to_owned(),
            "DT" => {
                // `2003.12.15_…` (GGS) or `2014-02-21 …` (NBoard); a
                // Unix-seconds date gives no year.
                let b = value.as_bytes();
                game.year = (b.len() > 4
                    && b[..4].iter().all(u8::is_ascii_digit)
                    && matches!(b[4], b'.' | b'-'))
                .then(|| value[..4].parse().ok())
                .flatten();
            }
            "TY" => {
                let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
                size = Some(ggf_size(&digits)?);
            }
            "BO" => {
                let mut fields = value.split_whitespace();
                let side = fields.next().unwrap_or_default();
                let board_size = ggf_size(side)?;
                let board: String = fields.collect();
                let start = standard_start(board_size);
                if board != start {
                    anyhow::bail!(
                        "GGF BO: only games from the standard start position are followed"
                    );
                }
                size = Some(board_size);
            }
            "B" | "W" => {
                let square = value.split('/').next().unwrap_or_default().trim();
                moves.push(square.to_owned());
            }
            _ => {}
        }
    }
    let size = size.unwrap_or(Size::Eight);
    for (i, m) in moves.iter().enumerate() {
        game.moves.push(if m.eq_ignore_ascii_case("pa") {
            Move::Pass
        } else {
            Move::Play(
                Square::parse(m, size)
                    .with_context(|| format!("GGF move {}: not a square of the board", i + 1))?,
            )
        });
    }
    Ok((size, game))
}

fn ggf_size(text: &str) -> anyhow::Result<Size> {
    match text {
        "8" => Ok(Size::Eight),
        "10" => Ok(Size::Ten),
        _ => anyhow::bail!("GGF: only 8x8 and 10x10 games are followed"),
    }
}

/// The GGF squares of the start position (`*` black, `O` white), then the
/// side to move.
fn standard_start(size: Size) -> String {
    let n = usize::from(size.side());
    let mut s = vec!['-'; n * n];
    let (a, b) = (n / 2 - 1, n / 2);
    s[a * n + a] = 'O';
    s[b * n + b] = 'O';
    s[a * n + b] = '*';
    s[b * n + a] = '*';
    let mut text: String = s.into_iter().collect();
    text.push('*');
    text
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
