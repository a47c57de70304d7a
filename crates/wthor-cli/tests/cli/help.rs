//! `--help` of every command ends with examples and the exit status, and
//! the examples that need only the fixture database run; completions and
//! man pages.

use std::path::Path;

use crate::info::{stderr, stdout, wthor_in};
use crate::{workspace_root, wthor};

/// Every subcommand of `wthor`.
pub(crate) const COMMANDS: [&str; 26] = [
    "info",
    "report",
    "history",
    "novelties",
    "duplicates",
    "serve",
    "analyze",
    "export",
    "import",
    "stats",
    "ratings",
    "index",
    "results",
    "cache",
    "search",
    "convert",
    "validate",
    "perft",
    "openings",
    "replay",
    "solve",
    "puzzles",
    "show",
    "stream",
    "install",
    "completions",
];

/// The example lines (`  wthor …`) at the end of `wthor [cmd] --help`.
fn examples(cmd: Option<&str>) -> Vec<String> {
    let mut args: Vec<&str> = cmd.into_iter().collect();
    args.push("--help");
    let out = wthor(&args);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let (_, tail) = text
        .split_once("\nExamples:\n")
        .unwrap_or_else(|| panic!("{cmd:?}: no examples in --help"));
    assert!(
        tail.contains("\nExit status") && tail.contains("2 usage"),
        "{cmd:?}: no exit status at the end of --help"
    );
    tail.lines()
        .take_while(|l| l.starts_with("  wthor "))
        .map(|l| l.trim().to_owned())
        .collect()
}

#[test]
fn every_help_ends_with_examples_and_the_exit_status() {
    for cmd in COMMANDS.iter().map(|c| Some(*c)).chain([None]) {
        let ex = examples(cmd);
        assert!(!ex.is_empty(), "{cmd:?}");
        if let Some(c) = cmd {
            for line in &ex {
                assert!(line.starts_with(&format!("wthor {c} ")), "{c}: {line}");
            }
        }
    }
}

/// A temporary directory holding a copy of testdata/'s files in
/// `testdata/`, so that examples that write files write there.
fn testdata_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let testdata = dir.path().join("testdata");
    std::fs::create_dir(&testdata).unwrap();
    for entry in std::fs::read_dir(workspace_root().join("testdata")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, testdata.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

#[test]
fn help_examples_on_the_fixtures_run() {
    // In a copy of testdata/ under a temporary directory, so that examples
    // that write files write there.
    let dir = testdata_copy();
    let mut ran = 0;
    for cmd in COMMANDS.iter().map(|c| Some(*c)).chain([None]) {
        for line in examples(cmd) {
            // Examples that need files of the reader's own, a shell, or that
            // follow a file forever.
            if [
                "path/to",
                "~",
                ">",
                "|",
                "$",
                "*",
                "new/",
                "live.",
                "game.ggf",
                "positions.obf",
                "WTH_2025",
            ]
            .iter()
            .any(|s| line.contains(s))
                || line.contains("completions")
                || line.contains("stream --follow")
                // A server runs until stopped: tests/cli/serve.rs starts
                // one and asks it.
                || line.contains("wthor serve")
            {
                continue;
            }
            let args = shallow(line.split_whitespace().skip(1).collect());
            let out = wthor_in(dir.path(), &args);
            assert!(
                out.status.code() == Some(0),
                "{line}: {:?} {}",
                out.status.code(),
                stderr(&out)
            );
            ran += 1;
        }
    }
    assert!(ran >= 20, "only {ran} examples ran");
}

#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("bash", "_wthor()"),
        ("zsh", "#compdef wthor"),
        ("fish", "complete -c wthor"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = wthor(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = stdout(&out);
        assert!(script.contains(marker), "{shell}");
        assert!(
            script.contains("install"),
            "{shell}: the commands are there"
        );
    }
    assert_eq!(wthor(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn man_pages_for_the_command_and_each_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = wthor(&["man", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = COMMANDS.iter().map(|c| format!("wthor-{c}.1")).collect();
    expected.push("wthor.1".to_owned());
    expected.sort();
    assert_eq!(names, expected);
    let page = std::fs::read_to_string(dir.path().join("wthor-install.1")).unwrap();
    assert!(
        page.starts_with(".ie") && page.contains(".TH wthor-install 1"),
        "{page}"
    );
    assert!(page.contains("Exit status"), "the examples are in the page");
    // `man` is hidden from the help.
    assert!(!stdout(&wthor(&["--help"])).contains("\n  man "));
}

/// The README's command list: the lines of its first `text` block that
/// start with `wthor `, as the command names they list.
fn readme_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let block = readme
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("README: a text block with the command list");
    block
        .lines()
        .filter_map(|l| l.strip_prefix("wthor "))
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn the_readme_lists_every_command_once() {
    let listed = readme_commands();
    for c in COMMANDS {
        let n = listed.iter().filter(|l| *l == c).count();
        assert_eq!(n, 1, "README's command list names `wthor {c}` {n} times");
    }
    for l in &listed {
        assert!(COMMANDS.contains(&l.as_str()), "README lists `wthor {l}`");
    }
}

/// The exit-status text at the end of `wthor CMD --help`.
fn exit_status(cmd: &str) -> String {
    let text = stdout(&wthor(&[cmd, "--help"]));
    let (_, tail) = text.split_once("\nExit status").unwrap();
    tail.split("\n\n").next().unwrap().replace('\n', " ")
}

#[test]
fn the_readme_exit_table_agrees_with_each_help() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| 1 |"))
        .expect("README: the exit-status row of 1");
    let mut named = 0;
    // Each clause of the row (`;`) names commands in backticks; a command
    // whose help says it exits 1 only with --strict is named in a clause
    // that says so, and a command named must exit 1 at all.
    for clause in row.split(';') {
        for quoted in clause.split('`').skip(1).step_by(2) {
            let Some(cmd) = quoted.split_whitespace().next() else {
                continue;
            };
            if !COMMANDS.contains(&cmd) {
                continue;
            }
            named += 1;
            let help = exit_status(cmd);
            assert!(
                help.contains(", 1 ") || help.contains("; 1 "),
                "README says `{cmd}` exits 1; its help: {help}"
            );
            if help.contains("1 with --strict") {
                assert!(
                    clause.contains("--strict"),
                    "README says `{cmd}` exits 1 without naming --strict, which its help needs: {clause}"
                );
            }
        }
    }
    assert!(named >= 5, "only {named} commands named in: {row}");
}

/// Splits a README command line as a shell would for these examples:
/// words, and double-quoted strings as one word.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// An example's arguments, an analysis at most 4 plies deep: `--estimate-depth
/// 4` added to one that names no depth or time, a deeper one lowered to 4,
/// a time above 1 ms lowered to 1, a batch on a sample of 4 games;
/// `validate --solve` on a sample of 200 games. These tests check that each
/// example runs (its flags, its files, its output paths); an analysis at
/// the default depth costs about 2 s a fixture game in a test build;
/// `analyze.rs` checks the depths, and the library's tests every fixture
/// game's stored score.
fn shallow(mut args: Vec<&str>) -> Vec<&str> {
    // The solving check of every fixture game is 4,000 solves: a sample
    // runs the same code.
    if args.first() == Some(&"validate") && args.contains(&"--solve") && !args.contains(&"--sample")
    {
        args.extend(["--sample", "200"]);
    }
    if args.first() != Some(&"analyze") {
        return args;
    }
    // A batch (no game named: its first argument is a flag) on a sample
    // of 4 of the games it selects.
    if args.get(1).is_some_and(|a| a.starts_with("--")) && !args.contains(&"--sample") {
        args.extend(["--sample", "4"]);
    }
    let lower = |args: &mut Vec<&str>, flag: &str, to: &'static str| match args
        .iter()
        .position(|a| *a == flag)
    {
        Some(i) => {
            if args.get(i + 1).and_then(|v| v.parse::<u32>().ok()) > to.parse().ok() {
                args[i + 1] = to;
            }
            true
        }
        None => false,
    };
    let depth = lower(&mut args, "--estimate-depth", "4");
    let time = lower(&mut args, "--time", "1");
    if !depth && !time {
        args.extend(["--estimate-depth", "4"]);
    }
    args
}

/// Runs the `cargo run --release -- …` lines of the README, in order, in a
/// temporary directory holding a copy of testdata/ (`/tmp/` paths made
/// relative to it), and returns how many ran: without `real`, those on the
/// fixtures; with it, those naming `path/to/wthor`, the real archive
/// (`real`), or for `install --into` an empty directory (a dry run).
/// `serve` runs until stopped: tests/cli/serve.rs asks one.
fn run_readme_examples(real: Option<&Path>) -> usize {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let dir = testdata_copy();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let mut ran = 0;
    for line in readme.lines() {
        let Some((_, rest)) = line.split_once("cargo run --release -- ") else {
            continue;
        };
        let command = rest.split('`').next().unwrap().replace("/tmp/", "");
        if command.starts_with("serve ") {
            continue;
        }
        let mut args = shell_words(&command);
        let needs_real = args.iter().any(|a| a == "path/to/wthor");
        if needs_real != real.is_some() {
            continue;
        }
        if let Some(real) = real {
            let into = args.iter().any(|a| a == "--into");
            let to = if into { &empty } else { real };
            for a in &mut args {
                if a == "path/to/wthor" {
                    *a = to.to_str().unwrap().to_owned();
                }
            }
        }
        let args = shallow(args.iter().map(String::as_str).collect());
        let out = wthor_in(dir.path(), &args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "README: wthor {command}\n{}",
            stderr(&out)
        );
        ran += 1;
    }
    ran
}

#[test]
fn the_readme_examples_run() {
    let ran = run_readme_examples(None);
    assert!(ran >= 24, "only {ran} README examples ran");
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn the_readme_examples_on_the_real_archive_run() {
    let real = crate::wthor_data().join("wthor");
    let ran = run_readme_examples(Some(&real));
    assert!(
        ran >= 2,
        "only {ran} README examples on the real archive ran"
    );
}
