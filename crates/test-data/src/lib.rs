//! The real WTHOR archive for the tests that need it.
//!
//! Those tests are `#[ignore = "needs WTHOR_DATA"]`: `cargo test` reports
//! them as ignored, and the test command (`cargo xtask test`, `cargo xtask
//! ci`) runs them with `-- --include-ignored` when `WTHOR_DATA` is set. Each
//! calls [`wthor_data`], which fails the test when the variable is unset
//! (an ignored test run on purpose without the data) or names a folder that
//! does not exist: a test that needs the archive never passes without it.

use std::ffi::OsString;
use std::path::PathBuf;

/// The folder named by `WTHOR_DATA` (the one holding `wthor/`, `ffo/`,
/// `ggf/`…).
///
/// # Panics
///
/// When `WTHOR_DATA` is unset or does not name a directory, with a message
/// saying so.
#[track_caller]
pub fn wthor_data() -> PathBuf {
    match data_dir(std::env::var_os("WTHOR_DATA")) {
        Ok(dir) => dir,
        Err(message) => panic!("{message}"),
    }
}

/// The folder named by the value of `WTHOR_DATA`, or why there is none.
fn data_dir(var: Option<OsString>) -> Result<PathBuf, String> {
    let Some(dir) = var else {
        return Err(
            "this test needs the real WTHOR archive: set WTHOR_DATA to the folder \
                    holding wthor/, ffo/, ggf/… (without it, leave out --include-ignored)"
                .to_owned(),
        );
    };
    let dir = PathBuf::from(dir);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("WTHOR_DATA={} is not a directory", dir.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_is_an_error_naming_the_variable() {
        let err = data_dir(None).unwrap_err();
        assert!(err.contains("set WTHOR_DATA"), "{err}");
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join("wthor-test-data-no-such-folder");
        assert!(!dir.exists());
        let err = data_dir(Some(dir.clone().into_os_string())).unwrap_err();
        assert_eq!(
            err,
            format!("WTHOR_DATA={} is not a directory", dir.display())
        );
    }

    #[test]
    fn a_file_is_not_a_folder() {
        let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        assert!(data_dir(Some(file.into_os_string())).is_err());
    }

    #[test]
    fn an_existing_folder_is_returned() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(data_dir(Some(dir.clone().into_os_string())), Ok(dir));
    }
}
