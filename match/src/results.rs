//! The results file: a header with the match seed, then one tab-separated `key=value` line per finished
//! game, appended and flushed as each game ends, so an interrupted match loses nothing and `--resume` can
//! pick it up. A line that cannot be written whole (a full disk) is cut off again ([`RecordFile`]): the file
//! keeps the games saved before, and the runner stops with the error.

use super::config::Order;
use super::game::{GameRecord, Termination};
use super::record_file::RecordFile;
use engine::rules::GameResult;
use engine::Color;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// First words of the header line.
const HEADER: &str = "# chuhan match results v1";

/// Where a game sits in the schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId {
    /// Index of the pairing (engine A against engine B).
    pub pairing: usize,
    /// Index of the game pair (one opening, colours swapped).
    pub pair: u32,
    /// 0: A has Red; 1: B has Red.
    pub slot: u8,
}

/// Per-engine move statistics of one game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// Moves with a reported depth.
    pub depth_moves: u64,
    /// Sum of reported depths.
    pub depth_sum: u64,
    /// Engine moves.
    pub moves: u64,
    /// Total thinking time, milliseconds.
    pub time_ms: u64,
}

/// One line of the results file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultRow {
    /// Schedule position.
    pub id: GameId,
    /// Opening line index (after ordering).
    pub opening: usize,
    /// Red engine.
    pub red: String,
    /// Black engine.
    pub black: String,
    /// Result.
    pub outcome: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies in the game record.
    pub plies: usize,
    /// Red's and Black's move statistics.
    pub stats: [MoveStats; 2],
    /// Free text (tabs and newlines turned into spaces).
    pub detail: String,
}

impl ResultRow {
    /// The row for a finished game.
    pub fn from_record(id: GameId, opening: usize, rec: &GameRecord) -> ResultRow {
        let stats = [Color::Red, Color::Black].map(|c| {
            let (depth_moves, depth_sum, moves, time_ms) = rec.move_stats(c);
            MoveStats { depth_moves, depth_sum, moves, time_ms }
        });
        ResultRow {
            id,
            opening,
            red: rec.red.clone(),
            black: rec.black.clone(),
            outcome: rec.outcome,
            termination: rec.termination,
            plies: rec.moves.len(),
            stats,
            detail: rec.detail.clone(),
        }
    }

    /// The file line (no newline).
    pub fn to_line(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        let s = &self.stats;
        format!(
            "pairing={}\tpair={}\tslot={}\topening={}\tred={}\tblack={}\tresult={}\ttermination={}\tplies={}\t\
             red_stats={},{},{},{}\tblack_stats={},{},{},{}\tdetail={}",
            self.id.pairing,
            self.id.pair,
            self.id.slot,
            self.opening,
            clean(&self.red),
            clean(&self.black),
            self.outcome,
            self.termination.label(),
            self.plies,
            s[0].depth_moves,
            s[0].depth_sum,
            s[0].moves,
            s[0].time_ms,
            s[1].depth_moves,
            s[1].depth_sum,
            s[1].moves,
            s[1].time_ms,
            clean(&self.detail),
        )
    }

    /// Reads a line written by `to_line`.
    pub fn parse(line: &str) -> Option<ResultRow> {
        let field = |key: &str| -> Option<&str> {
            line.split('\t').find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        };
        let stats = |key: &str| -> Option<MoveStats> {
            let v: Vec<u64> = field(key)?.split(',').map(|x| x.parse().ok()).collect::<Option<_>>()?;
            (v.len() == 4).then(|| MoveStats {
                depth_moves: v[0],
                depth_sum: v[1],
                moves: v[2],
                time_ms: v[3],
            })
        };
        Some(ResultRow {
            id: GameId {
                pairing: field("pairing")?.parse().ok()?,
                pair: field("pair")?.parse().ok()?,
                slot: field("slot")?.parse().ok().filter(|s| *s < 2)?,
            },
            opening: field("opening")?.parse().ok()?,
            // A carriage return inside a field (a hand-edited file) reads as the space `to_line` writes
            // for it, so a row read and written back reads the same (found by the `results_merge` target).
            red: field("red")?.replace('\r', " "),
            black: field("black")?.replace('\r', " "),
            outcome: GameResult::from_pgn(field("result")?).filter(|r| r.is_over())?,
            termination: Termination::from_label(field("termination")?)?,
            plies: field("plies")?.parse().ok()?,
            stats: [stats("red_stats")?, stats("black_stats")?],
            detail: field("detail").unwrap_or("").replace('\r', " "),
        })
    }
}

/// The results file could not be used.
#[derive(Debug)]
pub enum ResultsError {
    /// Reading or writing failed.
    Io(String, io::Error),
    /// A line that is not a result; (line number, text).
    BadLine(usize, String),
    /// `--resume` of a file without our header.
    NoHeader,
    /// A file that already holds results, without `--resume`.
    Exists(String),
}

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultsError::Io(p, e) => write!(f, "results file {p}: {e}"),
            ResultsError::BadLine(n, l) => write!(f, "results file line {n} is not a result: {l}"),
            ResultsError::NoHeader => write!(f, "the results file does not start with '{HEADER}'"),
            ResultsError::Exists(p) => write!(f, "{p} already holds results: use --resume, or another file"),
        }
    }
}

impl std::error::Error for ResultsError {}

/// An open results file.
pub struct ResultsFile {
    file: RecordFile<File>,
    path: String,
}

/// What an existing results file holds.
pub struct Previous {
    /// The seed of the match.
    pub seed: u64,
    /// Games per pairing and number of pairings, from the header (files before `--shard` lack them).
    pub schedule: Option<(u32, usize)>,
    /// The opening order, from the header (older files lack it).
    pub order: Option<Order>,
    /// Finished games.
    pub rows: Vec<ResultRow>,
}

impl ResultsFile {
    /// Reads the header and rows of an existing file (for `--resume`). A last line cut short by an
    /// interruption is ignored (`open` removes it and its game is played again).
    pub fn read(path: &Path) -> Result<Previous, ResultsError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ResultsError::Io(name, e))?;
        ResultsFile::parse(&text)
    }

    /// Reads the header and rows of a results file's text (what [`ResultsFile::read`] does after reading
    /// the file; the fuzz target calls it directly).
    pub fn parse(text: &str) -> Result<Previous, ResultsError> {
        let mut lines = text.lines().enumerate();
        let header = lines.next().and_then(|(_, l)| l.strip_prefix(HEADER)).ok_or(ResultsError::NoHeader)?;
        let word = |key: &str| header.split_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('='));
        let seed = word("seed").and_then(|s| s.parse().ok()).ok_or(ResultsError::NoHeader)?;
        let schedule =
            word("games").and_then(|g| g.parse().ok()).zip(word("pairings").and_then(|p| p.parse().ok()));
        let order = word("order").and_then(Order::from_word);
        let complete = text.ends_with('\n');
        let count = text.lines().count();
        let mut rows = Vec::new();
        for (i, line) in lines {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            match ResultRow::parse(line) {
                Some(r) => rows.push(r),
                None if i + 1 == count && !complete => {}
                // Shown cut short and with control characters made visible (found by the `results_merge`
                // fuzz target: a bare carriage return in a bad line garbled the one-line message).
                None => return Err(ResultsError::BadLine(i + 1, engine::text::clip_to(line, 80))),
            }
        }
        Ok(Previous { seed, schedule, order, rows })
    }

    /// Opens the file for appending; a new file gets the header, with `about` (`games=G pairings=P`, the
    /// opening order, the shard) after the seed. A file that holds results is refused unless resuming.
    pub fn open(path: &Path, seed: u64, resume: bool, about: &str) -> Result<ResultsFile, ResultsError> {
        let name = path.display().to_string();
        let existing = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if existing > 0 && !resume {
            return Err(ResultsError::Exists(name));
        }
        let io = |e| ResultsError::Io(name.clone(), e);
        if existing > 0 {
            // Drop a line cut short by an interruption; its game is played again.
            let text = std::fs::read(path).map_err(io)?;
            if text.last() != Some(&b'\n') {
                let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                OpenOptions::new().write(true).open(path).and_then(|f| f.set_len(keep as u64)).map_err(io)?;
            }
        }
        let file = OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut file = RecordFile::new(file, len);
        if len == 0 {
            file.append(format!("{HEADER} seed={seed} {about}\n").as_bytes()).map_err(io)?;
        }
        Ok(ResultsFile { file, path: name })
    }

    /// Appends a row and flushes it to the operating system; a row that cannot be written whole is cut
    /// off again, leaving the file as it was.
    pub fn append(&mut self, row: &ResultRow) -> Result<(), ResultsError> {
        self.file
            .append(format!("{}\n", row.to_line()).as_bytes())
            .map_err(|e| ResultsError::Io(self.path.clone(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::rules::Reason;

    /// A row for game 0 of "a" against "b" from opening 0, with no move statistics and no detail.
    fn game_row(outcome: GameResult, termination: Termination, plies: usize) -> ResultRow {
        ResultRow {
            id: GameId { pairing: 0, pair: 0, slot: 0 },
            opening: 0,
            red: "a".into(),
            black: "b".into(),
            outcome,
            termination,
            plies,
            stats: [MoveStats::default(); 2],
            detail: String::new(),
        }
    }

    #[test]
    fn rows_round_trip() {
        let row = ResultRow {
            id: GameId { pairing: 1, pair: 7, slot: 1 },
            opening: 12,
            red: "chuhan new".into(),
            black: "base".into(),
            stats: [
                MoveStats { depth_moves: 10, depth_sum: 70, moves: 12, time_ms: 1500 },
                MoveStats { depth_moves: 0, depth_sum: 0, moves: 11, time_ms: 900 },
            ],
            detail: "x played\tillegal move a0a1 in 9/9 w".into(),
            ..game_row(GameResult::BlackWins, Termination::Rules(Reason::IllegalMove), 33)
        };
        let line = row.to_line();
        let back = ResultRow::parse(&line).expect("parses");
        assert_eq!(back.detail, "x played illegal move a0a1 in 9/9 w");
        assert_eq!(ResultRow { detail: row.detail.replace('\t', " "), ..row }, back);
        assert_eq!(ResultRow::parse("pairing=1\tpair=x"), None);
    }

    /// Found by the `results_merge` fuzz target: a carriage return inside a name read back as itself but
    /// was written as a space, so a row read and written back no longer read as the same row.
    #[test]
    fn a_carriage_return_inside_a_field_reads_as_the_space_it_is_written_as() {
        let line =
            game_row(GameResult::Draw, Termination::MaxPlies, 4).to_line().replace("red=a", "red=a\rb");
        let row = ResultRow::parse(&line).expect("a row");
        assert_eq!(row.red, "a b");
        assert_eq!(ResultRow::parse(&row.to_line()), Some(row));
    }

    /// Found by the `results_merge` fuzz target: a bad line with a bare carriage return was echoed raw,
    /// so the one-line error message rewrote the start of the terminal line; a 1 MB line came back whole.
    #[test]
    fn a_bad_line_is_shown_on_one_short_line() {
        let text = format!("{HEADER} seed=7\npairing=1\tplies\u{7f}\r\x1b[2Jtats=0\n");
        let Err(e) = ResultsFile::parse(&text) else { panic!("a bad line is refused") };
        let message = e.to_string();
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert!(message.starts_with("results file line 2 is not a result: pairing=1"), "{message}");
        let long = format!("{HEADER} seed=7\n{}\n", "x".repeat(1 << 20));
        let message = ResultsFile::parse(&long).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.len() < 200 && message.ends_with("..."), "{} bytes", message.len());
    }

    #[test]
    fn resume_reads_the_seed_and_skips_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("chuhan-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.txt");
        let _ = std::fs::remove_file(&path);
        let mut f = ResultsFile::open(&path, 42, false, "games=2 pairings=1 order=sequential").unwrap();
        let row = game_row(GameResult::Draw, Termination::MaxPlies, 10);
        f.append(&row).unwrap();
        drop(f);
        assert!(matches!(ResultsFile::open(&path, 1, false, ""), Err(ResultsError::Exists(_))));
        std::fs::write(&path, std::fs::read_to_string(&path).unwrap() + "pairing=0\tpair=0\tsl").unwrap();
        let prev = ResultsFile::read(&path).unwrap();
        assert_eq!((prev.seed, prev.rows.len(), prev.schedule), (42, 1, Some((2, 1))));
        assert_eq!(prev.order, Some(Order::Sequential));
        drop(ResultsFile::open(&path, 42, true, "").unwrap());
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("detail=\n"), "the cut line is gone");
        assert_eq!(ResultsFile::read(&path).unwrap().rows, vec![row]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
