//! UCI sessions as BHGUI, VinXiangQi and cutechess-style GUIs drive them, against the real binary.

mod support;

use engine::Position;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use support::engine_pipe::{bestmove_parts, Engine};
use support::networks::NetworkFiles;

/// The timing tests (and the infinite search that would slow them) run alone, so they do not compete with
/// each other for the machine.
static TIMING: Mutex<()> = Mutex::new(());

fn start() -> Engine {
    let mut e = Engine::spawn(support::chuhan());
    e.handshake("uci", "uciok");
    e
}

/// For a timing test: waits until no other runs, then starts an engine set to the start position. Hold
/// the guard for the whole test.
fn start_alone() -> (MutexGuard<'static, ()>, Engine) {
    let alone = TIMING.lock().unwrap_or_else(|p| p.into_inner());
    let mut e = start();
    e.send("position startpos");
    (alone, e)
}

/// Plays `moves` from the start and checks that `mv` is legal there.
fn assert_legal(e: &Engine, moves: &[String], mv: &str) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        pos.try_play(m).unwrap_or_else(|err| e.fail(&format!("setup move {m}: {err}")));
    }
    if pos.parse_move(mv).is_err() {
        e.fail(&format!("bestmove {mv} is not legal after {moves:?}"));
    }
    pos
}

#[test]
fn announces_the_options_guis_expect() {
    let mut e = Engine::spawn(support::chuhan());
    e.send("uci");
    let intro = e.until("uciok", |l| l == "uciok");
    for name in [
        "Hash",
        "Threads",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UCI_ShowWDL",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(intro.iter().any(|l| l.starts_with(&prefix)), "{name} missing: {intro:?}");
    }
    assert!(intro.iter().all(|l| !l.contains("usemillisec")));
    e.quit();
}

#[test]
fn game_with_ponder_and_ponderhit() {
    let mut e = start();
    for line in [
        "setoption name Hash value 32",
        "setoption name Threads value 1",
        "setoption name Ponder value true",
        "setoption name UCI_ShowWDL value true",
        "setoption name move overhead value 20",
    ] {
        e.send(line);
    }
    assert_eq!(e.sync(), Vec::<String>::new(), "options were not accepted silently");
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go wtime 3000 btime 3000 winc 100 binc 100");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove"));
    let info = lines.iter().find(|l| l.starts_with("info depth")).unwrap_or_else(|| e.fail("no info line"));
    assert!(info.contains(" score cp ") || info.contains(" score mate "), "{info}");
    assert!(info.contains(" wdl ") && info.contains(" pv "), "{info}");
    let (best, ponder) = bestmove_parts(lines.last().unwrap());
    let best = best.unwrap_or_else(|| e.fail("no move"));
    let mut moves = vec![];
    assert_legal(&e, &moves, &best);
    moves.push(best);
    // A GUI ponders on the engine's ponder move; a search with a one-move PV gives none, and then this
    // test (like a GUI that ponders anyway) takes the first legal reply.
    let mut after = Position::startpos();
    after.try_play(&moves[0]).unwrap_or_else(|err| e.fail(&err.to_string()));
    let ponder = match ponder {
        Some(p) => {
            assert_legal(&e, &moves, &p);
            p
        }
        None => {
            after.legal_moves().iter().next().map(|m| m.to_string()).unwrap_or_else(|| e.fail("no reply"))
        }
    };
    moves.push(ponder);

    // Ponder on the expected reply: no bestmove until the GUI says ponderhit.
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go ponder wtime 2900 btime 2900 winc 100 binc 100");
    e.until("info while pondering", |l| l.starts_with("info depth"));
    let quiet: Vec<String> = std::iter::from_fn(|| e.recv(Duration::from_millis(300))).collect();
    assert!(quiet.iter().all(|l| !l.starts_with("bestmove")), "bestmove while pondering: {quiet:?}");
    e.send("isready");
    e.until("readyok while pondering", |l| l == "readyok");
    let best = e.go("ponderhit");
    assert_legal(&e, &moves, &best.unwrap_or_else(|| e.fail("no move after ponderhit")));

    // A ponder miss: stop, then the real position.
    e.send(&format!("position startpos moves {} h9g7", moves[..1].join(" ")));
    e.send("go ponder wtime 2800 btime 2800");
    e.send("stop");
    e.expect("bestmove");
    let played = vec![moves[0].clone(), "b9c7".to_string()];
    e.send(&format!("position startpos moves {}", played.join(" ")));
    let best = e.go("go wtime 2800 btime 2800 winc 100 binc 100");
    assert_legal(&e, &played, &best.unwrap_or_else(|| e.fail("no move")));
    e.quit();
}

#[test]
fn depth_nodes_mate_and_searchmoves() {
    let mut e = start();
    e.send("position startpos moves h2e2");
    for go in ["go depth 2", "go nodes 3000", "go mate 1 movetime 300", "go depth 0"] {
        let best = e.go(go);
        assert_legal(&e, &["h2e2".into()], &best.unwrap_or_else(|| e.fail(go)));
    }
    let best = e.go("go depth 2 searchmoves h9g7 b9c7");
    assert!(matches!(best.as_deref(), Some("h9g7" | "b9c7")), "{best:?}");
    e.quit();
}

#[test]
fn no_legal_move_answers_none_at_once() {
    let mut e = start();
    e.send("position fen 4k4/9/9/9/3r5/9/9/9/9/3K5 w");
    e.send("go wtime 10000 btime 10000");
    assert_eq!(e.expect("bestmove"), "bestmove (none)");
    e.send("go infinite");
    assert_eq!(e.expect("bestmove"), "bestmove (none)");
    e.quit();
}

#[test]
fn weakened_play_still_plays_legal_moves() {
    let mut e = start();
    e.send("setoption name Skill Level value 0");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1200");
    e.send("setoption name MultiPV value 3");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("position startpos");
    for _ in 0..3 {
        let best = e.go("go depth 3");
        assert_legal(&e, &[], &best.unwrap_or_else(|| e.fail("no move")));
    }
    e.quit();
}

#[test]
fn movetime_200_answers_between_150_and_400_ms() {
    let (_alone, mut e) = start_alone();
    e.sync();
    let start = Instant::now();
    let line = e.go_line("go movetime 200");
    let took = start.elapsed();
    assert_legal(&e, &[], &bestmove_parts(&line).0.unwrap_or_else(|| e.fail("no move")));
    assert!(
        took >= Duration::from_millis(150) && took <= Duration::from_millis(400),
        "go movetime 200 answered after {took:?}"
    );
    e.quit();
}

/// Starts an engine alone (see [`start_alone`]) on an infinite search from the start position, which has
/// reported once.
fn start_infinite() -> (MutexGuard<'static, ()>, Engine) {
    let (alone, mut e) = start_alone();
    e.send("go infinite");
    e.until("info from the infinite search", |l| l.starts_with("info depth"));
    (alone, e)
}

/// Sends `stop` to a search from the start position and checks it answers a legal move; returns how long
/// the answer took.
fn stop_answers(e: &mut Engine) -> Duration {
    let start = Instant::now();
    e.send("stop");
    let line = e.expect("bestmove");
    let took = start.elapsed();
    assert_legal(e, &[], &bestmove_parts(&line).0.unwrap_or_else(|| e.fail("no move")));
    took
}

#[test]
fn stop_after_go_infinite_answers_within_100_ms() {
    let (_alone, mut e) = start_infinite();
    std::thread::sleep(Duration::from_millis(200));
    // Drain what the search printed meanwhile, so the clock measures only the answer to stop.
    while let Some(l) = e.recv(Duration::from_millis(1)) {
        if l.starts_with("bestmove") {
            e.fail("bestmove before stop in an infinite search");
        }
    }
    let took = stop_answers(&mut e);
    assert!(took <= Duration::from_millis(100), "stop answered after {took:?}");
    e.quit();
}

#[test]
fn a_hash_cut_while_searching_is_said_once_the_search_is_collected() {
    // Alone: the infinite search would take the machine from the timing tests.
    let (_alone, mut e) = start_infinite();
    // The table changes when the search is over, so nothing is said yet.
    e.send("setoption name Hash value 65536");
    let lines = e.sync();
    let note = "info string Hash: using ";
    assert!(!lines.iter().any(|l| l.starts_with(note)), "{lines:?}");
    stop_answers(&mut e);
    let lines = e.sync();
    let noted: Vec<&String> = lines.iter().filter(|l| l.starts_with(note)).collect();
    if support::hash_room_mb().is_some_and(|room| room >= 65_536 + 1024) {
        // A machine this big gets what was asked, silently.
        assert!(noted.is_empty(), "{lines:?}");
    } else {
        assert!(noted.len() == 1 && noted[0].contains("instead of 65536 MiB"), "{lines:?}");
    }
    e.quit();
}

/// The hidden search-parameter options a tuner sets: accepted and used, not listed, checked like spins.
#[test]
fn tune_options_are_hidden_but_work() {
    let mut e = Engine::spawn(support::chuhan());
    e.send("uci");
    let intro = e.until("uciok", |l| l == "uciok");
    assert!(!intro.iter().any(|l| l.contains("tune.")), "{intro:?}");
    e.send("setoption name tune.rfp_margin value 90");
    e.send("setoption name tune.lmr_divisor value 200");
    let quiet = e.sync();
    assert!(quiet.iter().all(|l| !l.starts_with("info string")), "{quiet:?}");
    e.send("setoption name tune.rfp_margin value 100000");
    let refused = e.sync();
    assert!(refused.iter().any(|l| l.starts_with("info string") && l.contains("rfp_margin")), "{refused:?}");
    e.send("position startpos");
    let best = e.go("go depth 6");
    assert_legal(&e, &[], &best.unwrap_or_else(|| e.fail("no move")));
    e.quit();
}

#[test]
fn eval_options_switch_to_the_network_and_refuse_bad_files_keeping_the_net() {
    let mut e = start();
    let nets = NetworkFiles::new("evalfile");
    let mut wrong_version = eval::nnue::EMBEDDED_BYTES.to_vec();
    wrong_version[8] = 9;
    let versioned = nets.write("version.nnue", &wrong_version);
    for (path, why) in
        [(nets.missing(), "no network file"), (nets.truncated(), "truncated"), (versioned, "version 9")]
    {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string EvalFile ") && lines[0].contains(why), "{lines:?}");
        assert!(lines[0].ends_with(&format!("keeping {}", eval::nnue::EMBEDDED_NAME)), "{lines:?}");
    }
    e.send(&format!("setoption name EvalFile value {}", nets.copy().display()));
    let lines = e.sync();
    assert!(lines.len() == 1 && lines[0].starts_with("info string EvalFile: loaded"), "{lines:?}");
    e.send("setoption name Eval value nnue");
    e.send("position startpos moves h2e2");
    e.send("go depth 4");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove"));
    let (mv, _) = bestmove_parts(lines.last().map_or("", String::as_str));
    assert_legal(&e, &["h2e2".to_string()], &mv.unwrap_or_default());
    e.send("eval");
    let lines = e.sync();
    assert!(lines.iter().any(|l| l.starts_with("NNUE evaluation (") && l.contains("copy.nnue")), "{lines:?}");
    e.quit();
}

/// A search line without its wall-clock words (`time`, `nps`), which differ from run to run.
fn without_clock(line: &str) -> String {
    let mut words = line.split(' ');
    let mut kept = Vec::new();
    while let Some(w) = words.next() {
        if w == "time" || w == "nps" {
            words.next();
        } else {
            kept.push(w);
        }
    }
    kept.join(" ")
}

/// Every search line of two short games (`go depth 9` in four positions, `ucinewgame` between the games),
/// after `options`; wall-clock words taken out.
fn two_games_transcript(options: &[String]) -> Vec<String> {
    let mut e = start();
    for line in options {
        e.send(line);
    }
    e.sync();
    let mut out = Vec::new();
    for (new_game, moves) in
        [(true, ""), (false, " moves h2e2 h9g7"), (true, " moves b0c2"), (false, " moves b0c2 c6c5")]
    {
        if new_game {
            e.send("ucinewgame");
            e.sync();
        }
        e.send(&format!("position startpos{moves}"));
        e.send("go depth 9");
        out.extend(e.until("bestmove", |l| l.starts_with("bestmove")).iter().map(|l| without_clock(l)));
    }
    e.quit();
    out
}

/// A network file with the built-in net's bytes must play exactly as the built-in net: same tree, same
/// scores, same moves, across new games (the file is loaded once; `ucinewgame` and `isready` keep it).
#[test]
fn a_network_file_equal_to_the_built_in_net_searches_exactly_as_it_does() {
    let nets = NetworkFiles::new("evalfile-same");
    let copy = nets.copy();
    let built_in = two_games_transcript(&[]);
    let from_file = two_games_transcript(&[format!("setoption name EvalFile value {}", copy.display())]);
    assert!(built_in.iter().filter(|l| l.starts_with("bestmove")).count() == 4, "{built_in:?}");
    assert_eq!(built_in, from_file);
}

/// A composed position (docs/rules.md, "Composed positions"): red pawns on b3 and on their own back rank
/// (f0), where no game can bring them.
const COMPOSED: &str = "3k5/9/9/9/9/9/1P7/9/9/4KP3 w - - 0 1";

#[test]
fn composed_positions_are_searched_after_one_warning() {
    let mut e = start();
    e.send(&format!("position fen {COMPOSED}"));
    let lines = e.sync();
    if lines.len() != 1 || !lines[0].starts_with("info string composed position") || !lines[0].contains("Pf0")
    {
        e.fail(&format!("expected one warning naming Pf0, got {lines:?}"));
    }
    let best = e.go("go depth 5").unwrap_or_else(|| e.fail("no move in a playable position"));
    let pos = Position::from_composed_fen(COMPOSED).expect("playable").position;
    if pos.parse_move(&best).is_err() {
        e.fail(&format!("bestmove {best} is not legal in {COMPOSED}"));
    }
    e.quit();
}

#[test]
fn a_refused_position_is_never_searched() {
    let mut e = start();
    e.send("position startpos moves h2e2");
    for bad in [
        // An elephant across the river, a move that is not legal, kings facing.
        "position fen 3k5/9/9/9/4B4/9/9/9/9/3K5 w",
        "position startpos moves h2e2 h2e2",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
    ] {
        e.send(bad);
        let lines = e.sync();
        if lines.len() != 1 || !lines[0].starts_with("info string position rejected") {
            e.fail(&format!("{bad}: expected one message, got {lines:?}"));
        }
        assert_eq!(e.go_line("go depth 3"), "bestmove (none)", "after {bad}");
        assert_eq!(e.go_line("go infinite"), "bestmove (none)", "after {bad}");
        // The last valid position is still the one shown.
        e.send("d");
        let shown = e.until("Checkers", |l| l.starts_with("Checkers:"));
        assert!(shown.iter().any(|l| l.starts_with("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/")));
        e.send("position startpos moves h2e2");
        let best = e.go("go depth 3").unwrap_or_else(|| e.fail("no move after a valid position"));
        assert_legal(&e, &["h2e2".to_string()], &best);
    }
    e.quit();
}

/// The scores of the search answering `go`, and its bestmove line.
fn scores(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let mut lines = e.until("bestmove", |l| l.starts_with("bestmove"));
    let best = lines.pop().unwrap_or_default();
    let scores = lines
        .iter()
        .filter_map(|l| l.split(" score ").nth(1))
        .map(|s| s.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect();
    (scores, best)
}

#[test]
fn rule_move_limit_and_variant_options() {
    let mut e = Engine::spawn(support::chuhan());
    let intro = e.handshake("uci", "uciok");
    for line in [
        "option name Rule type combo default chinese var chinese var asian var computer",
        "option name Move Limit type spin default 60 min 0 max 1000",
        "option name UCI_Variant type combo default xiangqi var xiangqi",
    ] {
        assert!(intro.iter().any(|l| l == line), "{line} missing: {intro:?}");
    }
    // Two rooks mate in two, but 119 plies have passed without a capture: under the 60-move limit every
    // line is a draw; with no limit the rooks win.
    let fen = "position fen 4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 119 80";
    e.send(fen);
    let (drawn, _) = scores(&mut e, "go depth 5");
    assert!(!drawn.is_empty() && drawn.iter().all(|s| s == "cp 0"), "{drawn:?}");
    // Set during a search, the option counts from the next go.
    e.send("go infinite");
    e.send("setoption name Move Limit value 0");
    e.send("stop");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(lines.iter().filter(|l| l.contains(" score ")).all(|l| l.contains(" score cp 0 ")), "{lines:?}");
    let (won, best) = scores(&mut e, "go depth 5");
    assert!(won.last().is_some_and(|s| s != "cp 0"), "{won:?} {best}");
    for bad in [
        "setoption name Rule value sky",
        "setoption name Move Limit value -1",
        "setoption name UCI_Variant value chess",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert!(lines.len() == 1 && lines[0].starts_with("info string option"), "{bad}: {lines:?}");
    }
    e.send("setoption name Rule value computer");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.quit();
}
