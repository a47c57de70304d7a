//! Atomic writes: a file whole or left alone, errors naming the target,
//! modes kept.

use std::io;
use std::path::Path;
use wthor_db::atomic::*;

#[test]
fn a_file_is_replaced_whole_or_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.bin");
    write(&path, b"old").unwrap();
    let err = write_with(&path, |w| {
        w.write_all(b"half")?;
        Err::<(), _>(io::Error::other("the writer failed"))
    })
    .unwrap_err();
    assert_eq!(err.step, Step::Write);
    assert_eq!(
        err.to_string(),
        format!("{}: cannot write: the writer failed", path.display())
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"old");
    write(&path, b"new").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
    // No temporary file is left behind, after a success or a failure.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["f.bin"]);
}

#[test]
fn errors_name_the_target_never_the_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere/f.csv");
    let e = write(&missing, b"x").unwrap_err();
    assert_eq!(e.step, Step::Create);
    assert!(!e.to_string().contains(".wthor-"), "{e}");
    assert!(!e.cause.to_string().contains(".wthor-"), "{}", e.cause);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: cannot write: folder {} does not exist",
            missing.display(),
            dir.path().join("nowhere").display()
        )
    );
    let e = write(dir.path(), b"x").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: cannot write: it is a directory, expected a file name",
            dir.path().display()
        )
    );
}

#[cfg(unix)]
#[test]
fn a_new_file_is_not_private_and_a_replaced_one_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    write(&path, b"1").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // 0666 less the umask: at least readable by the group (umask 022,
    // 002) unless the umask itself is private.
    let umask = {
        let probe = dir.path().join("probe");
        std::fs::File::create(&probe).unwrap();
        0o666 & !mode(&probe)
    };
    assert_eq!(mode(&path), 0o666 & !umask);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    write(&path, b"2").unwrap();
    assert_eq!(mode(&path), 0o640);
}
