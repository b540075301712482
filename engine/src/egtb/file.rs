//! The file of one table: `<MATERIAL>.xqtb`, little-endian.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `CHUHANTB` |
//! | 4 | format version ([`VERSION`]) |
//! | 32 | rules name, NUL-padded ([`Rules::name`]) |
//! | 16 | material name, NUL-padded (`KRKAABB`) |
//! | 8 | slots (both sides to move) |
//! | 1 | DTM width in bytes: 1 when every distance fits a byte and none is a perpetual-check result, else 2 |
//! | 7 | zero |
//! | 8 | checksum: FNV-1a (64-bit) of every byte after the header |
//! | slots / 4 rounded up | WDL, two bits per slot (0 draw, 1 win, 2 loss, 3 illegal), slot 0 in the low bits |
//! | slots × width | DTM: plies to mate; with width 2, bit 15 marks a perpetual-check result |
//!
//! A file is trusted only if every field checks out; [`read`] says why not otherwise.

use super::generate::Rules;
use super::index::Indexer;
use super::material::Material;
use super::table::{Table, CODE_DRAW, CODE_ILLEGAL, DTM_PERPETUAL};
use crate::checksum::fnv1a;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"CHUHANTB";
/// The format version written and accepted. Version 2: a perpetual-check result's number is its standing
/// in the rule's fixed point ([`super::perpetual::pack`]), no longer a count of plies.
pub const VERSION: u32 = 2;
/// The file name extension.
pub const EXTENSION: &str = "xqtb";
/// Bytes before the WDL array.
pub const HEADER_LEN: usize = 8 + 4 + 32 + 16 + 8 + 1 + 7 + 8;

/// Why a table file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// It could not be read or written.
    Io(String),
    /// Not a chuhan table (wrong magic).
    Foreign,
    /// A format version this build does not read.
    Version(u32),
    /// Generated under other rules than the ones asked for.
    Rules(String),
    /// The material field is unreadable, not stored in this colouring, or not the one the name promised.
    Material(String),
    /// Shorter or longer than its header says.
    Size {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// A header field out of range.
    Header(&'static str),
    /// The contents do not match the checksum.
    Checksum,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "cannot read it: {e}"),
            FileError::Foreign => write!(f, "not a chuhan tablebase file"),
            FileError::Version(v) => write!(f, "format version {v}, this build reads {VERSION}"),
            FileError::Rules(r) => {
                write!(f, "generated under the rules '{r}', not {}", Rules::Chinese.name())
            }
            FileError::Material(m) => write!(f, "material {m}"),
            FileError::Size { expected, found } => {
                write!(f, "truncated or padded: {found} bytes where the header implies {expected}")
            }
            FileError::Header(why) => write!(f, "bad header: {why}"),
            FileError::Checksum => write!(f, "damaged: the checksum does not match"),
        }
    }
}

impl std::error::Error for FileError {}

/// The file name of a material's table.
pub fn file_name(material: &Material) -> String {
    format!("{material}.{EXTENSION}")
}

/// The bytes of a table's file.
pub fn encode(table: &Table, rules: Rules) -> Vec<u8> {
    let words = table.dtm_words();
    let width: u8 = if words.iter().all(|&w| w < 256) { 1 } else { 2 };
    let mut body = table.wdl_bytes().to_vec();
    match width {
        1 => body.extend(words.iter().map(|&w| w as u8)),
        _ => body.extend(words.iter().flat_map(|w| w.to_le_bytes())),
    }
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; 32];
    name[..rules.name().len()].copy_from_slice(rules.name().as_bytes());
    out.extend_from_slice(&name);
    let mut mat = [0u8; 16];
    let m = table.material().to_string();
    mat[..m.len()].copy_from_slice(m.as_bytes());
    out.extend_from_slice(&mat);
    out.extend_from_slice(&table.size().to_le_bytes());
    out.push(width);
    out.extend_from_slice(&[0u8; 7]);
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Writes a table into `dir` as [`file_name`]; returns the path and the bytes written.
pub fn write(table: &Table, rules: Rules, dir: &Path) -> Result<(PathBuf, u64), FileError> {
    let path = dir.join(file_name(&table.material()));
    let bytes = encode(table, rules);
    // Written beside and renamed, so a reader never sees half a file under the table's name.
    let tmp = dir.join(format!(".{}.tmp", file_name(&table.material())));
    let io = |e: std::io::Error| FileError::Io(e.to_string());
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(&bytes).map_err(io)?;
    f.sync_all().map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok((path, bytes.len() as u64))
}

/// What the header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The rules it was generated under.
    pub rules: Rules,
    /// The material.
    pub material: Material,
    /// Slots.
    pub slots: u64,
    /// DTM bytes per slot.
    pub width: u8,
    /// The checksum of the body.
    pub checksum: u64,
}

impl Header {
    /// The whole file's length this header implies.
    pub fn file_len(&self) -> u64 {
        HEADER_LEN as u64 + self.slots.div_ceil(4) + self.slots * self.width as u64
    }
}

fn field_str(bytes: &[u8]) -> Result<&str, FileError> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    std::str::from_utf8(&bytes[..end]).map_err(|_| FileError::Header("a name field is not text"))
}

/// Reads and checks a header (the first [`HEADER_LEN`] bytes); `expected` is the material the file's
/// name promises.
pub fn parse_header(bytes: &[u8], expected: Option<Material>) -> Result<Header, FileError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(FileError::Foreign);
    }
    if bytes.len() < HEADER_LEN {
        return Err(FileError::Size { expected: HEADER_LEN as u64, found: bytes.len() as u64 });
    }
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let mut v = [0u8; 4];
    v.copy_from_slice(&bytes[8..12]);
    let version = u32::from_le_bytes(v);
    if version != VERSION {
        return Err(FileError::Version(version));
    }
    let rules_name = field_str(&bytes[12..44])?;
    let rules = Rules::from_name(rules_name).ok_or_else(|| FileError::Rules(rules_name.to_string()))?;
    let name = field_str(&bytes[44..60])?;
    let material: Material =
        name.parse().map_err(|_| FileError::Material(format!("'{name}' is not a material name")))?;
    if !material.is_canonical() {
        return Err(FileError::Material(format!("{material} is not stored in this colouring")));
    }
    if let Some(e) = expected.filter(|e| *e != material) {
        return Err(FileError::Material(format!("{material} inside a file named for {e}")));
    }
    let slots = u64_at(60);
    let indexer = Indexer::new(&material).ok_or(FileError::Header("too many pieces"))?;
    if slots != indexer.size() {
        return Err(FileError::Header("slot count does not match the material"));
    }
    let width = bytes[68];
    if width != 1 && width != 2 {
        return Err(FileError::Header("DTM width is neither 1 nor 2"));
    }
    Ok(Header { rules, material, slots, width, checksum: u64_at(76) })
}

/// A table from a file's bytes, checked field by field.
pub fn decode(bytes: &[u8], expected: Option<Material>) -> Result<Table, FileError> {
    let h = parse_header(bytes, expected)?;
    if h.rules != Rules::Chinese {
        return Err(FileError::Rules(h.rules.name().to_string()));
    }
    if bytes.len() as u64 != h.file_len() {
        return Err(FileError::Size { expected: h.file_len(), found: bytes.len() as u64 });
    }
    let body = &bytes[HEADER_LEN..];
    if fnv1a(body) != h.checksum {
        return Err(FileError::Checksum);
    }
    let wdl_len = h.slots.div_ceil(4) as usize;
    let wdl = body[..wdl_len].to_vec();
    let raw = &body[wdl_len..];
    let dtm: Vec<u16> = match h.width {
        1 => raw.iter().map(|&b| b as u16).collect(),
        _ => raw.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect(),
    };
    let indexer = Indexer::new(&h.material).ok_or(FileError::Header("too many pieces"))?;
    let table = Table::from_parts(h.material, indexer, wdl, dtm);
    // A draw or illegal slot never has a distance, and two bytes a slot are written only when one byte
    // cannot hold every distance; anything else means the file was not written by us.
    for i in 0..h.slots {
        let code = table.code(i);
        if (code == CODE_DRAW || code == CODE_ILLEGAL) && table.dtm_words()[i as usize] & !DTM_PERPETUAL != 0
        {
            return Err(FileError::Header("a draw with a distance"));
        }
    }
    if h.width == 2 && table.dtm_words().iter().all(|&w| w < 256) {
        return Err(FileError::Header("two bytes a distance where one holds them all"));
    }
    Ok(table)
}

/// Reads the table file at `path`; `expected` is the material its name promises.
pub fn read(path: &Path, expected: Option<Material>) -> Result<Table, FileError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::Io(e.to_string()))?;
    decode(&bytes, expected)
}

/// Reads only the header of the file at `path` and checks the file's length against it.
pub fn read_header(path: &Path, expected: Option<Material>) -> Result<Header, FileError> {
    use std::io::Read;
    let io = |e: std::io::Error| FileError::Io(e.to_string());
    let mut f = std::fs::File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    let mut head = Vec::with_capacity(HEADER_LEN);
    Read::take(&mut f, HEADER_LEN as u64).read_to_end(&mut head).map_err(io)?;
    let h = parse_header(&head, expected)?;
    if h.rules != Rules::Chinese {
        return Err(FileError::Rules(h.rules.name().to_string()));
    }
    if len != h.file_len() {
        return Err(FileError::Size { expected: h.file_len(), found: len });
    }
    Ok(h)
}
