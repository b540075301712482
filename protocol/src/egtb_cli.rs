//! `chuhan egtb`: generate, probe and list endgame tablebases (engine/src/egtb).

use engine::egtb::file::{self, FileError};
use engine::egtb::{closure, generate, named_set, Material, Rules, TableSet, Tablebases, Wdl, SET_NAMES};
use engine::Position;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Prints a line on stdout; a closed pipe (`| head -1`) ends the output quietly instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `chuhan egtb`.
#[derive(clap::Args, Debug)]
pub struct EgtbArgs {
    #[command(subcommand)]
    command: EgtbCommand,
}

#[derive(clap::Subcommand, Debug)]
enum EgtbCommand {
    /// Generate tables (and the smaller ones their captures lead into) into a directory.
    Generate {
        /// Materials, Red's pieces then Black's, each side from its king: KRKAABB, KRPKR.
        materials: Vec<String>,
        /// A named set instead of (or as well as) the materials: basic, one-piece, standard.
        #[arg(long)]
        set: Option<String>,
        /// Where the files go (created if missing); tables already there are read, not regenerated.
        #[arg(long)]
        dir: PathBuf,
        /// Also generate with every cycle a draw and print how many verdicts the perpetual-check rule changes.
        #[arg(long)]
        compare: bool,
        /// Only print the materials asked for (a set expanded), one a line, and generate nothing.
        #[arg(long)]
        list_only: bool,
    },
    /// Print the verdict on a position: `win N`, `draw` or `loss N` (N plies to mate), then the best moves;
    /// `unknown` (exit code 1) when no table covers it.
    Probe {
        /// Directories with tables, separated as the platform separates PATH.
        #[arg(long)]
        dir: String,
        /// The position.
        #[arg(long)]
        fen: String,
    },
    /// List the tables in directories, one line each: material, slots, bytes, file.
    List {
        /// Directories with tables, separated as the platform separates PATH.
        #[arg(long)]
        dir: String,
    },
}

/// Runs `chuhan egtb`.
pub fn command(args: EgtbArgs) -> ExitCode {
    match args.command {
        EgtbCommand::Generate { materials, set, dir, compare, list_only } => {
            generate_cmd(&materials, set.as_deref(), &dir, compare, list_only)
        }
        EgtbCommand::Probe { dir, fen } => probe_cmd(&dir, &fen),
        EgtbCommand::List { dir } => list_cmd(&dir),
    }
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("chuhan egtb: {msg}");
    ExitCode::FAILURE
}

fn generate_cmd(names: &[String], set: Option<&str>, dir: &Path, compare: bool, list_only: bool) -> ExitCode {
    let mut targets = Vec::new();
    if let Some(s) = set {
        match named_set(s) {
            Some(v) => targets.extend(v),
            None => return fail(format!("unknown set '{s}' (known: {})", SET_NAMES.join(", "))),
        }
    }
    for n in names {
        match n.parse::<Material>() {
            Ok(m) => targets.push(m),
            Err(e) => return fail(e),
        }
    }
    if targets.is_empty() {
        return fail("nothing to generate: name materials or --set");
    }
    if list_only {
        for m in &targets {
            say!("{m}");
        }
        return ExitCode::SUCCESS;
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return fail(format!("{}: {e}", dir.display()));
    }
    let mut set = TableSet::new();
    let mut plain = TableSet::new();
    let mut total_bytes = 0u64;
    let mut total_secs = 0.0;
    for m in closure(&targets) {
        let path = dir.join(file::file_name(&m));
        let existing = path.exists().then(|| file::read(&path, Some(m)));
        match existing {
            Some(Ok(table)) => {
                say!("{m}: already in {}", path.display());
                set.insert(table);
            }
            other => {
                if let Some(Err(e)) = other {
                    eprintln!("chuhan egtb: {} refused ({e}); generating it again", path.display());
                }
                let (table, stats) = match generate(m, &set, Rules::Chinese) {
                    Ok(r) => r,
                    Err(e) => return fail(e),
                };
                let bytes = match file::write(&table, Rules::Chinese, dir) {
                    Ok((_, b)) => b,
                    Err(e) => return fail(format!("{}: {e}", path.display())),
                };
                total_bytes += bytes;
                total_secs += stats.seconds;
                say!(
                    "{m}: {} slots, {} positions (win {} draw {} loss {}), longest {} plies, perpetual-check {} \
                     ({} rounds), {} bytes, {:.2} s (set-up {:.2}, retrograde {:.2}, perpetual {:.2})",
                    stats.slots,
                    stats.legal,
                    stats.wins,
                    stats.draws,
                    stats.losses,
                    stats.max_dtm,
                    stats.perpetual,
                    stats.rule_rounds,
                    bytes,
                    stats.seconds,
                    stats.phase_seconds[0],
                    stats.phase_seconds[1],
                    stats.phase_seconds[2]
                );
                set.insert(table);
            }
        }
        if compare {
            match generate(m, &plain, Rules::CycleDraw) {
                Ok((table, _)) => {
                    let ours = set.get(&m).map(|t| differing(t, &table)).unwrap_or(0);
                    say!("{m}: {ours} verdicts differ from every-cycle-a-draw");
                    plain.insert(table);
                }
                Err(e) => return fail(e),
            }
        }
    }
    say!("generated: {total_bytes} bytes in {total_secs:.1} s");
    ExitCode::SUCCESS
}

/// Slots whose win/draw/loss differs between two tables of one material.
fn differing(a: &engine::egtb::Table, b: &engine::egtb::Table) -> u64 {
    (0..a.size()).filter(|&i| a.verdict_at(i).map(|v| v.wdl) != b.verdict_at(i).map(|v| v.wdl)).count() as u64
}

/// The verdict line of `chuhan egtb probe` and the `d` command.
pub fn verdict_text(v: engine::egtb::Verdict) -> String {
    let rule = if v.perpetual { " (perpetual-check rule)" } else { "" };
    match v.wdl {
        Wdl::Win => format!("win {}{rule}", v.dtm),
        Wdl::Draw => "draw".to_string(),
        Wdl::Loss => format!("loss {}{rule}", v.dtm),
    }
}

fn probe_cmd(dirs: &str, fen: &str) -> ExitCode {
    let pos = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let tb = Tablebases::open_path_list(dirs);
    for m in tb.take_messages() {
        eprintln!("chuhan egtb: {m}");
    }
    let probe = tb.probe_root(&pos);
    for m in tb.take_messages() {
        eprintln!("chuhan egtb: {m}");
    }
    match (probe, tb.probe(&pos)) {
        (Some(root), _) => {
            say!("{}", verdict_text(root.verdict));
            let moves: Vec<String> = root.best.iter().map(|m| m.to_string()).collect();
            say!("{}", moves.join(" "));
            ExitCode::SUCCESS
        }
        (None, Some(v)) => {
            // Covered, but some move leads into a table that is not there: the verdict alone.
            say!("{}", verdict_text(v));
            say!("");
            ExitCode::SUCCESS
        }
        (None, None) => {
            say!("unknown");
            ExitCode::FAILURE
        }
    }
}

fn list_cmd(dirs: &str) -> ExitCode {
    let tb = Tablebases::open_path_list(dirs);
    for m in tb.take_messages() {
        eprintln!("chuhan egtb: {m}");
    }
    for (m, path) in tb.list() {
        let header: Result<file::Header, FileError> = file::read_header(&path, Some(m));
        match header {
            Ok(h) => say!("{m} {} slots {} bytes {}", h.slots, h.file_len(), path.display()),
            Err(e) => say!("{m} refused: {e} {}", path.display()),
        }
    }
    ExitCode::SUCCESS
}
