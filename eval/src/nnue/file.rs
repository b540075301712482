//! The network file: a fixed header, the quantised weights, and a checksum over everything before it.
//!
//! All numbers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `CHUHANNN` |
//! | 4 | format version ([`VERSION`]) |
//! | 4 × 5 | inputs (1260), hidden size, QA, QB, output scale (internal units per unit of output) |
//! | 2 × inputs × hidden | input weights (i16, one row of `hidden` per feature) |
//! | 2 × hidden | hidden biases (i16) |
//! | 2 × 2 × hidden | output weights (i16: side to move's half, then the other half) |
//! | 4 | output bias (i32) |
//! | 8 | FNV-1a-64 of every byte before it |

use super::checksum::fnv1a;
use super::features::INPUTS;
use super::network::{Network, OUTPUT_SCALE, QA, QB};
use std::fmt;
use std::io;
use std::path::Path;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"CHUHANNN";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes before the weights.
pub const HEADER_LEN: usize = 8 + 4 + 4 * 5;

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
                write!(f, "network file format version {v}, this build reads version {VERSION}")
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

/// The file length of a network with `hidden` neurons per perspective.
pub fn file_len(hidden: usize) -> usize {
    HEADER_LEN + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4 + 8
}

/// The bytes of `net` as a file.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let hidden = net.hidden();
    let mut b = Vec::with_capacity(file_len(hidden));
    b.extend_from_slice(MAGIC);
    for v in [VERSION, INPUTS as u32, hidden as u32, QA as u32, QB as u32, OUTPUT_SCALE as u32] {
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
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(LoadError::WrongVersion(version));
    }
    let [inputs, hidden, qa, qb, scale] = [12, 16, 20, 24, 28].map(|at| u32_at(bytes, at) as usize);
    if inputs != INPUTS {
        return Err(LoadError::WrongShape(format!("{inputs} inputs, this build has {INPUTS}")));
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
    let expected = file_len(hidden);
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
    let mut at = HEADER_LEN;
    let mut take = |n: usize| {
        let s = &bytes[at..at + n];
        at += n;
        s
    };
    let input_weights = i16s(take(2 * INPUTS * hidden));
    let input_bias = i16s(take(2 * hidden));
    let output_weights = i16s(take(4 * hidden));
    let b = take(4);
    let output_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    Network::from_parts(hidden, input_weights, input_bias, output_weights, output_bias)
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
