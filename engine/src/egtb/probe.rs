//! Tables on disk, for the engine: directories scanned once, each file read on its first probe.
//!
//! Opening checks each file's header and length (cheap), so a foreign or truncated file is refused at
//! once; the checksum is checked when the file is first needed. Either way a refused file gives one
//! message (see [`Tablebases::take_messages`]) and is never probed: play goes on without it.

use super::file::{self, FileError, EXTENSION};
use super::material::Material;
use super::table::{Table, Verdict, Wdl};
use crate::position::Position;
use crate::types::Move;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// One table file found in a directory.
struct Entry {
    path: PathBuf,
    table: OnceLock<Option<Arc<Table>>>,
}

/// A set of table files, probed by position.
#[derive(Default)]
pub struct Tablebases {
    entries: HashMap<Material, Entry>,
    max_pieces: usize,
    messages: Mutex<Vec<String>>,
}

/// What a probe of every root move says: the verdict and the moves that keep it best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    /// The verdict for the side to move.
    pub verdict: Verdict,
    /// The moves that realise it: the shortest mates when winning, the drawing moves when drawn, the
    /// longest resistance when lost; best first.
    pub best: Vec<Move>,
}

/// How a move into a position with verdict `child` (for the side to move there) ranks for the mover:
/// higher is better. A forced mate comes before a win by the perpetual-check rule (whose distance counts
/// other plies, and which the loser may drag out by checking), shorter before longer; then draws; then
/// losses by the rule before losses to mate, longer before shorter.
pub fn move_rank(child: Verdict) -> i32 {
    let rule = if child.perpetual { 50_000 } else { 0 };
    match child.wdl {
        Wdl::Loss => 100_000 - rule - child.dtm as i32,
        Wdl::Draw => 0,
        Wdl::Win => -100_000 + rule + child.dtm as i32,
    }
}

impl Tablebases {
    /// No tables.
    pub fn empty() -> Tablebases {
        Tablebases::default()
    }

    /// The tables in `dirs` (the first file of a material wins). Refused files leave a message.
    pub fn open(dirs: &[PathBuf]) -> Tablebases {
        let mut tb = Tablebases::default();
        let mut messages = Vec::new();
        for dir in dirs {
            let read = match std::fs::read_dir(dir) {
                Ok(r) => r,
                Err(e) => {
                    messages.push(format!("tablebase directory {}: {e}", dir.display()));
                    continue;
                }
            };
            let mut paths: Vec<PathBuf> = read.flatten().map(|e| e.path()).collect();
            paths.sort();
            for path in paths {
                if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
                    continue;
                }
                let expected =
                    path.file_stem().and_then(|s| s.to_str()).and_then(|s| s.parse::<Material>().ok());
                let Some(expected) = expected else {
                    messages
                        .push(refusal(&path, &FileError::Material("is not named in the file name".into())));
                    continue;
                };
                if tb.entries.contains_key(&expected) {
                    continue;
                }
                match file::read_header(&path, Some(expected)) {
                    Ok(h) => {
                        tb.max_pieces = tb.max_pieces.max(h.material.total());
                        tb.entries.insert(h.material, Entry { path, table: OnceLock::new() });
                    }
                    Err(e) => messages.push(refusal(&path, &e)),
                }
            }
        }
        tb.messages = Mutex::new(messages);
        tb
    }

    /// The tables in the directories of a path list (separated as the platform separates `PATH`).
    pub fn open_path_list(list: &str) -> Tablebases {
        let dirs: Vec<PathBuf> = std::env::split_paths(list).filter(|p| !p.as_os_str().is_empty()).collect();
        Tablebases::open(&dirs)
    }

    /// Whether no table was found.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The most pieces any table holds (0 without tables): positions with more are never probed.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The materials found and their files, by name.
    pub fn list(&self) -> Vec<(Material, PathBuf)> {
        let mut v: Vec<(Material, PathBuf)> =
            self.entries.iter().map(|(m, e)| (*m, e.path.clone())).collect();
        v.sort_by_key(|(m, _)| (m.total(), m.to_string()));
        v
    }

    /// Messages about refused files since the last call, one line each.
    pub fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.messages.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The loaded table of a stored material, reading it on first use.
    pub fn table(&self, material: &Material) -> Option<&Table> {
        let entry = self.entries.get(material)?;
        let table = entry.table.get_or_init(|| match file::read(&entry.path, Some(*material)) {
            Ok(t) => Some(Arc::new(t)),
            Err(e) => {
                self.messages.lock().unwrap_or_else(PoisonError::into_inner).push(refusal(&entry.path, &e));
                None
            }
        });
        table.as_deref()
    }

    /// The verdict on `pos`, if a table covers it.
    pub fn probe(&self, pos: &Position) -> Option<Verdict> {
        if self.entries.is_empty() || pos.occupied().count() as usize > self.max_pieces {
            return None;
        }
        let (material, flip) = Material::of(pos).canonical();
        self.table(&material)?.verdict(pos, flip)
    }

    /// Win/draw/loss of `pos`, if a table covers it.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.probe(pos).map(|v| v.wdl)
    }

    /// The verdict on `pos` and its best moves, if tables cover it and every position its moves lead to.
    pub fn probe_root(&self, pos: &Position) -> Option<RootProbe> {
        let verdict = self.probe(pos)?;
        let mut pos = pos.clone();
        let mut ranked = Vec::new();
        for &m in pos.legal_moves().as_slice() {
            pos.make_move(m);
            let child = self.probe(&pos);
            let check = pos.in_check();
            pos.unmake_move();
            ranked.push((move_rank(child?), !check, m));
        }
        // Best first; among equals, a quiet move first: a side winning by the perpetual-check rule must not
        // check for ever itself.
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let top = ranked.first().map(|r| r.0)?;
        let best = ranked.iter().take_while(|r| r.0 == top).map(|r| r.2).collect();
        Some(RootProbe { verdict, best })
    }
}

fn refusal(path: &Path, e: &FileError) -> String {
    format!("tablebase {} refused: {e}; playing on without it", path.display())
}
