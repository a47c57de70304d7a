//! A pattern evaluation of 8x8 positions, trained on the WTHOR archive.
//!
//! Logistello/Edax style: the board is cut into 46 pattern instances of 11
//! kinds (corner 3x3, corner 2x5, edge with its two X squares, the lines
//! 2–4 away from the edge, the diagonals of 4 to 8 squares); every
//! configuration of every kind has a weight per game stage (the number of
//! empty squares, in buckets of [`STAGE_WIDTH`]), and the evaluation is
//! their sum: an estimate of the final disc difference for the side to
//! move.
//!
//! The squares of each instance are gathered with BMI2's `pext` where the
//! processor has a fast one (chosen at run time; 12% less time per
//! evaluation than the shifts and multiplications used elsewhere, which
//! give the same indices).
//!
//! The symmetric instances of a kind share its weights, read in the
//! orientation of the instance, and a kind that is its own mirror image
//! (the 3x3 corner across its diagonal, an edge end to end) has equal
//! weights for mirrored configurations: the evaluation is the same under
//! the eight symmetries of the board.
//!
//! The weights are trained by least squares on the positions of the
//! archive (`cargo xtask train`) and embedded in the library with
//! `include_bytes!` (`eval.bin`: a header with a version and a checksum,
//! then `i16` weights in units of 1/[`SCALE`] disc); [`Weights::read`] reads
//! another weight file, checked, when asked (the crate's one I/O).
//!
//! The exact solver uses the evaluation only to order moves: its scores
//! never depend on it.
//!
//! ```
//! use othello_core::{bitboard8, eval};
//!
//! let (p, o) = bitboard8::START;
//! // The start position is symmetric: close to even.
//! assert!(eval::evaluate(p, o).abs() < 4 * eval::SCALE);
//! ```

/// Weights are stored in units of `1 / SCALE` disc.
pub const SCALE: i32 = 64;
/// Empty-square counts per stage bucket.
pub const STAGE_WIDTH: u32 = 5;
/// Number of game stages (the last one also holds 60 empties).
pub const STAGES: usize = 12;
/// Pattern instances evaluated per position.
pub const INSTANCES: usize = 46;
/// The version of the weight file format and of the feature layout.
pub(crate) const VERSION: u32 = 1;

/// Configurations of each pattern kind (3 to the number of its squares; the
/// squares are listed at [`feature_indices`]).
const KIND_SIZE: [u32; KINDS] = [
    3u32.pow(9),  // corner 3x3
    3u32.pow(10), // corner 2x5
    3u32.pow(10), // edge + 2 X squares
    3u32.pow(8),  // second line
    3u32.pow(8),  // third line
    3u32.pow(8),  // fourth line
    3u32.pow(8),  // diagonal of 8
    3u32.pow(7),  // diagonal of 7
    3u32.pow(6),  // diagonal of 6
    3u32.pow(5),  // diagonal of 5
    3u32.pow(4),  // diagonal of 4
];

/// Number of pattern kinds.
pub(crate) const KINDS: usize = 11;

/// Where each kind's weights start within a stage; the last element is the
/// stage's bias (a constant term).
pub(crate) const KIND_OFFSET: [u32; KINDS + 1] = {
    let mut t = [0u32; KINDS + 1];
    let mut k = 0;
    while k < KINDS {
        t[k + 1] = t[k] + KIND_SIZE[k];
        k += 1;
    }
    t
};

/// Weights per stage: every configuration of every kind, and the bias.
pub(crate) const STAGE_LEN: usize = KIND_OFFSET[KINDS] as usize + 1;
/// The index of the bias within a stage.
pub(crate) const BIAS: u32 = KIND_OFFSET[KINDS];

/// Length of the weight file header.
pub(crate) const HEADER_LEN: usize = 32;
/// The first eight bytes of a weight file.
pub(crate) const MAGIC: [u8; 8] = *b"WTHEVAL\0";

/// Bytes aligned for the `i16` weights they hold.
#[repr(C, align(2))]
struct Aligned<T: ?Sized>(T);

/// The embedded weights (see the module documentation for the layout),
/// aligned so that [`weight`] reads them in place.
static FILE_ALIGNED: &Aligned<[u8]> = &Aligned(*include_bytes!("eval.bin"));
static FILE: &[u8] = &FILE_ALIGNED.0;

const fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

// The header must describe the layout this code computes.
const _: () = {
    assert!(FILE.len() == HEADER_LEN + 2 * STAGES * STAGE_LEN);
    let mut i = 0;
    while i < 8 {
        assert!(FILE[i] == MAGIC[i]);
        i += 1;
    }
    assert!(u32_at(FILE, 8) == VERSION);
    assert!(u32_at(FILE, 12) == STAGES as u32);
    assert!(u32_at(FILE, 16) == STAGE_LEN as u32);
    assert!(u32_at(FILE, 20) == SCALE as u32);
};

/// The header of a weight file for `weights` (`STAGES * STAGE_LEN` of
/// them): magic, version, stages, weights per stage, scale, checksum.
#[must_use]
#[cfg(any(test, feature = "train"))]
pub(crate) fn file_header(weights: &[i16]) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(STAGES as u32).to_le_bytes());
    h[16..20].copy_from_slice(&(STAGE_LEN as u32).to_le_bytes());
    h[20..24].copy_from_slice(&(SCALE as u32).to_le_bytes());
    let bytes: Vec<u8> = weights.iter().flat_map(|w| w.to_le_bytes()).collect();
    h[24..32].copy_from_slice(&checksum(&bytes).to_le_bytes());
    h
}

/// FNV-1a (64 bits) of `bytes`: the checksum of a weight file's weights.
#[must_use]
#[cfg(any(test, feature = "train"))]
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    fnv1a(bytes)
}

/// FNV-1a (64 bits) of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Whether the embedded weights match the checksum of their header.
#[must_use]
#[cfg(test)]
pub(crate) fn embedded_checksum_holds() -> bool {
    let stored = u64::from_le_bytes(FILE[24..32].try_into().unwrap_or([0; 8]));
    stored == checksum(&FILE[HEADER_LEN..])
}

/// The stage of a position with `empties` empty squares.
#[inline]
#[must_use]
pub(crate) const fn stage(empties: u32) -> usize {
    let s = (empties / STAGE_WIDTH) as usize;
    if s >= STAGES { STAGES - 1 } else { s }
}

/// `B2T[bits]`: the base-3 number with the binary digits of `bits`.
static B2T: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut pow = 1u32;
        let mut i = 0;
        while i < 10 {
            if b & (1 << i) != 0 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// Column `c` to `7 - c`.
#[inline]
const fn mirror_columns(x: u64) -> u64 {
    x.reverse_bits().swap_bytes()
}

/// The eight images of `x`: image `k` transposes if `k & 4`, then mirrors
/// the columns if `k & 1`, then the rows if `k & 2`.
#[inline]
fn images(x: u64) -> [u64; 8] {
    let t = crate::symmetry::transpose8(x);
    [
        x,
        mirror_columns(x),
        x.swap_bytes(),
        x.reverse_bits(),
        t,
        mirror_columns(t),
        t.swap_bytes(),
        t.reverse_bits(),
    ]
}

/// The squares `(r, r + d)`.
const fn diagonal(d: u32) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r + d < 8 {
        m |= 1 << (8 * r + r + d);
        r += 1;
    }
    m
}

/// The squares of diagonal `(r, r + d)` gathered to bits `0..8 - d`.
#[inline(always)]
fn gather_diagonal(x: u64, d: u32) -> usize {
    ((x & diagonal(d)).wrapping_mul(0x0101_0101_0101_0101) >> (56 + d)) as usize
}

#[inline(always)]
fn ternary(p: usize, o: usize) -> u32 {
    // (The masks tell the compiler what it cannot see through `pext`.)
    u32::from(B2T[p & 1023]) + 2 * u32::from(B2T[o & 1023])
}

// The squares of each kind on the image that reads it, whose digits (see
// [`feature_indices`]) follow the squares in ascending order; the lines
// are rows 2 to 4 and the diagonals [`diagonal`].
/// The squares of a corner 3x3: a1..c3.
const C3_MASK: u64 = 0x07_0707;
/// The squares of a corner 2x5: a1..e2.
const C25_MASK: u64 = 0x1f1f;
/// The squares of an edge + 2X: a1..h1, b2, g2.
const E2X_MASK: u64 = 0x42ff;

/// How [`feature_indices`] gathers the squares of a pattern into the low
/// bits of a word: with shifts and multiplications anywhere, with the
/// processor's parallel bit extraction where it is fast.
trait Gather {
    /// The squares of `mask` (one of the masks above or a diagonal), in
    /// ascending order, as bits `0..`.
    fn gather(x: u64, mask: u64) -> usize;
}

/// Shifts, masks and multiplications.
struct Shifts;

impl Gather for Shifts {
    #[inline(always)]
    fn gather(x: u64, mask: u64) -> usize {
        match mask {
            C3_MASK => ((x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1c0)) as usize,
            C25_MASK => ((x & 31) | ((x >> 3) & 0x3e0)) as usize,
            E2X_MASK => ((x & 0xff) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200)) as usize,
            // A whole row (lines 2 to 4); the diagonals all hold a square
            // of the first row.
            _ if mask & 0xff == 0 => ((x & mask) >> mask.trailing_zeros()) as usize,
            _ => gather_diagonal(x, mask.trailing_zeros()),
        }
    }
}

/// BMI2's `pext` (one instruction; fast from Intel Haswell and AMD Zen 3 on).
#[cfg(target_arch = "x86_64")]
struct Pext;

#[cfg(target_arch = "x86_64")]
impl Gather for Pext {
    #[inline(always)]
    fn gather(x: u64, mask: u64) -> usize {
        // SAFETY: only inlined into functions built with BMI2
        // (`feature_indices_bmi2`, `evaluate_bmi2`), which are only called
        // where the processor has it.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) as usize }
    }
}

/// The 46 pattern instances of the position where the owner of `p` is to
/// move: each one the index of its configuration within a stage (kind
/// offset plus the base-3 number of its squares, digit 0 empty, 1 `p`, 2
/// `o`), in kind order.
///
/// Each kind is read on images of the board ([`transpose`], mirrors) at a
/// fixed place near a1; digit `i` of
/// - a corner 3x3 is square `(i / 3, i % 3)`, of a corner 2x5 `(i / 5, i % 5)`
///   (row, column from the corner);
/// - an edge + 2X is square `(0, i)` for `i < 8`, b2 for 8, g2 for 9;
/// - line `k` is `(k - 1, i)`; a diagonal of `8 - d` squares is `(i, i + d)`.
#[must_use]
#[cfg(feature = "train")]
pub(crate) fn feature_indices(p: u64, o: u64) -> [u32; INSTANCES] {
    #[cfg(target_arch = "x86_64")]
    if fast_pext() {
        // SAFETY: `fast_pext` found BMI2.
        return unsafe { feature_indices_bmi2(p, o) };
    }
    indices::<Shifts>(p, o)
}

/// [`feature_indices`] with `pext`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[cfg(any(test, feature = "train"))]
fn feature_indices_bmi2(p: u64, o: u64) -> [u32; INSTANCES] {
    indices::<Pext>(p, o)
}

/// Whether this processor has a fast `pext`: BMI2, and not an AMD
/// processor before Zen 3 (family 19h), where it is microcoded and takes
/// dozens of cycles.
#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static FAST: AtomicU8 = AtomicU8::new(0);
    match FAST.load(Ordering::Relaxed) {
        1 => return false,
        2 => return true,
        _ => {}
    }
    let fast = std::arch::is_x86_feature_detected!("bmi2") && {
        let vendor = std::arch::x86_64::__cpuid(0);
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let eax = std::arch::x86_64::__cpuid(1).eax;
        let family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
        !amd || family >= 0x19
    };
    FAST.store(if fast { 2 } else { 1 }, Ordering::Relaxed);
    fast
}

/// [`feature_indices`] with the squares gathered by `G`.
#[inline(always)]
fn indices<G: Gather>(p: u64, o: u64) -> [u32; INSTANCES] {
    let ip = images(p);
    let io = images(o);
    let mut f = [0u32; INSTANCES];
    let mut n = 0;
    let mut push = |kind: usize, mask: u64, k: usize| {
        f[n] = KIND_OFFSET[kind] + ternary(G::gather(ip[k], mask), G::gather(io[k], mask));
        n += 1;
    };
    for k in 0..4 {
        push(0, C3_MASK, k);
    }
    for k in 0..8 {
        push(1, C25_MASK, k);
    }
    for k in [0, 2, 4, 6] {
        push(2, E2X_MASK, k);
    }
    for line in 1..4 {
        for k in [0, 2, 4, 6] {
            push(2 + line, 0xff << (8 * line), k);
        }
    }
    for k in [0, 1] {
        push(6, diagonal(0), k);
    }
    for d in 1..5 {
        for k in [0, 4, 1, 2] {
            push(6 + d as usize, diagonal(d), k);
        }
    }
    f
}

/// The configuration index of a kind (`0..3^len`) with its digits
/// permuted: digit `i` of the result is digit `perm[i]` of `v`.
#[cfg(any(test, feature = "train"))]
fn permute(v: u32, perm: &[usize]) -> u32 {
    let mut digits = [0u32; 10];
    let mut x = v;
    for d in digits.iter_mut().take(perm.len()) {
        *d = x % 3;
        x /= 3;
    }
    let mut r = 0;
    for &src in perm.iter().rev() {
        r = r * 3 + digits[src];
    }
    r
}

/// The index (within a stage) that must carry the same weight as `index`
/// because the kind is its own mirror image: the 3x3 corner transposed, an
/// edge, line or diagonal reversed; `index` itself for the corner 2x5 and
/// the bias.
#[must_use]
#[cfg(any(test, feature = "train"))]
pub(crate) fn mirror_index(index: u32) -> u32 {
    let Some(kind) = (0..KINDS).find(|&k| index < KIND_OFFSET[k + 1]) else {
        return index;
    };
    let v = index - KIND_OFFSET[kind];
    let m = match kind {
        0 => permute(v, &[0, 3, 6, 1, 4, 7, 2, 5, 8]),
        1 => v,
        2 => permute(v, &[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
        3..=6 => permute(v, &[7, 6, 5, 4, 3, 2, 1, 0]),
        _ => {
            let len = 8 - (kind - 6);
            let perm: Vec<usize> = (0..len).rev().collect();
            permute(v, &perm)
        }
    };
    KIND_OFFSET[kind] + m
}

/// Weights in a file: `STAGES * STAGE_LEN`.
pub(crate) const LEN: usize = STAGES * STAGE_LEN;

/// The embedded weights, read in place.
#[cfg(target_endian = "little")]
pub(crate) fn embedded_table() -> &'static [i16; LEN] {
    // SAFETY: the bytes after the header are `LEN` little-endian `i16`
    // (the layout check above), 2-aligned (`Aligned`, even `HEADER_LEN`),
    // and this target is little-endian; they live as long as the program.
    unsafe { &*FILE[HEADER_LEN..].as_ptr().cast::<[i16; LEN]>() }
}

/// The embedded weights, decoded once.
#[cfg(not(target_endian = "little"))]
pub(crate) fn embedded_table() -> &'static [i16; LEN] {
    static TABLE: std::sync::LazyLock<Box<[i16; LEN]>> =
        std::sync::LazyLock::new(|| decode(&FILE[HEADER_LEN..]));
    &TABLE
}

/// `LEN` little-endian `i16` (`bytes` holds `2 * LEN`).
fn decode(bytes: &[u8]) -> Box<[i16; LEN]> {
    let v: Vec<i16> = bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    v.into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the caller checked the length"))
}

/// A set of evaluation weights: the embedded ones ([`Weights::embedded`],
/// what [`evaluate`] uses) or those of a weight file written by `cargo
/// xtask train` ([`Weights::read`], [`Weights::from_bytes`]), checked
/// before use: its magic, version, layout and checksum.
///
/// ```
/// use othello_core::{bitboard8, eval::{self, Weights}};
///
/// let (p, o) = bitboard8::START;
/// assert_eq!(Weights::embedded().evaluate(p, o), eval::evaluate(p, o));
/// let err = Weights::from_bytes(b"not weights").unwrap_err();
/// assert!(err.to_string().contains("not a weight file"), "{err}");
/// ```
#[derive(Clone)]
pub struct Weights {
    table: Table,
    checksum: u64,
}

#[derive(Clone)]
enum Table {
    Embedded(&'static [i16; LEN]),
    Owned(Box<[i16; LEN]>),
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Weights")
            .field("embedded", &matches!(self.table, Table::Embedded(_)))
            .field("checksum", &format_args!("{:016x}", self.checksum))
            .finish()
    }
}

/// A weight file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The file could not be read.
    #[error("{path}: cannot read the weight file")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Not a weight file, or one of another layout or version.
    #[error("{}{problem}", at(.path.as_deref()))]
    Invalid {
        /// The file, when read from one.
        path: Option<std::path::PathBuf>,
        /// What is wrong, and what was expected.
        problem: String,
    },
}

fn at(path: Option<&std::path::Path>) -> String {
    path.map_or_else(String::new, |p| format!("{}: ", p.display()))
}

impl Weights {
    /// The weights embedded in the library.
    #[must_use]
    pub fn embedded() -> &'static Weights {
        static EMBEDDED: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| Weights {
            table: Table::Embedded(embedded_table()),
            checksum: u64::from_le_bytes(FILE[24..32].try_into().unwrap_or([0; 8])),
        });
        &EMBEDDED
    }

    /// The weights of a weight file's bytes, checked: the magic
    /// (`WTHEVAL\0`), this library's version and layout (stages, weights
    /// per stage, scale), the length, and the checksum of the weights.
    ///
    /// # Errors
    /// [`WeightsError::Invalid`] saying what differs.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let invalid = |problem: String| WeightsError::Invalid {
            path: None,
            problem,
        };
        if bytes.len() < HEADER_LEN || bytes[..8] != MAGIC {
            return Err(invalid(format!(
                "not a weight file (it does not start with {:?})",
                String::from_utf8_lossy(&MAGIC[..7])
            )));
        }
        let field = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if field(8) != VERSION {
            return Err(invalid(format!(
                "a weight file of version {}, this library reads version {VERSION}",
                field(8)
            )));
        }
        let layout = (field(12), field(16), field(20));
        let ours = (STAGES as u32, STAGE_LEN as u32, SCALE as u32);
        if layout != ours {
            return Err(invalid(format!(
                "a weight file of {} stages of {} weights at scale {}, this library's have {} of {} at {}",
                layout.0, layout.1, layout.2, ours.0, ours.1, ours.2
            )));
        }
        if bytes.len() != HEADER_LEN + 2 * LEN {
            return Err(invalid(format!(
                "{} bytes, a weight file has {}",
                bytes.len(),
                HEADER_LEN + 2 * LEN
            )));
        }
        let stored = u64::from_le_bytes(bytes[24..32].try_into().unwrap_or([0; 8]));
        let computed = fnv1a(&bytes[HEADER_LEN..]);
        if stored != computed {
            return Err(invalid(format!(
                "damaged: the weights' checksum is {computed:016x}, the header says {stored:016x}"
            )));
        }
        Ok(Weights {
            table: Table::Owned(decode(&bytes[HEADER_LEN..])),
            checksum: stored,
        })
    }

    /// The weights of the weight file at `path` (see
    /// [`from_bytes`](Self::from_bytes)); errors name the file.
    ///
    /// # Errors
    /// [`WeightsError::Io`] when it cannot be read,
    /// [`WeightsError::Invalid`] when it is not a valid weight file.
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<Weights, WeightsError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| WeightsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Weights::from_bytes(&bytes).map_err(|e| match e {
            WeightsError::Invalid { problem, .. } => WeightsError::Invalid {
                path: Some(path.to_path_buf()),
                problem,
            },
            e => e,
        })
    }

    /// The checksum of the weights (FNV-1a of their bytes, as the file's
    /// header records it): which weights these are.
    #[must_use]
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The weights, indexed `stage * STAGE_LEN + index`.
    #[inline]
    pub(crate) fn table(&self) -> &[i16; LEN] {
        match &self.table {
            Table::Embedded(t) => t,
            Table::Owned(t) => t,
        }
    }

    /// [`evaluate`] with these weights.
    #[must_use]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        evaluate_in(self.table(), p, o)
    }
}

/// The evaluation of the position where the owner of `p` is to move
/// against `o`, in units of 1/[`SCALE`] disc: an estimate of the final
/// disc difference (positive: good for the side to move). Symmetric under
/// the eight board symmetries.
#[must_use]
pub fn evaluate(p: u64, o: u64) -> i32 {
    evaluate_in(embedded_table(), p, o)
}

/// [`evaluate`] with the weights `w`.
#[inline]
pub(crate) fn evaluate_in(w: &[i16; LEN], p: u64, o: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if fast_pext() {
        // SAFETY: `fast_pext` found BMI2.
        return unsafe { evaluate_bmi2(w, p, o) };
    }
    evaluate_with::<Shifts>(w, p, o)
}

/// [`evaluate`] with `pext`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn evaluate_bmi2(w: &[i16; LEN], p: u64, o: u64) -> i32 {
    evaluate_with::<Pext>(w, p, o)
}

/// [`evaluate`] with the squares gathered by `G`.
#[inline(always)]
fn evaluate_with<G: Gather>(w: &[i16; LEN], p: u64, o: u64) -> i32 {
    let o = o & !p;
    let s = stage((!(p | o)).count_ones());
    let f = indices::<G>(p, o);
    let stage = &w[s * STAGE_LEN..(s + 1) * STAGE_LEN];
    let mut sum = i32::from(stage[BIAS as usize]);
    for &i in &f {
        sum += i32::from(stage[i as usize]);
    }
    sum
}

/// [`evaluate`] in discs, rounded, clamped to `-64..=64`.
#[must_use]
pub fn estimate(p: u64, o: u64) -> i32 {
    let e = evaluate(p, o);
    ((e + e.signum() * SCALE / 2) / SCALE).clamp(-64, 64)
}

/// The result of [`search`]: an estimate, not an exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The estimated final disc difference for the side to move, in discs
    /// (`-64..=64`).
    pub score: i32,
    /// The move of the best estimate (a square 0..64), `None` when the side
    /// to move must pass or the game is over.
    pub best_move: Option<u8>,
}

/// A `depth`-ply alpha-beta search on [`evaluate`] (passes do not count a
/// ply; finished games score exactly): a midgame estimate of the position
/// and its best move, for positions too far from the end to solve.
///
/// ```
/// use othello_core::{bitboard8, eval};
///
/// let (p, o) = bitboard8::START;
/// let e = eval::search(p, o, 4);
/// assert!(e.score.abs() <= 8);
/// assert!(e.best_move.is_some());
/// ```
#[must_use]
pub fn search(p: u64, o: u64, depth: u32) -> Estimate {
    use crate::bitboard8::{flips, legal_moves};
    let o = o & !p;
    let depth = depth.max(1);
    let (alpha, beta) = (-(1 << 20), 1 << 20);
    let mut moves = legal_moves(p, o);
    let (v, best_move) = if moves == 0 {
        (
            alphabeta(embedded_table(), p, o, depth, alpha, beta, flips),
            None,
        )
    } else {
        let mut best = (i32::MIN, None);
        while moves != 0 {
            let x = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(p, o, x);
            let v = -alphabeta(
                embedded_table(),
                o ^ f,
                p | f | (1 << x),
                depth - 1,
                -beta,
                -best.0.max(alpha),
                flips,
            );
            if v > best.0 {
                best = (v, Some(x as u8));
            }
        }
        best
    };
    Estimate {
        score: ((v + v.signum() * SCALE / 2) / SCALE).clamp(-64, 64),
        best_move,
    }
}

/// Fail-hard alpha-beta on [`evaluate`], `depth` plies (passes do not
/// count), in 1/[`SCALE`] discs, finished games scored exactly: the one
/// shallow search, under [`search`] and under the solver's move ordering
/// and probcut, each with its own `flips` kernel (the same discs).
#[inline]
pub(crate) fn alphabeta<F>(
    w: &[i16; LEN],
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    flips: F,
) -> i32
where
    F: Fn(u64, u64, usize) -> u64 + Copy,
{
    use crate::bitboard8::{game_over_score, legal_moves};
    if depth == 0 {
        return evaluate_in(w, p, o);
    }
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        if legal_moves(o, p) == 0 {
            return SCALE * game_over_score(p, o);
        }
        return -alphabeta(w, o, p, depth, -beta, -alpha, flips);
    }
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        let s = -alphabeta(w, o ^ f, p | f | (1 << sq), depth - 1, -beta, -alpha, flips);
        if s > alpha {
            alpha = s;
            if s >= beta {
                break;
            }
        }
    }
    alpha
}

/// The internals of the evaluation that `cargo xtask train` fits and writes
/// (pattern indices, stages, the file's header): behind the `train`
/// feature, which only xtask turns on; not part of the library's API.
#[cfg(feature = "train")]
pub mod train {
    /// Pattern instances of an evaluation.
    pub const INSTANCES: usize = super::INSTANCES;
    /// Weights per stage (every configuration of every kind, and the bias).
    pub const STAGE_LEN: usize = super::STAGE_LEN;
    /// The index of the bias weight in a stage.
    pub const BIAS: u32 = super::BIAS;
    /// Game stages, by empty squares.
    pub const STAGES: usize = super::STAGES;
    /// Empty squares per stage.
    pub const STAGE_WIDTH: u32 = super::STAGE_WIDTH;
    /// Names of the pattern kinds, in the order of their weights.
    pub const KIND_NAMES: [&str; super::KINDS] = [
        "corner 3x3",
        "corner 2x5",
        "edge + 2X",
        "line 2",
        "line 3",
        "line 4",
        "diagonal 8",
        "diagonal 7",
        "diagonal 6",
        "diagonal 5",
        "diagonal 4",
    ];
    /// The length of `eval.bin`'s header.
    pub const HEADER_LEN: usize = super::HEADER_LEN;
    /// 1/SCALE disc is the unit of the weights.
    pub const SCALE: i32 = super::SCALE;

    /// The stage of a position with `empties` empty squares.
    #[must_use]
    pub const fn stage(empties: u32) -> usize {
        super::stage(empties)
    }

    /// The weight index of each pattern instance of a position.
    #[must_use]
    pub fn feature_indices(p: u64, o: u64) -> [u32; INSTANCES] {
        super::feature_indices(p, o)
    }

    /// The index of the mirror image of a configuration (the same weight).
    #[must_use]
    pub fn mirror_index(index: u32) -> u32 {
        super::mirror_index(index)
    }

    /// The header of an `eval.bin` holding `weights`.
    #[must_use]
    pub fn file_header(weights: &[i16]) -> [u8; HEADER_LEN] {
        super::file_header(weights)
    }

    /// The checksum `eval.bin`'s header records of its weights' bytes.
    #[must_use]
    pub fn checksum(bytes: &[u8]) -> u64 {
        super::checksum(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_transpose(x: u64) -> u64 {
        let mut r = 0;
        for s in 0..64 {
            if x >> s & 1 != 0 {
                r |= 1 << ((s % 8) * 8 + s / 8);
            }
        }
        r
    }

    #[test]
    fn transpose_and_mirrors_move_squares() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            crate::xorshift(&mut x);
            assert_eq!(crate::symmetry::transpose8(x), naive_transpose(x));
            for s in 0..64 {
                assert_eq!(mirror_columns(1 << s), 1 << (s / 8 * 8 + 7 - s % 8), "{s}");
            }
        }
    }

    /// Both ways of gathering the squares of the patterns give the same
    /// indices and evaluations (`pext` where this processor has BMI2).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_gathers_like_the_shifts() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            // Nothing to compare on this processor (the shifts are what
            // runs here, and every other test checks them).
            return;
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || crate::xorshift(&mut x);
        for i in 0..20_000 {
            // Boards a quarter and three quarters full, the sides disjoint.
            let occupied = if i % 2 == 0 {
                next() & next()
            } else {
                next() | next()
            };
            let p = occupied & next();
            let o = occupied & !p;
            let shifts = indices::<Shifts>(p, o);
            // SAFETY: this processor has BMI2 (checked above).
            let pext = unsafe { feature_indices_bmi2(p, o) };
            assert_eq!(shifts, pext, "{p:#x} {o:#x}");
            let w = embedded_table();
            // SAFETY: as above.
            let pext = unsafe { evaluate_bmi2(w, p, o) };
            assert_eq!(evaluate_with::<Shifts>(w, p, o), pext, "{p:#x} {o:#x}");
        }
    }

    #[test]
    fn mirror_index_is_an_involution_within_its_kind() {
        for i in (0..STAGE_LEN as u32).step_by(7) {
            let m = mirror_index(i);
            assert_eq!(mirror_index(m), i);
            let kind = |x: u32| KIND_OFFSET.iter().rposition(|&o| o <= x);
            assert_eq!(kind(m), kind(i));
        }
    }

    #[test]
    fn embedded_weights_hold_their_version_and_checksum() {
        assert_eq!(FILE[..8], MAGIC);
        assert_eq!(u32_at(FILE, 8), VERSION);
        assert!(embedded_checksum_holds());
        let weights: Vec<i16> = FILE[HEADER_LEN..]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(file_header(&weights), FILE[..HEADER_LEN]);
        // Trained, and tied: mirrored configurations weigh the same.
        assert!(weights.iter().filter(|&&w| w != 0).count() > STAGE_LEN);
        for s in 0..STAGES {
            for i in (0..STAGE_LEN as u32).step_by(13) {
                let w = embedded_table();
                let at = |i: u32| w[s * STAGE_LEN + i as usize];
                assert_eq!(at(i), at(mirror_index(i)), "{s} {i}");
            }
        }
    }

    #[test]
    fn corners_and_edges_are_worth_something() {
        // The side to move owns the four edges, the opponent the middle.
        let edges = 0xff81_8181_8181_81ffu64;
        let middle = 0x0000_3c3c_3c3c_0000u64;
        assert!(evaluate(edges, middle) > 10 * SCALE);
        assert!(evaluate(middle, edges) < -10 * SCALE);
        assert_eq!(
            estimate(edges, middle),
            ((evaluate(edges, middle) + SCALE / 2) / SCALE).min(64)
        );
    }

    #[test]
    fn layout_fits_the_file() {
        assert_eq!(STAGE_LEN, 167_266);
        const { assert!(HEADER_LEN + 2 * STAGES * STAGE_LEN <= 4 << 20) };
    }
}
