//! Endgame tablebases through every front door: UCI `EGTBPath`, UCCI `egtbpaths`, CECP `egtpath xiangqi`.

mod support;

use engine::egtb::{file, generate_all, Material, Rules, Tablebases};
use engine::Position;
use std::path::PathBuf;
use support::engine_pipe::{bestmove_parts, Engine};

/// Rook against king: Red mates in three plies, and only `a0a8` does it.
const KRK_WIN: &str = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";

/// A directory with the KRKA tables and those it needs (KK, KAK, KRK).
fn tables(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-egtb-session-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target: Material = "KRKA".parse().unwrap();
    let set = generate_all(&[target], Rules::Chinese, |_, _| {}).unwrap();
    for m in set.materials() {
        file::write(set.get(m).unwrap(), Rules::Chinese, &dir).unwrap();
    }
    dir
}

fn best_moves(dir: &PathBuf, fen: &str) -> Vec<String> {
    let tb = Tablebases::open(std::slice::from_ref(dir));
    tb.probe_root(&Position::from_fen(fen).unwrap()).unwrap().best.iter().map(|m| m.to_string()).collect()
}

/// Searches `KRK_WIN` with `search` (which returns the move played) until it plays one of the table's best
/// moves, at most 50 times. A search never waits for a table's file: its first probe starts the read and
/// it plays without the table until the read is done (a0a9 also wins); a search soon after plays the
/// table's shortest mate.
fn soon_plays_a_table_move(dir: &PathBuf, mut search: impl FnMut() -> String) {
    let best = best_moves(dir, KRK_WIN);
    let mut others = Vec::new();
    while others.len() < 50 {
        let played = search();
        if best.contains(&played) {
            return;
        }
        others.push(played);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("never the table's move: {others:?}");
}

#[test]
fn uci_probes_at_the_root_and_in_the_search_and_d_shows_the_verdict() {
    let dir = tables("uci");
    let mut e = Engine::spawn(support::chuhan());
    let intro = e.handshake("uci", "uciok");
    assert!(intro.iter().any(|l| l.starts_with("option name EGTBPath type string")), "{intro:?}");
    e.send(&format!("setoption name EGTBPath value {}", dir.display()));
    let lines = e.sync();
    assert_eq!(lines, vec!["info string EGTBPath: 4 tables, up to 4 pieces"], "{lines:?}");
    e.send(&format!("position fen {KRK_WIN}"));
    // `d` waits for the table to be read (the search's probes would not), so the search below finds it.
    e.send("d");
    let lines = e.sync();
    assert!(lines.iter().any(|l| l == "Tablebase: win 3"), "{lines:?}");
    e.send("go depth 4");
    let infos = e.until("bestmove", |l| l.starts_with("bestmove"));
    let best = bestmove_parts(infos.last().unwrap()).0.unwrap();
    assert!(best_moves(&dir, KRK_WIN).contains(&best), "{infos:?}");
    let hits: Vec<u64> = infos
        .iter()
        .filter_map(|l| l.split(" tbhits ").nth(1))
        .filter_map(|t| t.split(' ').next()?.parse().ok())
        .collect();
    assert!(hits.iter().any(|&h| h > 0), "{infos:?}");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_truncated_table_gets_one_line_and_the_engine_plays_on() {
    let dir = tables("bad");
    let path = dir.join("KRKA.xqtb");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let mut e = Engine::spawn(support::chuhan());
    e.handshake("ucci", "ucciok");
    e.send(&format!("setoption egtbpaths {}", dir.display()));
    let lines = e.sync();
    let refused: Vec<&String> = lines.iter().filter(|l| l.contains("refused")).collect();
    assert_eq!(refused.len(), 1, "{lines:?}");
    assert!(refused[0].starts_with("info message ") && refused[0].contains("KRKA.xqtb"), "{lines:?}");
    assert!(refused[0].contains("truncated"), "{lines:?}");
    // KRKA is not probed, KRK still is.
    e.send("position fen 4k4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    assert!(e.go("go depth 3").is_some());
    // The first search on it starts reading KRK and plays without it (see `soon_plays_a_table_move`).
    soon_plays_a_table_move(&dir, || {
        e.send(&format!("position fen {KRK_WIN}"));
        e.go("go depth 3").unwrap()
    });
    e.quit_with("bye");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cecp_egtpath_xiangqi() {
    let dir = tables("cecp");
    let mut e = Engine::spawn(support::chuhan());
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1", |l| l == "feature done=1");
    assert!(features.iter().any(|l| l.contains("egt=\"xiangqi\"")), "{features:?}");
    e.send("accepted done");
    e.send("new");
    e.send(&format!("egtpath xiangqi {}", dir.display()));
    e.send("sd 3");
    soon_plays_a_table_move(&dir, || {
        e.send("force");
        e.send(&format!("setboard {KRK_WIN}"));
        e.send("go");
        e.expect("move ").trim_start_matches("move ").to_string()
    });
    e.send("quit");
    e.wait_exit();
    let _ = std::fs::remove_dir_all(&dir);
}
