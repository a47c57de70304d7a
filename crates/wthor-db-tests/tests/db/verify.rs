//! The solver checks: batches, results logs and their merge, workers, the
//! theoretical-score rule.

mod batch {
    use std::path::Path;
    use wthor_db::verify::*;

    use std::sync::atomic::{AtomicBool, Ordering};

    use std::sync::atomic::AtomicUsize;
    use wthor_db::cache::{CacheError, SolveCache};
    use wthor_db::verify::{RecordKey, ResultsLog, Workers};

    fn jobs(n: usize) -> Vec<Job<usize>> {
        let candidates = vec![(0..n).map(|i| (i, i)).collect::<Vec<_>>()];
        select_jobs(&candidates, None, None, None, |f, i, _| {
            RecordKey::new(Path::new("f.wtb"), "2025-01-01", i + f, &[0])
        })
        .todo
    }

    /// A log line: the key and the value.
    fn line(job: &Job<usize>, c: &usize) -> serde_json::Result<serde_json::Value> {
        let mut v = serde_json::to_value(&job.key)?;
        v["value"] = (*c).into();
        Ok(v)
    }

    fn workers(n: usize) -> Workers {
        Workers {
            workers: n,
            solver_threads: 1,
            tt_bits: 8,
        }
    }

    #[test]
    fn results_come_back_in_input_order_and_are_logged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let (log, _) = ResultsLog::open(&path).unwrap();
        let stop = AtomicBool::new(false);
        let jobs = jobs(30);
        let seen = AtomicUsize::new(0);
        let checked = run_batch(
            &jobs,
            Batch {
                log: Some((log, &path)),
                saver: None,
                stop: &stop,
            },
            workers(2).solvers(jobs.len()).unwrap(),
            |job, _| job.record * 10,
            line,
            |_| {
                seen.fetch_add(1, Ordering::SeqCst);
            },
        )
        .unwrap();
        assert!(!checked.stopped);
        assert_eq!(seen.into_inner(), 30);
        let values: Vec<usize> = checked.done.iter().map(|(_, c)| *c).collect();
        assert_eq!(values, (0..30).map(|i| i * 10).collect::<Vec<_>>());
        // A re-run finds them all in the log: nothing left to do.
        let (log, _) = ResultsLog::open(&path).unwrap();
        let candidates = vec![(0..30).map(|i| (i, i)).collect::<Vec<_>>()];
        let again = select_jobs(&candidates, None, None, Some(&log), |f, i, _| {
            RecordKey::new(Path::new("f.wtb"), "2025-01-01", i + f, &[0])
        });
        assert_eq!((again.todo.len(), again.logged.len()), (0, 30));
    }

    #[test]
    fn a_stop_keeps_what_was_done_and_logged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let (log, _) = ResultsLog::open(&path).unwrap();
        let stop = AtomicBool::new(false);
        let jobs = jobs(30);
        let count = AtomicUsize::new(0);
        let checked = run_batch(
            &jobs,
            Batch {
                log: Some((log, &path)),
                saver: None,
                stop: &stop,
            },
            // Any state: each worker owns one.
            vec![0usize],
            |job, runs: &mut usize| {
                *runs += 1;
                job.record
            },
            line,
            |_| {
                if count.fetch_add(1, Ordering::SeqCst) + 1 == 7 {
                    stop.store(true, Ordering::SeqCst);
                }
            },
        )
        .unwrap();
        assert!(checked.stopped);
        assert_eq!(checked.done.len(), 7);
        let (log, _) = ResultsLog::open(&path).unwrap();
        assert_eq!(log.records().len(), 7);
        // A stop asked before the start runs nothing.
        let none = run_batch(
            &jobs,
            Batch {
                log: None,
                saver: None,
                stop: &stop,
            },
            workers(1).solvers(jobs.len()).unwrap(),
            |job, _| job.record,
            |_, &c| Ok(serde_json::json!(c)),
            |_| {},
        )
        .unwrap();
        assert!(none.stopped && none.done.is_empty());
    }

    #[test]
    fn a_damaged_cache_is_set_aside_with_a_note_and_another_file_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.bin");
        let cache = SolveCache::new();
        cache.insert(1, 2, 3);
        cache.save(&path).unwrap();
        let (loaded, note) = load_or_set_aside(&path).unwrap();
        assert_eq!((loaded.len(), note), (1, None));
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let (loaded, note) = load_or_set_aside(&path).unwrap();
        assert_eq!(loaded.len(), 0);
        assert!(note.unwrap().contains("moved to"));
        assert_eq!(
            std::fs::read(dir.path().join("c.bin.damaged")).unwrap(),
            bytes
        );
        let other = dir.path().join("r.jsonl");
        std::fs::write(&other, "{}\n").unwrap();
        assert!(matches!(
            load_or_set_aside(&other),
            Err(CacheError::NotACache { .. })
        ));
        // The saver saves when forced, and not before a minute otherwise.
        let fresh = SolveCache::new();
        fresh.insert(1, 4, 7);
        let out = dir.path().join("saved.bin");
        let saver = CacheSaver::new(Some(&fresh), Some(&out));
        saver.maybe_save(false).unwrap();
        assert!(!out.exists());
        saver.maybe_save(true).unwrap();
        assert_eq!(SolveCache::load(&out).unwrap().len(), 1);
    }
}

mod log {
    use wthor_db::verify::*;

    use std::fs::OpenOptions;
    use std::io::Write;

    /// The key of record `i` of a 1977 file.
    fn key(i: usize) -> RecordKey {
        RecordKey {
            file: "WTH_1977.wtb".into(),
            created: "2007-05-22".into(),
            index: i,
            hash: "00".into(),
        }
    }

    #[test]
    fn results_log_resumes_and_drops_a_truncated_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        {
            let (mut log, w) = ResultsLog::open(&path).unwrap();
            assert!(w.is_empty());
            for i in 0..3 {
                log.append(&key(i), &key(i)).unwrap();
            }
        }
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"file\":\"WTH_1977.wtb\",\"crea").unwrap();
        drop(f);
        let (mut log, w) = ResultsLog::open(&path).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("truncated"));
        assert!(log.contains(&key(2)) && !log.contains(&key(3)));
        log.append(&key(3), &key(3)).unwrap();
        drop(log);
        let (log, w) = ResultsLog::open(&path).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(log.records().len(), 4);
    }

    /// A file that is not a results log (a games file given by mistake) is
    /// refused, byte for byte as it was; an empty one is a new log.
    #[test]
    fn a_file_that_is_no_results_log_is_refused_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let fixture =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/WTH_2001.wtb");
        let wtb = std::fs::read(&fixture).unwrap();
        assert!(wtb.contains(&b'\n'), "the test needs a newline byte inside");
        for (name, bytes) in [
            ("games.wtb", wtb.clone()),
            ("notes.txt", b"my notes\n{\"file\":1}\n".to_vec()),
            ("object.json", b"{\"a\":1}\n".to_vec()),
            ("cut.txt", b"no newline at all".to_vec()),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, &bytes).unwrap();
            let err = ResultsLog::open(&path).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidData, "{name}");
            let text = err.to_string();
            assert!(text.starts_with("not a results log (line 1 "), "{text}");
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name} was changed");
        }
        let path = dir.path().join("empty.jsonl");
        std::fs::write(&path, b"").unwrap();
        let (log, w) = ResultsLog::open(&path).unwrap();
        assert!(w.is_empty() && log.records().is_empty());
    }

    /// A last line without its newline that is a whole record is kept (its
    /// newline added), not dropped as an interrupted write.
    #[test]
    fn a_whole_last_record_without_its_newline_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        // As `append` writes it (through a `Value`: keys sorted).
        let line = |i| serde_json::to_value(key(i)).unwrap().to_string();
        std::fs::write(&path, format!("{}\n{}", line(0), line(1))).unwrap();
        let (mut log, w) = ResultsLog::open(&path).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert!(log.contains(&key(0)) && log.contains(&key(1)));
        log.append(&key(2), &key(2)).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{}\n{}\n{}\n", line(0), line(1), line(2)));
        // Alone in the file, too.
        std::fs::write(&path, line(5)).unwrap();
        let (log, w) = ResultsLog::open(&path).unwrap();
        assert!(w.is_empty() && log.contains(&key(5)), "{w:?}");
    }
}

mod merge {
    use wthor_db::verify::*;

    use std::path::{Path, PathBuf};

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    const A: &str = r#"{"file":"WTH_1990.wtb","created":"2000-01-01","index":3,"hash":"01","status":"ok","solved":40,"seconds":1.0}"#;
    const B: &str = r#"{"file":"WTH_1990.wtb","created":"2000-01-01","index":1,"hash":"02","status":"mismatch","solved":30,"seconds":2.0}"#;

    #[test]
    fn logs_merge_by_key_with_duplicates_and_conflicts() {
        let dir = tempfile::tempdir().unwrap();
        let a = write(dir.path(), "a.jsonl", &format!("{A}\n\n{B}\n"));
        // The same records from a re-run (other times), one with another
        // outcome, and a truncated last line.
        let again_a = A.replace("1.0", "3.5");
        let other_b = B.replace("30", "32");
        let b = write(
            dir.path(),
            "b.jsonl",
            &format!("{again_a}\n{other_b}\n{{\"file\":\"WT"),
        );
        let (ra, wa) = read_results(&a).unwrap();
        assert!(wa.is_empty());
        assert_eq!(ra.len(), 2);
        assert_eq!(ra[1].line, 3);
        let (rb, wb) = read_results(&b).unwrap();
        assert_eq!(wb.len(), 1, "{wb:?}");
        assert!(wb[0].contains("line 3"), "{wb:?}");
        let before = std::fs::read(&b).unwrap();
        let m = merge_results(&[ra, rb]);
        assert_eq!(std::fs::read(&b).unwrap(), before, "inputs are only read");
        assert_eq!(m.records.len(), 2);
        assert_eq!(m.records[0].1.key.index, 1, "sorted by key");
        assert_eq!(m.records[0].1.value["solved"], 30, "the first read is kept");
        assert_eq!(m.records[0].0, 0);
        assert_eq!(m.duplicates, 1);
        assert_eq!(m.conflicts.len(), 1);
        assert_eq!(m.conflicts[0].other.0, 1);
        assert_eq!(m.conflicts[0].other.1.value["solved"], 32);
    }

    /// Logs of two commands are told apart line by line and refused
    /// together, naming a line of each (issue 36, item 4).
    #[test]
    fn logs_of_two_kinds_are_refused_naming_a_line_of_each() {
        let key = r#""file":"WTH_1990.wtb","created":"2000-01-01","hash":"01""#;
        let theory = format!(
            r#"{{{key},"index":0,"status":"ok","depth":24,"stored":40,"solved":40,"moves":36,"nodes":9,"cached":false,"seconds":1.0}}"#
        );
        let puzzle = format!(
            r#"{{{key},"index":1,"ok":true,"problems":[],"empties":12,"stored_empties":12,"stored_score":2,"stored_move":"b3","solutions":["b3"],"empties_uncounted":false,"nodes":9,"seconds":1.0}}"#
        );
        let analysis = format!(
            r#"{{{key},"index":2,"game":"1990:2","year":1990,"black":"A","white":"B","empties":20,"moves":[]}}"#
        );
        let kinds = [
            (&theory, LogKind::Theory),
            (&puzzle, LogKind::Puzzles),
            (&analysis, LogKind::Analysis),
        ];
        for (line, kind) in kinds {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(LogKind::of(&value), Some(kind), "{line}");
        }
        let dir = tempfile::tempdir().unwrap();
        let a = write(dir.path(), "a.jsonl", &format!("{theory}\n{theory}\n"));
        let b = write(dir.path(), "b.jsonl", &format!("\n{analysis}\n"));
        let paths = [a.clone(), b.clone()];
        let logs = [read_results(&a).unwrap().0, read_results(&b).unwrap().0];
        assert_eq!(
            one_kind(&paths[..1], &logs[..1]).unwrap(),
            Some(LogKind::Theory)
        );
        assert_eq!(one_kind(&[], &[]).unwrap(), None);
        let e = one_kind(&paths, &logs).unwrap_err();
        assert!(
            matches!(
                &e,
                KindError::Mixed { at, kind: LogKind::Analysis, first, first_kind: LogKind::Theory }
                    if at.path == b && at.line == 2 && first.path == a && first.line == 1
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{}:2: a result of wthor analyze, where {}:1 is one of wthor validate --solve: \
                 logs of two kinds do not merge",
                b.display(),
                a.display()
            )
        );
        // A line with a key but of no command.
        let c = write(dir.path(), "c.jsonl", &format!("{{{key},\"index\":5}}\n"));
        let e = one_kind(std::slice::from_ref(&c), &[read_results(&c).unwrap().0]).unwrap_err();
        assert!(
            matches!(&e, KindError::Unknown { at, .. } if at.line == 1),
            "{e:?}"
        );
    }

    #[test]
    fn other_files_are_not_logs() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text, line) in [
            ("x.bin", "WTHSOLV1\0\0\0\0", 1),
            (
                "y.jsonl",
                &format!("{A}\n{{\"summary\":{{}}}}\n") as &str,
                2,
            ),
            ("z.jsonl", "{\"file\":\"WT", 1),
        ] {
            let path = write(dir.path(), name, text);
            match read_results(&path) {
                Err(LogError::NotALog { line: l, .. }) => assert_eq!(l, line, "{name}"),
                other => panic!("{name}: {other:?}"),
            }
        }
        let empty = write(dir.path(), "e.jsonl", "");
        assert_eq!(read_results(&empty).unwrap().0, []);
        assert!(matches!(
            read_results(&dir.path().join("missing")),
            Err(LogError::Io { .. })
        ));
    }
}

mod runner {
    use std::sync::Mutex;
    use wthor_db::verify::*;

    #[test]
    fn run_parallel_hands_back_every_result() {
        let jobs: Vec<usize> = (0..20).collect();
        let seen = Mutex::new(Vec::new());
        let w = Workers {
            workers: 2,
            solver_threads: 1,
            tt_bits: 8,
        };
        run_parallel(
            &jobs,
            w,
            |&j, _| j * 2,
            |_, r| {
                seen.lock().unwrap().push(r);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, (0..20).map(|j| j * 2).collect::<Vec<_>>());
        let r = run_parallel(
            &jobs,
            w,
            |&j, _| j,
            |_, r| if r == 5 { Err(r) } else { Ok(()) },
        );
        assert_eq!(r, Err(5));
    }
}

mod theory {
    use wthor_db::verify::*;

    use othello_core::Color;

    #[test]
    fn black_discs_follow_the_wthor_rule() {
        assert_eq!(black_discs(0, Color::White), 32);
        assert_eq!(black_discs(10, Color::Black), 37);
        assert_eq!(black_discs(10, Color::White), 27);
        assert_eq!(black_discs(-64, Color::White), 64);
    }
}

/// The whole run of `validate --solve`, `puzzles --verify` and `analyze`
/// batches ([`Run`]): the fixture's 12-empty puzzles read, parsed,
/// selected, checked, logged, resumed, stopped, told to an observer.
mod run {
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;
    use std::sync::atomic::AtomicBool;

    use wthor_db::verify::*;
    use wthor_format::{FileKind, PuzzleView, WthorFile};

    /// What a run told its observer, in order.
    #[derive(Default)]
    struct Told(Mutex<Vec<String>>);

    impl Told {
        fn say(&self, what: String) {
            self.0.lock().unwrap().push(what);
        }
        fn take(&self) -> Vec<String> {
            std::mem::take(&mut *self.0.lock().unwrap())
        }
    }

    impl RunObserver<PuzzleCheck> for Told {
        fn log_warning(&self, warning: &str) {
            self.say(format!("warning {}", warning.rsplit(": ").next().unwrap()));
        }
        fn logged(&self, read: usize, unreadable: usize) {
            self.say(format!("logged {read} {unreadable}"));
        }
        fn cache_note(&self, _: &str) {
            self.say("cache note".into());
        }
        fn started(&self, total: usize) {
            self.say(format!("started {total}"));
        }
        fn checked(&self, result: &PuzzleCheck) {
            self.say(format!("checked {}", result.ok));
        }
        fn cache_saved(&self) {
            self.say("cache saved".into());
        }
    }

    fn testdata(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata")
            .join(name)
    }

    /// Runs the check of the first `n` puzzles of the inputs, `log` and
    /// `cache` given, returning the puzzle indexes checked now and logged
    /// before, whether stopped, and what the observer was told.
    fn verify(
        inputs: &[Input],
        n: usize,
        shard: Option<Shard>,
        dir: &Path,
        stop: bool,
        told: &Told,
    ) -> (Vec<usize>, Vec<usize>, bool) {
        let (files, errors) = parse_inputs(
            inputs,
            |_| Some(FileKind::Solitaires),
            |parsed| match parsed {
                WthorFile::Solitaires(s) => Some(s),
                _ => None,
            },
        );
        assert_eq!(errors.len(), 1);
        assert!(matches!(
            &errors[0],
            InputError::OtherKind {
                kind: FileKind::Games8,
                ..
            }
        ));
        // The players file beside the puzzles names them.
        assert!(!files[0].names.get(0).starts_with('#'));
        let candidates: Vec<Vec<(usize, PuzzleView<'_>)>> = files
            .iter()
            .map(|f| f.file.puzzles().enumerate().take(n).collect())
            .collect();
        let stop = AtomicBool::new(stop);
        let results = dir.join("r.jsonl");
        let cache = dir.join("c.cache");
        let run = Run::prepare(
            &candidates,
            |f, index, p: PuzzleView<'_>| files[f].key(index, p.as_bytes()),
            RunOptions {
                shard,
                results: Some(&results),
                cache: Some(&cache),
                ..RunOptions::new(&stop)
            },
            told,
        )
        .unwrap();
        let todo = run.todo().len();
        let workers = Workers {
            workers: 2,
            solver_threads: 1,
            tt_bits: 12,
        };
        let verified = run
            .check(
                workers.solvers(todo).unwrap(),
                |job, solver, _| check_puzzle(&job.record, solver),
                |job, check| serde_json::to_value(PuzzleLine::new(&files[job.file], job, check)),
                told,
            )
            .unwrap();
        assert!(
            verified.done.iter().all(|(_, c)| c.ok),
            "{:?}",
            verified.done
        );
        assert!(verified.cache.is_some());
        assert_eq!(verified.already_done, verified.logged.len());
        let indexes =
            |v: &[(Job<PuzzleView<'_>>, PuzzleCheck)]| v.iter().map(|(j, _)| j.index).collect();
        (
            indexes(&verified.done),
            indexes(&verified.logged),
            verified.stopped,
        )
    }

    #[test]
    fn a_run_checks_logs_resumes_and_stops_telling_its_observer() {
        let (inputs, errors) = read_inputs(vec![
            testdata("Solitaires_12.pzz"),
            testdata("missing.pzz"),
            testdata("WTH_2001.wtb"),
        ]);
        assert_eq!(inputs.len(), 2);
        assert!(
            matches!(&errors[..], [InputError::Read { .. }]),
            "{errors:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let told = Told::default();

        // Shard 2/2 of the first 4 puzzles: the 2nd and 4th.
        let shard = "2/2".parse().ok();
        assert_eq!(
            verify(&inputs, 4, shard, dir.path(), false, &told),
            (vec![1, 3], vec![], false)
        );
        let mut said = told.take();
        assert_eq!(
            said[..4],
            ["logged 0 0", "cache saved", "started 2", "checked true"]
        );
        assert_eq!(said[4..], ["checked true", "cache saved"]);

        // A stopped run checks nothing and keeps what the log holds.
        assert_eq!(
            verify(&inputs, 4, None, dir.path(), true, &told),
            (vec![], vec![1, 3], true)
        );
        said = told.take();
        assert_eq!(
            said,
            ["logged 2 0", "cache saved", "started 2", "cache saved"]
        );

        // The log's cut last line is dropped with a warning: that puzzle is
        // checked again, the others resumed.
        let log = dir.path().join("r.jsonl");
        let text = std::fs::read_to_string(&log).unwrap();
        std::fs::write(&log, format!("{text}{{\"cut")).unwrap();
        assert_eq!(
            verify(&inputs, 4, None, dir.path(), false, &told),
            (vec![0, 2], vec![1, 3], false)
        );
        said = told.take();
        assert_eq!(
            said[..4],
            [
                "warning dropped a truncated last line (interrupted run)",
                "logged 2 0",
                "cache saved",
                "started 2"
            ]
        );
        let lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4);
        // A line: the key, the year and players (named), the check. The
        // workers log in the order they finish: the line is found by key.
        let line = lines.iter().find(|l| l["index"] == 1).unwrap();
        assert!(!line["black"].as_str().unwrap().starts_with('#'));
        assert_eq!(line["ok"], true);
    }
}
