//! The solve cache: round trips, damaged files set aside, merges.

use wthor_db::cache::*;

#[test]
fn round_trips_and_rejects_damage() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.bin");
    let cache = SolveCache::new();
    cache.insert(1, 2, -64);
    cache.insert(0x8000_0000_0000_0000, 4, 64);
    cache.save(&path).unwrap();
    let back = SolveCache::load(&path).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(back.get(1, 2), Some(-64));
    assert_eq!(back.get(0x8000_0000_0000_0000, 4), Some(64));
    assert_eq!(back.get(1, 4), None);
    assert_eq!(back.stats(), (2, 1, 0));

    let good = std::fs::read(&path).unwrap();
    let mut bytes = good.clone();
    bytes[20] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        SolveCache::load(&path),
        Err(CacheError::Damaged { .. })
    ));
    // Ours but cut short, anywhere: damaged, never a panic.
    for len in 8..good.len() {
        std::fs::write(&path, &good[..len]).unwrap();
        assert!(
            matches!(SolveCache::load(&path), Err(CacheError::Damaged { .. })),
            "{len}"
        );
    }
    for other in [&b"garbage"[..], b"WTHSOL", b"{\"file\":\"WTH_2001.wtb\"}\n"] {
        std::fs::write(&path, other).unwrap();
        assert!(matches!(
            SolveCache::load(&path),
            Err(CacheError::NotACache { .. })
        ));
    }
    std::fs::write(&path, b"").unwrap();
    assert!(SolveCache::load(&path).unwrap().is_empty());
    let missing = SolveCache::load(&dir.path().join("none")).unwrap();
    assert!(missing.is_empty());
}

#[test]
fn caches_merge_and_conflicts_are_counted() {
    let a = SolveCache::new();
    a.insert(1, 2, 10);
    a.insert(4, 8, -2);
    let b = SolveCache::new();
    b.insert(1, 2, 10);
    b.insert(4, 8, 6);
    b.insert(16, 32, 0);
    assert_eq!(a.merge_from(&b), 1);
    assert_eq!(a.len(), 3);
    assert_eq!(a.get(4, 8), Some(-2), "the first score is kept");
    assert_eq!(a.get(16, 32), Some(0));
}

#[test]
fn set_aside_keeps_every_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.bin");
    for (n, name) in ["c.bin.damaged", "c.bin.damaged-2", "c.bin.damaged-3"]
        .iter()
        .enumerate()
    {
        std::fs::write(&path, [n as u8]).unwrap();
        let aside = set_aside(&path).unwrap();
        assert_eq!(aside, dir.path().join(name));
        assert!(!path.exists());
    }
    for (n, name) in ["c.bin.damaged", "c.bin.damaged-2", "c.bin.damaged-3"]
        .iter()
        .enumerate()
    {
        assert_eq!(std::fs::read(dir.path().join(name)).unwrap(), [n as u8]);
    }
}
