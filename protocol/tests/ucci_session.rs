//! UCCI sessions as XQWizard and the UCCI league tools drive them, against the real binary.

mod support;

use engine::Position;
use support::engine_pipe::{bestmove_parts, Engine};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn start() -> Engine {
    let mut e = Engine::spawn(support::chuhan());
    let intro = e.handshake("ucci", "ucciok");
    let first_option =
        intro.iter().position(|l| l.starts_with("option ")).unwrap_or_else(|| e.fail("no options"));
    assert_eq!(intro[first_option], "option usemillisec type check default false");
    for name in [
        "batch",
        "debug",
        "ponder",
        "hashsize",
        "threads",
        "newgame",
        "randomness",
        "style",
        "pruning",
        "knowledge",
    ] {
        assert!(intro.iter().any(|l| l.starts_with(&format!("option {name} type "))), "{name}: {intro:?}");
    }
    e
}

fn legal_after(e: &Engine, fen: &str, moves: &[&str], mv: &str) {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|err| e.fail(&err.to_string()));
    for m in moves {
        pos.try_play(m).unwrap_or_else(|err| e.fail(&format!("setup move {m}: {err}")));
    }
    if pos.parse_move(mv).is_err() {
        e.fail(&format!("bestmove {mv} is not legal after {moves:?}"));
    }
}

#[test]
fn xqwizard_session() {
    let mut e = start();
    e.send("setoption usemillisec true");
    e.send("setoption batch false");
    e.send("setoption hashsize 32");
    e.send("setoption bookfiles C:\\XQWizard\\BOOK.DAT");
    e.send("setoption knowledge large");
    e.send("setoption newgame");
    assert_eq!(e.sync(), Vec::<String>::new(), "unknown options must be ignored quietly");

    let moves = ["h2e2", "h9g7"];
    e.send(&format!("position fen {START} moves {}", moves.join(" ")));
    e.send("go time 3000 increment 100 opptime 3000 oppincrement 100");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove") || l == "nobestmove");
    let info = lines.iter().find(|l| l.starts_with("info depth")).unwrap_or_else(|| e.fail("no info"));
    assert!(!info.contains(" cp ") && info.contains(" score ") && info.contains(" pv "), "{info}");
    let (best, _) = bestmove_parts(lines.last().unwrap());
    let best = best.unwrap_or_else(|| e.fail("no bestmove"));
    legal_after(&e, START, &moves, &best);

    // XQWizard sends the position after the last capture plus the moves since, and stops to move now.
    let mut played: Vec<&str> = moves.to_vec();
    played.push(&best);
    played.push("b9c7");
    e.send(&format!("position fen {START} moves {}", played.join(" ")));
    e.send("go time 60000 increment 0 opptime 60000 oppincrement 0");
    e.until("info", |l| l.starts_with("info depth"));
    e.send("stop");
    let (best2, _) = bestmove_parts(&e.expect("bestmove"));
    legal_after(&e, START, &played, &best2.unwrap_or_else(|| e.fail("no move after stop")));

    e.quit_with("bye");
}

#[test]
fn seconds_by_default_and_movestogo() {
    let mut e = start();
    e.send("position startpos");
    let best = e.go("go time 2 movestogo 20 opptime 2 oppmovestogo 20");
    legal_after(&e, START, &[], &best.unwrap_or_else(|| e.fail("no move")));
    e.send("go nodes 2000");
    e.expect("bestmove");
    e.send("go depth infinite");
    e.until("info", |l| l.starts_with("info depth"));
    e.send("stop");
    e.expect("bestmove");
    e.send("quit");
    e.expect("bye");
}

#[test]
fn banmoves_are_honoured_until_the_next_position() {
    let mut e = start();
    e.send("position startpos");
    let pos = Position::startpos();
    let all: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    let keep = "a3a4";
    let banned: Vec<&str> = all.iter().map(String::as_str).filter(|m| *m != keep).collect();
    e.send(&format!("banmoves {}", banned.join(" ")));
    let best = e.go("go depth 2");
    assert_eq!(best.as_deref(), Some(keep));

    // Ban what it chose: it must choose something else.
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let (first, _) = bestmove_parts(&e.expect("bestmove"));
    let first = first.unwrap_or_else(|| e.fail("no move"));
    e.send(&format!("banmoves {first}"));
    e.send("go depth 2");
    let (second, _) = bestmove_parts(&e.expect("bestmove"));
    let second = second.unwrap_or_else(|| e.fail("no move"));
    assert_ne!(first, second);
    legal_after(&e, START, &["h2e2"], &second);

    // Everything banned: nothing to play.
    e.send("position startpos");
    e.send(&format!("banmoves {}", all.join(" ")));
    e.send("go depth 2");
    assert_eq!(
        e.until("nobestmove", |l| l.starts_with("bestmove") || l == "nobestmove").pop().as_deref(),
        Some("nobestmove")
    );

    // A bad banmoves list is rejected whole.
    e.send("banmoves h2e2 e9e8");
    assert_eq!(e.sync().len(), 1);
    e.send("quit");
    e.expect("bye");
}

#[test]
fn static_eval_probe_and_mate() {
    let mut e = start();
    e.send("position startpos moves h2e2");
    e.send("go depth 0");
    let lines = e.until("nobestmove", |l| l == "nobestmove" || l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str), Some("nobestmove"));
    assert!(lines.iter().any(|l| l.starts_with("info depth 0 score ")), "{lines:?}");
    e.send("probe startpos moves h2e2");
    assert!(e.expect("pophash").starts_with("pophash"));
    // After a search the table knows the position: a legal best move and a bound at some depth.
    e.send("position startpos");
    e.send("go depth 6");
    let best = e.until("bestmove", |l| l.starts_with("bestmove")).pop().expect("bestmove");
    e.send("probe startpos");
    let pop = e.expect("pophash");
    let mv = best.split_whitespace().nth(1).expect("a move");
    assert!(pop.starts_with(&format!("pophash bestmove {mv} ")), "{pop} after {best}");
    assert!(pop.contains("bound ") && pop.contains(" depth "), "{pop}");
    e.send("position fen 4k4/9/9/9/3r5/9/9/9/9/3K5 w");
    e.send("go time 10 increment 0");
    assert_eq!(
        e.until("nobestmove", |l| l == "nobestmove" || l.starts_with("bestmove")).pop().as_deref(),
        Some("nobestmove")
    );
    e.send("quit");
    e.expect("bye");
}

#[test]
fn knowledge_none_plays_with_material_and_piece_square_tables() {
    let mut e = start();
    // `knowledge` is a setting of the handcrafted evaluation, which is not the default.
    e.send("setoption eval classical");
    e.send("position startpos moves h2e2 h9g7");
    let static_eval = |e: &mut Engine| {
        e.send("go depth 0");
        let lines = e.until("nobestmove", |l| l == "nobestmove");
        lines.iter().find(|l| l.starts_with("info depth 0 score ")).cloned().expect("a static score")
    };
    let full = static_eval(&mut e);
    e.send("setoption knowledge none");
    let simple = static_eval(&mut e);
    assert_ne!(full, simple, "the full evaluation knows more than material and tables here");
    e.send("go depth 3");
    let best = e.until("bestmove", |l| l.starts_with("bestmove")).pop().expect("bestmove");
    legal_after(&e, START, &["h2e2", "h9g7"], best.split_whitespace().nth(1).expect("move"));
    e.send("setoption knowledge large");
    assert_eq!(static_eval(&mut e), full);
    e.send("quit");
    e.expect("bye");
}

#[test]
fn draw_offers_accepted_when_worse_and_made_when_dead_even() {
    let mut e = start();
    // Each step: the lines sent, the last of them answered by a `bestmove`, and whether that carries the
    // draw word.
    let steps: [(&[&str], bool); 5] = [
        // Red is a rook down: accept.
        (&["position fen 3k5/9/9/9/9/9/9/9/r8/4K4 w", "go draw depth 2"], true),
        // The same offer while pondering, with ponderhit.
        (&["go ponder depth 2", "ponderhit draw"], true),
        // Red is a rook up: decline (no draw word).
        (&["position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w", "go draw depth 2"], false),
        // Only kings, advisors and elephants: offer, unless the option is off.
        (&["position fen 3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w", "go depth 2"], true),
        (&["setoption offerdraw false", "go depth 2"], false),
    ];
    for (lines, draw) in steps {
        for line in lines {
            e.send(line);
        }
        let line = e.expect("bestmove");
        if draw {
            assert!(line.ends_with(" draw"), "{line}");
        } else {
            assert!(!line.contains("draw"), "{line}");
        }
    }
    e.send("quit");
    e.expect("bye");
}

#[test]
fn developer_commands_work_in_ucci_too() {
    let mut e = start();
    e.send("position startpos");
    e.send("perft 2");
    let lines = e.until("Nodes searched", |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 45);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 1920"));
    e.send("go perft 1");
    assert_eq!(e.expect("Nodes searched"), "Nodes searched: 44");
    e.send("d");
    assert!(e.expect("Fen: ").contains(START));
    e.send("flip");
    e.send("d ascii");
    assert!(e.expect("Fen: ").ends_with(" b - - 0 1"));
    e.send("eval");
    e.expect("Final score");
    e.send("nonsense");
    assert!(e.expect("info").starts_with("info message "));
    e.send("quit");
    e.expect("bye");
}

#[test]
fn a_bad_evalfile_gets_one_message_and_the_network_stays() {
    let mut e = start();
    e.send("setoption evalfile /nonexistent/dir/net.nnue");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info message EvalFile /nonexistent/dir/net.nnue: no network file"),
        "{lines:?}"
    );
    e.send("setoption eval nnue");
    e.send(&format!("position fen {START}"));
    e.send("go depth 3");
    let lines = e.until("bestmove", |l| l.starts_with("bestmove"));
    let (mv, _) = bestmove_parts(lines.last().map_or("", String::as_str));
    legal_after(&e, START, &[], &mv.unwrap_or_default());
    e.send("quit");
    let _ = e.wait_exit();
}

#[test]
fn composed_positions_warn_and_refused_ones_answer_nobestmove() {
    let mut e = start();
    // A black pawn on its own back rank (f9): played, with one message.
    let composed = "3k1p3/9/9/9/9/9/9/9/9/4K4 b - - 0 1";
    e.send(&format!("position fen {composed}"));
    let lines = e.sync();
    assert!(lines.len() == 1 && lines[0].starts_with("info message composed position"), "{lines:?}");
    let best = e.go("go depth 4").unwrap_or_else(|| e.fail("no move"));
    let pos = Position::from_composed_fen(composed).expect("playable").position;
    assert!(pos.parse_move(&best).is_ok(), "{best}");
    // An advisor off the palace diagonals cannot move by the rules: refused, and go has nothing to search.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/3KA4 w");
    let lines = e.sync();
    assert!(lines.len() == 1 && lines[0].starts_with("info message position rejected"), "{lines:?}");
    e.send("go depth 3");
    assert_eq!(
        e.until("nobestmove", |l| l == "nobestmove" || l.starts_with("bestmove")).pop().as_deref(),
        Some("nobestmove")
    );
    e.send(&format!("position fen {START} moves h2e2"));
    let best = e.go("go depth 3").unwrap_or_else(|| e.fail("no move"));
    legal_after(&e, START, &["h2e2"], &best);
    e.send("quit");
    e.expect("bye");
}
