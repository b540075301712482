//! Tables on disk, for the engine: directories scanned once, each file read on its first probe.
//!
//! Opening checks each file's header and length (cheap), so a foreign or truncated file is refused at
//! once; the checksum is checked when the file is first needed. Either way a refused file gives one
//! message (see [`Tablebases::take_messages`]) and is never probed: play goes on without it.
//!
//! Reading a big table takes a while (KRPKR, 108 MB: about a third of a second), too long to spend inside
//! a timed search: the search's probes ([`Tablebases::probe_wdl_loaded`], [`Tablebases::probe_root_loaded`])
//! never wait, they start the read on a thread of its own and count as misses until it is done. The other
//! probes (the `probe` command, `d`, tools and tests) wait for the read.

use super::file::{self, FileError, EXTENSION};
use super::material::Material;
use super::perpetual;
use super::table::{Table, Verdict, Wdl};
use crate::position::Position;
use crate::types::Move;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Messages about refused files, shared with the threads that read them.
type Messages = Arc<Mutex<Vec<String>>>;

/// One table file found in a directory.
struct Entry {
    path: PathBuf,
    material: Material,
    /// The table once read (`None`: the file was refused).
    table: OnceLock<Option<Arc<Table>>>,
    /// A read on a thread of its own has been started.
    reading: AtomicBool,
}

impl Entry {
    /// The table, reading the file first if no one has (waiting for a read under way).
    fn load(&self, messages: &Mutex<Vec<String>>) -> Option<&Table> {
        let table = self.table.get_or_init(|| match file::read(&self.path, Some(self.material)) {
            Ok(t) => Some(Arc::new(t)),
            Err(e) => {
                messages.lock().unwrap_or_else(PoisonError::into_inner).push(refusal(&self.path, &e));
                None
            }
        });
        table.as_deref()
    }
}

/// Whether a probe may wait for a table's file to be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Reading {
    /// Read it now and answer.
    Wait,
    /// Answer only from tables already read; start reading a missing one on a thread of its own.
    Background,
}

/// A set of table files, probed by position.
#[derive(Default)]
pub struct Tablebases {
    entries: HashMap<Material, Arc<Entry>>,
    max_pieces: usize,
    messages: Messages,
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
/// greater is better. A forced mate comes first, shorter before longer. Then a win by the perpetual-check
/// rule: a capture first (it leaves the table for a smaller one, the rule's lowest round), then the lowest
/// round of the rule's fixed point, then a quiet move, then the lowest layer (see
/// [`super::perpetual`]: this order follows a winning strategy, the number alone would not). Then draws;
/// then losses by the rule before losses to mate, the longer resistance first.
pub fn move_order(child: Verdict, capture: bool, check: bool) -> (i32, bool, i32) {
    let d = i32::from(child.dtm);
    match (child.wdl, child.perpetual) {
        (Wdl::Loss, false) => (300_000 - d, !check, 0),
        (Wdl::Loss, true) => {
            let round = if capture { 0 } else { i32::from(perpetual::round_of(child.dtm)) };
            (200_000 - round, !check, -d)
        }
        (Wdl::Draw, _) => (0, !check, 0),
        (Wdl::Win, true) => (-100_000 + d, !check, 0),
        (Wdl::Win, false) => (-200_000 + d, !check, 0),
    }
}

/// The verdict on `pos` from `probe` and the moves that keep it best ([`move_order`]), if `probe` covers
/// `pos` and every position its moves lead to.
pub fn best_moves(pos: &Position, probe: impl Fn(&Position) -> Option<Verdict>) -> Option<RootProbe> {
    let verdict = probe(pos)?;
    let mut pos = pos.clone();
    let mut ranked = Vec::new();
    for &m in pos.legal_moves().as_slice() {
        let capture = pos.is_capture(m);
        pos.make_move(m);
        let child = probe(&pos);
        let check = pos.in_check();
        pos.unmake_move();
        ranked.push((move_order(child?, capture, check), m));
    }
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    let top = ranked.first().map(|r| r.0)?;
    let best = ranked.iter().take_while(|r| r.0 == top).map(|r| r.1).collect();
    Some(RootProbe { verdict, best })
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
                        let entry = Entry {
                            path,
                            material: h.material,
                            table: OnceLock::new(),
                            reading: AtomicBool::new(false),
                        };
                        tb.entries.insert(h.material, Arc::new(entry));
                    }
                    Err(e) => messages.push(refusal(&path, &e)),
                }
            }
        }
        tb.messages = Arc::new(Mutex::new(messages));
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
        self.table_with(material, Reading::Wait)
    }

    fn table_with(&self, material: &Material, reading: Reading) -> Option<&Table> {
        let entry = self.entries.get(material)?;
        if reading == Reading::Wait {
            return entry.load(&self.messages);
        }
        if let Some(table) = entry.table.get() {
            return table.as_deref();
        }
        if !entry.reading.swap(true, Ordering::AcqRel) {
            let (background, messages) = (Arc::clone(entry), Arc::clone(&self.messages));
            let started = std::thread::Builder::new().name(format!("read {material}")).spawn(move || {
                background.load(&messages);
            });
            // Where no thread can be started (a wasm build without threads), read it here, once.
            if started.is_err() {
                return entry.load(&self.messages);
            }
        }
        None
    }

    fn probe_with(&self, pos: &Position, reading: Reading) -> Option<Verdict> {
        if self.entries.is_empty() || pos.occupied().count() as usize > self.max_pieces {
            return None;
        }
        let (material, flip) = Material::of(pos).canonical();
        self.table_with(&material, reading)?.verdict(pos, flip)
    }

    /// The verdict on `pos`, if a table covers it (reading the table first if needed).
    pub fn probe(&self, pos: &Position) -> Option<Verdict> {
        self.probe_with(pos, Reading::Wait)
    }

    /// Win/draw/loss of `pos`, if a table covers it (reading the table first if needed).
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        self.probe(pos).map(|v| v.wdl)
    }

    /// Win/draw/loss of `pos` from a table already read, without waiting: a covering table not yet in
    /// memory starts being read on a thread of its own, and until then the answer is `None`. For the search.
    pub fn probe_wdl_loaded(&self, pos: &Position) -> Option<Wdl> {
        self.probe_with(pos, Reading::Background).map(|v| v.wdl)
    }

    /// The verdict on `pos` and its best moves, if tables cover it and every position its moves lead to
    /// (reading the tables first if needed).
    pub fn probe_root(&self, pos: &Position) -> Option<RootProbe> {
        self.probe_root_with(pos, Reading::Wait)
    }

    /// [`Tablebases::probe_root`] from tables already read, without waiting (see
    /// [`Tablebases::probe_wdl_loaded`]). For the search's root.
    pub fn probe_root_loaded(&self, pos: &Position) -> Option<RootProbe> {
        self.probe_root_with(pos, Reading::Background)
    }

    fn probe_root_with(&self, pos: &Position, reading: Reading) -> Option<RootProbe> {
        best_moves(pos, |p| self.probe_with(p, reading))
    }
}

fn refusal(path: &Path, e: &FileError) -> String {
    format!("tablebase {} refused: {e}; playing on without it", path.display())
}
