//! `cargo xtask fixtures`: the fixture database in `testdata/` (placeholder).

use anyhow::Result;

pub(crate) fn update() -> Result<()> {
    anyhow::bail!("not yet")
}

pub(crate) fn check() -> Result<()> {
    anyhow::bail!("not yet")
}
