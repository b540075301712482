//! The network file: a fixed header, the quantised weights, and a checksum over everything before it.
//!
//! All numbers little-endian. Version 1 holds a piece-square network; version 2 adds, right after the
//! version, the number of the network's [`FeatureSet`] (0 piece-square, 1 king buckets). Piece-square
//! networks are still written as version 1, so their bytes and checksums (the built-in net's file name)
//! stay as they were; every other set is written as version 2.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `CHUHANNN` |
//! | 4 | format version (1 or [`VERSION`]) |
//! | 4 | version 2 only: feature set ([`FeatureSet::id`]) |
//! | 4 × 5 | inputs (1260, or 7560 with king buckets), hidden size, QA, QB, output scale (internal units per unit of output) |
//! | 2 × inputs × hidden | input weights (i16, one row of `hidden` per feature) |
//! | 2 × hidden | hidden biases (i16) |
//! | 2 × 2 × hidden | output weights (i16: side to move's half, then the other half) |
//! | 4 | output bias (i32) |
//! | 8 | FNV-1a-64 of every byte before it |

use super::features::FeatureSet;
use super::network::{Network, OUTPUT_SCALE, QA, QB};
use engine::checksum::fnv1a;
use std::fmt;
use std::io;
use std::path::Path;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"CHUHANNN";
/// The newest format version: it names the feature set.
pub const VERSION: u32 = 2;
/// The first format version: piece-square networks only (still written for them).
pub const VERSION_1: u32 = 1;
/// Bytes before the weights in a version 1 file.
pub const HEADER_LEN: usize = 8 + 4 + 4 * 5;
/// Bytes before the weights in a version 2 file.
pub const HEADER_LEN_2: usize = HEADER_LEN + 4;

/// Why a network file was refused.
#[derive(Debug)]
pub enum LoadError {
    /// No file at that path.
    Missing(String),
    /// The file could not be read.
    Io(io::Error),
    /// Shorter than its header says it must be.
    Truncated {
        /// Bytes a network of the announced shape takes.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// Longer than its header says: not one whole network.
    TrailingData {
        /// Bytes a network of the announced shape takes.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// Does not start with [`MAGIC`].
    NotANetwork,
    /// Another format version.
    WrongVersion(u32),
    /// A version 2 file naming a feature set this build does not know.
    UnknownFeatureSet(u32),
    /// A shape or scale this build cannot run (inputs, hidden size, quantisation).
    WrongShape(String),
    /// The checksum does not match the contents.
    BadChecksum {
        /// The checksum the file carries.
        stored: u64,
        /// The checksum of its contents.
        computed: u64,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Missing(path) => write!(f, "no network file at {path}"),
            LoadError::Io(e) => write!(f, "cannot read the network file: {e}"),
            LoadError::Truncated { expected, found } => {
                write!(f, "network file truncated: {found} bytes, {expected} expected")
            }
            LoadError::TrailingData { expected, found } => {
                write!(f, "network file too long: {found} bytes, {expected} expected")
            }
            LoadError::NotANetwork => write!(f, "not a chuhan network file (no CHUHANNN magic)"),
            LoadError::WrongVersion(v) => {
                write!(
                    f,
                    "network file format version {v}, this build reads versions {VERSION_1} and {VERSION}"
                )
            }
            LoadError::UnknownFeatureSet(id) => {
                write!(f, "network file names feature set {id}, this build knows 0 (piece-square) and 1 (king buckets)")
            }
            LoadError::WrongShape(why) => write!(f, "network shape not supported: {why}"),
            LoadError::BadChecksum { stored, computed } => {
                write!(f, "network file checksum {stored:016x} does not match its contents ({computed:016x})")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Smallest and largest hidden layer (per perspective) this build runs; sizes are multiples of 16 so
/// that the vector code needs no tail.
pub const HIDDEN_RANGE: (usize, usize) = (16, 1024);

/// The header length of a network of `features` as this build writes it.
pub fn header_len(features: FeatureSet) -> usize {
    match features {
        FeatureSet::PieceSquare => HEADER_LEN,
        _ => HEADER_LEN_2,
    }
}

/// The file length of a network of `features` with `hidden` neurons per perspective, as this build
/// writes it.
pub fn file_len(features: FeatureSet, hidden: usize) -> usize {
    header_len(features) + after_header_len(features, hidden)
}

/// Bytes after the header: weights, biases, output bias and checksum.
fn after_header_len(features: FeatureSet, hidden: usize) -> usize {
    2 * (features.inputs() * hidden + hidden + 2 * hidden) + 4 + 8
}

/// The bytes of `net` as a file.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let hidden = net.hidden();
    let features = net.features();
    let mut b = Vec::with_capacity(file_len(features, hidden));
    b.extend_from_slice(MAGIC);
    match features {
        FeatureSet::PieceSquare => b.extend_from_slice(&VERSION_1.to_le_bytes()),
        _ => [VERSION, features.id()].iter().for_each(|v| b.extend_from_slice(&v.to_le_bytes())),
    }
    for v in [features.inputs() as u32, hidden as u32, QA as u32, QB as u32, OUTPUT_SCALE as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let (input_weights, input_bias, output_weights, output_bias) = net.parts();
    for &w in input_weights.iter().chain(input_bias).chain(output_weights) {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&output_bias.to_le_bytes());
    let sum = fnv1a(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
}

/// Reads a network from the bytes of a file, checking every field.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, LoadError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
            LoadError::Truncated { expected: HEADER_LEN, found: bytes.len() }
        } else {
            LoadError::NotANetwork
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(LoadError::Truncated { expected: HEADER_LEN, found: bytes.len() });
    }
    let (features, header) = match u32_at(bytes, 8) {
        VERSION_1 => (FeatureSet::PieceSquare, HEADER_LEN),
        VERSION if bytes.len() < HEADER_LEN_2 => {
            return Err(LoadError::Truncated { expected: HEADER_LEN_2, found: bytes.len() })
        }
        VERSION => {
            let id = u32_at(bytes, 12);
            (FeatureSet::from_id(id).ok_or(LoadError::UnknownFeatureSet(id))?, HEADER_LEN_2)
        }
        version => return Err(LoadError::WrongVersion(version)),
    };
    let [inputs, hidden, qa, qb, scale] =
        [0, 4, 8, 12, 16].map(|at| u32_at(bytes, header - 20 + at) as usize);
    if inputs != features.inputs() {
        return Err(LoadError::WrongShape(format!(
            "{inputs} inputs, the {features} feature set has {}",
            features.inputs()
        )));
    }
    if !(HIDDEN_RANGE.0..=HIDDEN_RANGE.1).contains(&hidden) || !hidden.is_multiple_of(16) {
        return Err(LoadError::WrongShape(format!(
            "hidden size {hidden} (a multiple of 16 from {} to {} is needed)",
            HIDDEN_RANGE.0, HIDDEN_RANGE.1
        )));
    }
    if (qa, qb, scale) != (QA as usize, QB as usize, OUTPUT_SCALE as usize) {
        return Err(LoadError::WrongShape(format!(
            "quantisation QA={qa} QB={qb} scale={scale}, this build uses {QA}, {QB}, {OUTPUT_SCALE}"
        )));
    }
    let expected = header + after_header_len(features, hidden);
    if bytes.len() < expected {
        return Err(LoadError::Truncated { expected, found: bytes.len() });
    }
    if bytes.len() > expected {
        return Err(LoadError::TrailingData { expected, found: bytes.len() });
    }
    let body_end = expected - 8;
    let stored = u64::from_le_bytes(bytes[body_end..].try_into().unwrap_or([0; 8]));
    let computed = fnv1a(&bytes[..body_end]);
    if stored != computed {
        return Err(LoadError::BadChecksum { stored, computed });
    }
    let mut at = header;
    let mut take = |n: usize| {
        let s = &bytes[at..at + n];
        at += n;
        s
    };
    let input_weights = i16s(take(2 * features.inputs() * hidden));
    let input_bias = i16s(take(2 * hidden));
    let output_weights = i16s(take(4 * hidden));
    let b = take(4);
    let output_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    Network::from_parts(features, hidden, input_weights, input_bias, output_weights, output_bias)
        .map_err(|e| LoadError::WrongShape(e.to_string()))
}

/// Reads the network file at `path`.
pub fn load(path: &Path) -> Result<Network, LoadError> {
    match std::fs::read(path) {
        Ok(bytes) => from_bytes(&bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(LoadError::Missing(path.display().to_string())),
        Err(e) => Err(LoadError::Io(e)),
    }
}

/// Writes `net` to `path`.
pub fn save(net: &Network, path: &Path) -> io::Result<()> {
    std::fs::write(path, to_bytes(net))
}
