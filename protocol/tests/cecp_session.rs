//! CECP (xboard protocol) sessions as XBoard 4.9 drives them with `-variant xiangqi`, against the real binary.

mod support;

use engine::Position;
use support::engine_pipe::Engine;
use support::networks::NetworkFiles;

/// The start position as XBoard writes it in `setboard`: H, E letters and no castling or en-passant fields.
const XB_START: &str = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1";

/// `xboard`, `protover 2` and the feature lines up to `done=1`, answered as XBoard answers them.
fn start() -> (Engine, Vec<String>) {
    let mut e = Engine::spawn(support::chuhan());
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1", |l| l == "feature done=1");
    e.send("accepted usermove");
    e.send("accepted done");
    (e, features)
}

/// Sends `ping n` and returns what came before `pong n`.
fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let pong = format!("pong {n}");
    let mut lines = e.until(&pong, |l| l == pong);
    lines.pop();
    lines
}

/// What XBoard sends before each game.
fn new_game(e: &mut Engine) {
    for line in ["new", "random", "variant xiangqi", "level 0 0:05 0.1", "post", "easy"] {
        e.send(line);
    }
    assert_eq!(ping(e, 1), Vec::<String>::new(), "the game set-up is answered by silence");
}

/// Reads up to the engine's `move` line and returns the move, checking each thinking line's shape.
fn engine_move(e: &mut Engine) -> String {
    let lines = e.until("move", |l| l.starts_with("move "));
    for l in &lines[..lines.len() - 1] {
        let w: Vec<&str> = l.split_whitespace().collect();
        let ints = w.len() >= 4 && w[..4].iter().all(|t| t.parse::<i64>().is_ok());
        assert!(ints || l.starts_with('#') || l == "offer draw", "not thinking output: {l}");
    }
    lines.last().map(|l| l["move ".len()..].to_string()).unwrap_or_default()
}

fn play(e: &Engine, pos: &mut Position, m: &str) {
    if let Err(err) = pos.try_play(m) {
        e.fail(&format!("{m} is not legal in {}: {err}", pos.to_fen()));
    }
}

/// Reads chuhan's move as Black after Red's h2e2 and checks that it is legal there.
fn answers_h2e2(e: &mut Engine) {
    let m = engine_move(e);
    let mut pos = Position::startpos();
    play(e, &mut pos, "h2e2");
    play(e, &mut pos, &m);
}

#[test]
fn feature_negotiation_offers_what_xboard_needs() {
    let (mut e, features) = start();
    let all = features.join("\n");
    for f in [
        "myname=\"chuhan ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "memory=1",
        "smp=1",
        "debug=1",
    ] {
        assert!(all.contains(f), "{f} missing from\n{all}");
    }
    assert!(features.iter().any(|l| l == "feature option=\"Skill Level -spin 20 0 20\""), "{all}");
    e.send("memory 64");
    e.send("cores 1");
    e.send("option Skill Level=20");
    e.send("option Clear Hash");
    e.send("option resign=0");
    assert_eq!(ping(&mut e, 5), Vec::<String>::new());
    e.quit();
}

#[test]
fn a_game_as_xboard_plays_it() {
    let (mut e, _) = start();
    new_game(&mut e);
    e.send("force");
    e.send("computer");
    // chuhan plays Red: XBoard sends both clocks, then `go`.
    let mut pos = Position::startpos();
    e.send("time 500");
    e.send("otim 500");
    e.send("go");
    let m = engine_move(&mut e);
    play(&e, &mut pos, &m);
    // Each opponent move comes as time, otim, usermove, without `go`.
    for _ in 0..3 {
        let reply = pos.legal_moves().first().map(|m| m.to_string()).unwrap_or_else(|| e.fail("no moves"));
        play(&e, &mut pos, &reply);
        e.send("time 450");
        e.send("otim 450");
        e.send(&format!("usermove {reply}"));
        let m = engine_move(&mut e);
        play(&e, &mut pos, &m);
    }
    assert_eq!(ping(&mut e, 2), Vec::<String>::new());
    e.send("result 1/2-1/2 {adjudicated}");
    e.send("force");
    assert_eq!(ping(&mut e, 3), Vec::<String>::new());

    // A new game where chuhan has Black (the default after `new`): it waits for Red's move.
    new_game(&mut e);
    e.send("usermove h2e2");
    answers_h2e2(&mut e);
    e.quit();
}

#[test]
fn bad_input_gets_one_line_and_the_game_goes_on() {
    let (mut e, _) = start();
    new_game(&mut e);
    e.send("force");
    e.send("usermove h2e2");
    e.send("usermove h2e2");
    assert_eq!(e.expect("Illegal"), "Illegal move (no piece on the origin square): h2e2");
    e.send("usermove e2e9x");
    assert!(e.expect("Illegal").ends_with(": e2e9x"));
    e.send("frobnicate");
    assert_eq!(e.expect("Error"), "Error (unknown command): frobnicate");
    e.send("time soon");
    assert_eq!(e.expect("Error"), "Error (centiseconds is not an integer): time soon");
    e.send("setboard rheakaehr/9/9 w 0 1");
    assert!(e.expect("Error").starts_with("Error (bad FEN"));
    e.send("variant shogi");
    assert!(e.expect("Error").ends_with(": variant shogi"));
    e.send("option Skill Level=99");
    assert!(e.expect("Error").contains("out of range"));
    // One ply (h2e2) has been played: `remove` (two plies) is refused whole.
    e.send("remove");
    assert_eq!(e.expect("Error"), "Error (not that many moves to take back): remove");
    assert_eq!(ping(&mut e, 4), Vec::<String>::new(), "one line per error, nothing more");
    // The game is still h2e2 from the start, but XBoard shows the board it sent: chuhan refuses to move
    // until a valid game comes (issue 34) ...
    e.send("go");
    assert!(e.expect("Error").starts_with("Error (the last setboard was refused"));
    e.send("usermove h2e2");
    assert!(e.expect("Illegal").starts_with("Illegal move (the last setboard was refused"));
    // ... and answers h2e2 as Black once the game is sent again.
    e.send("new");
    e.send("force");
    e.send("usermove h2e2");
    e.send("go");
    answers_h2e2(&mut e);
}

#[test]
fn setboard_undo_and_limits() {
    let (mut e, _) = start();
    new_game(&mut e);
    e.send("force");
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CH4C1/9/R1EAKAEHR b 0 1";
    e.send(&format!("setboard {fen}"));
    for m in ["h9g7", "h2e2", "b9c7"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("undo");
    e.send("remove");
    // Back to the set-up position, Black to move; `sd 2` limits the search to two plies.
    e.send("sd 2");
    e.send("go");
    let lines = e.until("move", |l| l.starts_with("move "));
    for l in &lines[..lines.len() - 1] {
        let depth: u32 = l.split_whitespace().next().and_then(|d| d.parse().ok()).unwrap_or(99);
        assert!(depth <= 2, "sd 2 but: {l}");
    }
    let m = &lines[lines.len() - 1]["move ".len()..];
    let mut pos =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b - - 0 1")
            .unwrap_or_else(|err| e.fail(&err.to_string()));
    play(&e, &mut pos, m);
    // `st` gives a fixed time per move; XBoard's start FEN is read too.
    e.send("force");
    e.send(&format!("setboard {XB_START}"));
    e.send("st 1");
    e.send("go");
    let m = engine_move(&mut e);
    play(&e, &mut Position::startpos(), &m);
}

#[test]
fn analyze_mode_thinks_without_moving() {
    let (mut e, _) = start();
    new_game(&mut e);
    e.send("force");
    e.send("post");
    e.send("analyze");
    let first = e.until("thinking output", |l| l.split_whitespace().count() >= 5);
    assert!(first.iter().all(|l| !l.starts_with("move")), "{first:?}");
    e.send(".");
    let stat = e.expect("stat01:");
    assert!(stat.ends_with(" 44"), "44 legal moves at the start: {stat}");
    e.send("usermove h2e2");
    e.send("undo");
    e.send("usermove b2e2");
    e.send("exit");
    let lines = ping(&mut e, 6);
    assert!(lines.iter().all(|l| !l.starts_with("move")), "analysis never moves: {lines:?}");
}

#[test]
fn game_ends_are_claimed_and_quit_ends_the_process() {
    let (mut e, _) = start();
    new_game(&mut e);
    e.send("force");
    // Red mates in one (the rook to d1, the black king pinned to its file by the facing kings rule);
    // chuhan plays it and claims the win.
    e.send("setboard 3k5/9/9/9/9/9/9/9/R8/4K4 w 0 1");
    e.send("go");
    let lines = e.until("result", |l| l.starts_with("1-0"));
    assert!(lines.iter().any(|l| l == "move a1d1"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("1-0 {Red mates}"));
    // Asked to move when mated, it claims the loss instead of a move.
    e.send("force");
    e.send("setboard R2k5/R8/9/9/9/9/9/9/9/4K4 b 0 1");
    e.send("go");
    assert_eq!(e.expect("1-0"), "1-0 {Red mates}");
    e.quit();
}

#[test]
fn evalfile_loads_a_network_and_refuses_a_bad_file_keeping_the_net() {
    let (mut e, features) = start();
    assert!(features.iter().any(|f| f.starts_with("feature option=\"EvalFile -file")), "{features:?}");
    let nets = NetworkFiles::new("cecp-evalfile");
    for (path, why) in [(nets.missing(), "no network file"), (nets.truncated(), "truncated")] {
        e.send(&format!("option EvalFile={}", path.display()));
        let lines = ping(&mut e, 1);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("Error (EvalFile ") && lines[0].contains(why), "{lines:?}");
        assert!(lines[0].contains(&format!("keeping {}", eval::nnue::EMBEDDED_NAME)), "{lines:?}");
    }
    e.send(&format!("option EvalFile={}", nets.copy().display()));
    let lines = ping(&mut e, 2);
    assert!(lines.len() == 1 && lines[0].starts_with("# EvalFile: loaded"), "{lines:?}");
    // The loaded network plays.
    new_game(&mut e);
    e.send("option Eval=nnue");
    e.send("sd 3");
    e.send("usermove h2e2");
    answers_h2e2(&mut e);
    e.send("quit");
}

#[test]
fn composed_boards_are_played_and_refused_ones_never_answered() {
    let (mut e, _) = start();
    new_game(&mut e);
    e.send("force");
    // Red pawns on b3 and on their own back rank (f0): a composed problem, played after one comment line.
    let composed = "3k5/9/9/9/9/9/1P7/9/9/4KP3 w 0 1";
    e.send(&format!("setboard {composed}"));
    let lines = ping(&mut e, 2);
    assert!(lines.len() == 1 && lines[0].starts_with("# composed position"), "{lines:?}");
    e.send("sd 3");
    e.send("go");
    let m = engine_move(&mut e);
    let pos = Position::from_composed_fen(composed).expect("playable").position;
    assert!(pos.parse_move(&m).is_ok(), "{m} in {composed}");
    // An elephant across the river: refused, and neither go nor a move is taken in the old game.
    e.send("force");
    e.send("setboard 3k5/9/9/9/4E4/9/9/9/9/3K5 w 0 1");
    assert!(e.expect("Error").starts_with("Error (bad FEN"));
    e.send("go");
    assert!(e.expect("Error").starts_with("Error (the last setboard was refused"));
    assert_eq!(ping(&mut e, 3), Vec::<String>::new(), "one line per refusal");
    e.send("force");
    e.send(&format!("setboard {XB_START}"));
    e.send("go");
    let m = engine_move(&mut e);
    play(&e, &mut Position::startpos(), &m);
}
