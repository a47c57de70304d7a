//! Game identities as users read and type them: `YEAR:INDEX` for a game of
//! a yearly file `WTH_YYYY.wtb` (`1990:12`, the index from 0 in its file)
//! and `FILE:INDEX` otherwise (`PLAYOK_2023.wtb:7`).
//!
//! TEMPORARY: a local stand-in, formatted from the file name alone. Issue
//! 10's database track introduces `wthor_db::GameId` for this; replace
//! [`game_identity`] by it when it lands.

/// The identity of game `index` (from 0) of the file named `file`.
pub(crate) fn game_identity(file: &str, index: usize) -> String {
    let year = file
        .strip_prefix("WTH_")
        .and_then(|rest| {
            rest.strip_suffix(".wtb")
                .or_else(|| rest.strip_suffix(".WTB"))
        })
        .filter(|y| y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit()));
    match year {
        Some(year) => format!("{year}:{index}"),
        None => format!("{file}:{index}"),
    }
}

#[cfg(test)]
mod tests {
    use super::game_identity;

    #[test]
    fn yearly_files_give_the_year() {
        assert_eq!(game_identity("WTH_1990.wtb", 12), "1990:12");
        assert_eq!(game_identity("WTH_2025.WTB", 0), "2025:0");
        assert_eq!(game_identity("PLAYOK_2023.wtb", 7), "PLAYOK_2023.wtb:7");
        assert_eq!(game_identity("WTH_2001.wtd", 3), "WTH_2001.wtd:3");
        assert_eq!(game_identity("WTH_19x0.wtb", 1), "WTH_19x0.wtb:1");
    }
}
