//! `chuhan match` end to end with the scripted test engine of `src/bin/chuhan-test-engine.rs`: every way a
//! game can end, both dialects, gauntlet and round robin, results file and resume, PGN, SPRT stopping.
//! Every match here is a few games at a fixed tiny movetime, so the whole file runs in seconds.

mod support;

use arena::openings;
use std::path::PathBuf;
use std::process::Command;
use support::match_cli::{chuhan_match, engine, outcome, rows, scratch, Row, Run};

/// Plays a short match from `fen` and returns its rows.
fn play_from(test: &str, fen: &str, engines: &[Vec<String>], args: &str) -> (Run, Vec<Row>) {
    let dir = scratch(test);
    let book = dir.join("book.fen");
    std::fs::write(&book, format!("{fen}\n")).expect("write openings");
    let results = dir.join("results.txt");
    let run = chuhan_match(
        engines,
        &format!("--openings {} --results {} --movetime 20 {args}", book.display(), results.display()),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let r = rows(&results);
    let _ = std::fs::remove_dir_all(&dir);
    (run, r)
}

/// Plays a short match (`args`) from the start position, `red` first against a plain test engine `b`
/// speaking `proto`, and returns its rows.
fn play_against_b(test: &str, red: Vec<String>, proto: &str, args: &str) -> (Run, Vec<Row>) {
    play_from(test, "startpos", &[red, engine("b", proto, "")], args)
}

/// [`play_against_b`] for one game; returns its row.
fn game_against_b(test: &str, red: Vec<String>, proto: &str, args: &str) -> Row {
    let (_, r) = play_against_b(test, red, proto, &format!("--games 1 {args}"));
    r.into_iter().next().expect("one game")
}

/// Asserts that every game ended by `term` and that `loser` lost it, whichever colour it had.
fn assert_lost_by(r: &[Row], loser: &str, term: &str) {
    for (red, _, result, t, _) in r {
        assert_eq!(t, term);
        assert_eq!(result, if red == loser { "0-1" } else { "1-0" });
    }
}

/// Plays a match (`args`) with an engine traffic log; returns the run and the log.
fn with_traffic_log(test: &str, engines: &[Vec<String>], args: &str) -> (Run, String) {
    let dir = scratch(test);
    let log = dir.join("traffic.log");
    let run = chuhan_match(engines, &format!("{args} --engine-log {}", log.display()));
    assert!(run.ok, "{}", run.stderr);
    let log = std::fs::read_to_string(&log).expect("traffic log");
    let _ = std::fs::remove_dir_all(&dir);
    (run, log)
}

#[test]
fn checkmate_ends_the_game_for_either_colour() {
    // Red mates in one with Rb0-b9; each engine has Red once.
    let fen = "3k5/R8/9/p8/9/9/9/9/9/1R3K3 w - - 0 1";
    let (_, r) = play_from("mate", fen, &[engine("a", "uci", ""), engine("b", "ucci", "")], "--games 2");
    assert_eq!(r.len(), 2);
    for (red, _, result, term, _) in &r {
        assert_eq!((result.as_str(), term.as_str()), ("1-0", "checkmate"), "{red}");
    }
    assert_eq!((r[0].0.as_str(), r[1].0.as_str()), ("a", "b"), "colours swap within the pair");
}

#[test]
fn stalemate_is_a_loss_for_the_side_without_moves() {
    let fen = "3k5/9/9/9/9/4R4/9/9/9/5K2R w - - 0 1";
    let (_, r) = play_from("stalemate", fen, &[engine("a", "uci", ""), engine("b", "uci", "")], "--games 1");
    assert_eq!(outcome(&r[0]), ("1-0", "stalemate"));
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let fen = "9/3k5/9/p8/9/9/9/9/9/4K3R w - - 0 1";
    let (_, r) = play_from(
        "perpetual",
        fen,
        &[engine("checker", "uci", "--mode perpetual"), engine("runner", "ucci", "")],
        "--games 1",
    );
    assert_eq!(outcome(&r[0]), ("0-1", "perpetual-check"), "{:?}", r[0]);
}

#[test]
fn the_runner_tells_engines_which_moves_a_repetition_rule_forbids() {
    // The test engine ignores the ban and checks on, so it still loses; what matters here is what it was told.
    let fen = "9/3k5/9/p8/9/9/9/9/9/4K3R w - - 0 1";
    for (proto, told, extra) in
        [("ucci", "checker > banmoves ", ""), ("uci", " searchmoves ", ""), ("ucci", "", "--no-banmoves")]
    {
        let dir = scratch(&format!("ban-{proto}{extra}"));
        let (book, log, results) = (dir.join("book.fen"), dir.join("traffic.log"), dir.join("r.txt"));
        std::fs::write(&book, format!("{fen}\n")).expect("write openings");
        let run = chuhan_match(
            &[engine("checker", proto, "--mode perpetual"), engine("runner", "ucci", "")],
            &format!(
                "--openings {} --results {} --movetime 20 --games 1 --engine-log {} {extra}",
                book.display(),
                results.display(),
                log.display()
            ),
        );
        assert!(run.ok, "{}", run.stderr);
        let text = std::fs::read_to_string(&log).expect("traffic log");
        if told.is_empty() {
            assert!(!text.contains("banmoves") && !text.contains("searchmoves"), "{text}");
        } else {
            assert!(text.contains(told), "{proto}: {told:?} missing\n{text}");
        }
        let r = rows(&results);
        assert_eq!(outcome(&r[0]), ("0-1", "perpetual-check"), "{:?}", r[0]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn natural_move_limit_and_dead_positions_are_draws() {
    // 118 plies without a capture already: two more end it.
    let fen = "5k3/9/9/8p/9/9/P8/9/9/3K5 w - - 118 60";
    let (_, r) = play_from("limit", fen, &[engine("a", "uci", ""), engine("b", "uci", "")], "--games 1");
    assert_eq!(outcome(&r[0]), ("1/2-1/2", "move-limit"));
    // Kings and advisors only: nobody can win.
    let fen = "3ak4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1";
    let (_, r) = play_from("dead", fen, &[engine("a", "uci", ""), engine("b", "uci", "")], "--games 1");
    assert_eq!(outcome(&r[0]), ("1/2-1/2", "dead-position"));
}

#[test]
fn illegal_moves_lose_and_are_logged_with_the_position() {
    let (run, r) =
        play_against_b("illegal", engine("cheat", "uci", "--mode illegal --after 2"), "ucci", "--games 2");
    assert_eq!(r.len(), 2);
    assert_lost_by(&r, "cheat", "illegal-move");
    for (_, _, _, _, detail) in &r {
        assert!(detail.contains("cheat played illegal move"), "{detail}");
        assert!(detail.contains(" w - ") || detail.contains(" b - "), "the position is logged: {detail}");
    }
    assert!(run.stderr.contains("illegal-move"), "faults are reported on the console: {}", run.stderr);
}

#[test]
fn nobestmove_with_moves_left_is_illegal_and_resigning_loses() {
    let r = game_against_b("nomove", engine("quitter", "ucci", "--mode nomove --after 1"), "uci", "");
    assert_eq!(outcome(&r), ("0-1", "illegal-move"));
    assert!(r.4.contains("nobestmove"), "{}", r.4);
    let r = game_against_b("resign", engine("resigner", "ucci", "--mode resign --after 1"), "uci", "");
    assert_eq!(outcome(&r), ("0-1", "resignation"));
}

#[test]
fn a_crashing_engine_loses_and_is_restarted_for_the_next_game() {
    let (_, r) =
        play_against_b("crash", engine("crasher", "uci", "--mode crash --after 1"), "uci", "--games 2");
    assert_eq!(r.len(), 2, "the second game ran with a fresh process");
    assert_lost_by(&r, "crasher", "crash");
}

#[test]
fn a_crashing_engines_last_words_reach_the_traffic_log() {
    let (_, log) = with_traffic_log(
        "crashlog",
        &[engine("crasher", "uci", "--mode crash --after 1"), engine("b", "uci", "")],
        "--movetime 20 --games 1",
    );
    assert!(log.contains("crasher ! test_engine: crashing on purpose at move 2"), "{log}");
}

#[test]
fn a_hung_engine_loses_by_no_reply() {
    let r = game_against_b("hang", engine("sleeper", "uci", "--mode hang --after 1"), "ucci", "");
    assert_eq!(outcome(&r), ("0-1", "no-reply"));
}

#[test]
fn a_late_move_forfeits_on_time_with_movetime_and_with_a_clock() {
    let r = game_against_b(
        "slow",
        engine("slow", "uci", "--mode slow --sleep 400 --after 1"),
        "uci",
        "--margin-ms 100",
    );
    assert_eq!(outcome(&r), ("0-1", "time-forfeit"));
    // A per-engine clock (handicap): 0.2 s for the game, while the opponent has the match-wide movetime.
    let mut slow = engine("slow", "ucci", "--mode slow --sleep 400 --after 1");
    slow.push("tc=0.2+0".into());
    let r = game_against_b("slowclock", slow, "uci", "--margin-ms 100");
    assert_eq!(outcome(&r), ("0-1", "time-forfeit"));
    assert!(r.4.contains("ms left"), "{}", r.4);
}

#[test]
fn draw_resign_and_ply_adjudication() {
    let (_, r) = play_from(
        "draw",
        "startpos",
        &[engine("a", "uci", "--score 3"), engine("b", "ucci", "--score -2")],
        "--games 1 --draw movenumber=3 movecount=2 score=10",
    );
    assert_eq!(outcome(&r[0]), ("1/2-1/2", "draw-adjudication"));
    let (_, r) = play_from(
        "resignadj",
        "startpos",
        &[engine("loser", "uci", "--score -800"), engine("winner", "uci", "--score 800")],
        "--games 2 --resign movecount=3 score=500",
    );
    assert_lost_by(&r, "loser", "resign-adjudication");
    let r = game_against_b("maxplies", engine("a", "uci", ""), "uci", "--max-plies 7");
    assert_eq!(outcome(&r), ("1/2-1/2", "max-plies"));
}

#[test]
fn both_dialects_get_their_own_commands_and_clocks() {
    let (run, log) = with_traffic_log(
        "dialects",
        &[engine("u", "uci", ""), engine("c", "ucci", "")],
        "--tc 5+0.05 --games 2 --max-plies 6",
    );
    for want in [
        "u > uci",
        "u > ucinewgame",
        "u > go wtime",
        "c > ucci",
        "c > setoption usemillisec true",
        "c > setoption newgame",
        "c > go time",
        "opptime",
    ] {
        assert!(log.contains(want), "{want} missing from the traffic log");
    }
    assert!(log.contains("winc 50 binc 50") && log.contains("increment 50"), "increments in milliseconds");
    assert!(run.stdout.contains("u vs c") && run.stdout.contains("games 2"), "{}", run.stdout);
}

#[test]
fn gauntlet_and_round_robin_pairings() {
    let engines =
        [engine("a", "uci", "--seed 1"), engine("b", "uci", "--seed 2"), engine("c", "ucci", "--seed 3")];
    let dir = scratch("pairings");
    let results = dir.join("g.txt");
    let run = chuhan_match(
        &engines,
        &format!("--movetime 20 --games 2 --max-plies 10 --results {}", results.display()),
    );
    assert!(run.ok, "{}", run.stderr);
    let mut pairs: Vec<(String, String)> = rows(&results).into_iter().map(|r| (r.0, r.1)).collect();
    pairs.sort();
    let want: Vec<(String, String)> = [("a", "b"), ("a", "c"), ("b", "a"), ("c", "a")]
        .iter()
        .map(|(x, y)| (x.to_string(), y.to_string()))
        .collect();
    assert_eq!(pairs, want, "gauntlet: the first engine against each of the rest, both colours");
    assert!(run.stdout.contains("a vs b") && run.stdout.contains("a vs c") && !run.stdout.contains("b vs c"));

    let results = dir.join("rr.txt");
    let run = chuhan_match(
        &engines,
        &format!(
            "--movetime 20 --games 2 --max-plies 10 --round-robin --concurrency 2 --results {}",
            results.display()
        ),
    );
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(rows(&results).len(), 6);
    assert!(run.stdout.contains("b vs c"), "{}", run.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_match_resumes_where_it_stopped() {
    let dir = scratch("resume");
    let results = dir.join("r.txt");
    let engines = [engine("a", "uci", ""), engine("b", "ucci", "")];
    let args =
        format!("--movetime 20 --games 4 --max-plies 8 --order random --results {}", results.display());
    let run = chuhan_match(&engines, &args);
    assert!(run.ok, "{}", run.stderr);
    let full = std::fs::read_to_string(&results).expect("results");
    // Keep the header and two games, plus half a line, as if the runner had been killed mid-write.
    let kept: Vec<&str> = full.lines().take(3).collect();
    std::fs::write(&results, format!("{}\npairing=0\tpair=1\tsl", kept.join("\n"))).expect("truncate");
    let again = chuhan_match(&engines, &args);
    assert!(!again.ok, "a results file is never appended to without --resume");
    let resumed = chuhan_match(&engines, &format!("{args} --resume"));
    assert!(resumed.ok, "{}", resumed.stderr);
    assert!(resumed.stderr.contains("resuming: 2 of 4"), "{}", resumed.stderr);
    assert_eq!(rows(&results).len(), 4);
    assert!(resumed.stdout.contains("games 4"), "{}", resumed.stdout);
    // The same seed gives the same openings and so the same games. The engines' thinking times (the last
    // number of each `*_stats` field) are measured and may differ by a millisecond; everything else must not.
    let without_times = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                l.split('\t')
                    .map(|f| match f.contains("_stats=") {
                        true => f.rsplit_once(',').map_or(f, |(counts, _ms)| counts).to_string(),
                        false => f.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("\t")
            })
            .collect()
    };
    let again = std::fs::read_to_string(&results).expect("results");
    let mut a = without_times(&full);
    let mut b = without_times(&again);
    a.sort();
    b.sort();
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_the_match_once_a_bound_is_crossed() {
    // The first engine crashes at once in every game: H0 (it is not 100 Elo stronger) is accepted after
    // about ten pairs, long before 200 games.
    let run = chuhan_match(
        &[engine("crasher", "uci", "--mode crash"), engine("b", "uci", "")],
        "--movetime 20 --games 200 --concurrency 2 --sprt elo0=0 elo1=100 alpha=0.05 beta=0.05",
    );
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains("H0 accepted"), "{}", run.stdout);
    let played: u64 = run
        .stdout
        .split_whitespace()
        .skip_while(|w| *w != "Match:")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("games played");
    assert!(played < 40, "stopped after {played} games");
}

#[test]
fn pgn_holds_both_notations_and_reads_back() {
    let dir = scratch("pgn");
    for (notation, format) in [("iccs", "ICCS"), ("chinese", "Chinese")] {
        let pgn = dir.join(format!("{notation}.pgn"));
        let results = dir.join(format!("{notation}.txt"));
        let run = chuhan_match(
            &[engine("a", "uci", "--seed 4"), engine("b", "ucci", "--seed 9")],
            &format!(
                "--movetime 20 --games 2 --max-plies 40 --pgn {} --pgn-notation {notation} --results {}",
                pgn.display(),
                results.display()
            ),
        );
        assert!(run.ok, "{}", run.stderr);
        let text = std::fs::read_to_string(&pgn).expect("pgn");
        assert!(text.contains(&format!("[Format \"{format}\"]")));
        assert!(text.contains("[Termination "));
        assert!(text.contains("炮") || text.contains("马") || text.contains("车") || text.contains("兵"));
        let games = openings::parse(&text).expect("the PGN reads back");
        let plies: Vec<usize> = std::fs::read_to_string(&results)
            .expect("results")
            .lines()
            .filter_map(|l| l.split('\t').find_map(|f| f.strip_prefix("plies=")).and_then(|n| n.parse().ok()))
            .collect();
        assert_eq!(games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(), plies, "every move read back");
    }
    let iccs = openings::parse(&std::fs::read_to_string(dir.join("iccs.pgn")).unwrap()).unwrap();
    let chinese = openings::parse(&std::fs::read_to_string(dir.join("chinese.pgn")).unwrap()).unwrap();
    assert_eq!(iccs, chinese, "the same games in either notation");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_engines_and_arguments_are_reported_not_panicked_on() {
    let run = chuhan_match(
        &[vec!["--engine".into(), "cmd=/nonexistent/engine".into()], engine("b", "uci", "")],
        "--depth 1",
    );
    assert!(!run.ok);
    assert!(run.stderr.contains("cannot start"), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"));
    let run = chuhan_match(&[engine("a", "uci", "")], "--depth 1");
    assert!(!run.ok && run.stderr.contains("at least two"), "{}", run.stderr);
    let run = chuhan_match(&[], "--help");
    assert!(run.ok && run.stdout.contains("--engine"), "{}", run.stdout);
}

#[test]
fn cecp_engines_keep_their_own_game_and_get_clocks_in_centiseconds() {
    let dir = scratch("cecp");
    let log = dir.join("traffic.log");
    let results = dir.join("results.txt");
    let chuhan = vec![
        "--engine".to_string(),
        "name=chuhan".to_string(),
        format!("cmd={}", support::chuhan().display()),
        "proto=cecp".to_string(),
    ];
    let run = chuhan_match(
        &[engine("x", "cecp", ""), engine("u", "uci", ""), chuhan],
        &format!(
            "--round-robin --tc 5+0.05 --games 2 --max-plies 30 --engine-log {} --results {}",
            log.display(),
            results.display()
        ),
    );
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    let log = std::fs::read_to_string(&log).expect("traffic log");
    for want in [
        "x > xboard",
        "x > protover 2",
        "x > accepted usermove",
        "x > new",
        "x > variant xiangqi",
        "x > level 0 0:05 0.05",
        "x > setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1",
        "x > time ",
        "x > otim ",
        "x > usermove ",
        "x > go",
        "x < move ",
        "chuhan < feature done=1",
        "chuhan < move ",
    ] {
        assert!(log.contains(want), "{want} missing from the traffic log");
    }
    // After its own move the engine gets only the clocks and the reply; it is not reset every move.
    let setboards = log.lines().filter(|l| l.contains("x > setboard")).count();
    let moves = log.lines().filter(|l| l.contains("x < move ")).count();
    assert!(setboards < moves / 2, "{setboards} setboards for {moves} moves");
    let r = rows(&results);
    assert_eq!(r.len(), 6);
    for (red, black, _, term, detail) in &r {
        assert!(
            !["illegal-move", "crash", "no-reply", "time-forfeit"].contains(&term.as_str()),
            "{red} vs {black}: {term} {detail}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cecp_mates_refusals_and_resignations_are_judged_by_the_runner() {
    let fen = "3k5/R8/9/p8/9/9/9/9/9/1R3K3 w - - 0 1";
    let (_, r) =
        play_from("cecp-mate", fen, &[engine("a", "cecp", ""), engine("b", "cecp", "")], "--games 2");
    for (red, _, result, term, _) in &r {
        assert_eq!((result.as_str(), term.as_str()), ("1-0", "checkmate"), "{red}");
    }
    let r = game_against_b("cecp-faults", engine("claimer", "cecp", "--mode nomove --after 2"), "uci", "");
    assert_eq!(outcome(&r), ("0-1", "illegal-move"));
    assert!(r.4.contains("said '1/2-1/2"), "{}", r.4);
    let r = game_against_b("cecp-resign", engine("resigner", "cecp", "--mode resign --after 1"), "uci", "");
    assert_eq!(outcome(&r), ("0-1", "resignation"));
    let r = game_against_b("cecp-illegal", engine("cheat", "cecp", "--mode illegal --after 1"), "ucci", "");
    assert_eq!(outcome(&r), ("0-1", "illegal-move"));
}

/// A results row without its timings (which differ between runs): place, opening, engines, outcome.
fn game_list(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("results file");
    let mut games: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            l.split('\t')
                .filter(|f| !f.starts_with("red_stats=") && !f.starts_with("black_stats="))
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect();
    games.sort();
    games
}

/// Plays slices 1..=`n` of the match `words` (`match` and its arguments) at once, slice I writing
/// `dir/shardI.txt`: through GNU parallel when it is installed (as the README runs them), else as plain
/// processes side by side. Returns the path of slice I's results file.
fn play_shards(dir: &std::path::Path, words: &[String], n: u32) -> impl Fn(u32) -> PathBuf {
    let slices: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    let parallel = Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success());
    if parallel {
        let status = Command::new("parallel")
            .args(["--will-cite", "--halt", "now,fail=1", support::chuhan().to_str().unwrap_or("chuhan")])
            .args(words)
            .args(["--shard", &format!("{{}}/{n}"), "--results"])
            .arg(dir.join("shard{}.txt"))
            .arg(":::")
            .args(&slices)
            .status()
            .expect("run GNU parallel");
        assert!(status.success(), "parallel failed");
    } else {
        println!("GNU parallel was not found; the {n} slices run as plain processes side by side");
        let children: Vec<_> = slices
            .iter()
            .map(|i| {
                Command::new(support::chuhan())
                    .args(words)
                    .args(["--shard", &format!("{i}/{n}"), "--results"])
                    .arg(dir.join(format!("shard{i}.txt")))
                    .spawn()
                    .expect("start a shard")
            })
            .collect();
        for mut c in children {
            assert!(c.wait().expect("shard").success());
        }
    }
    let dir = dir.to_path_buf();
    move |i| dir.join(format!("shard{i}.txt"))
}

#[test]
fn shards_played_apart_merge_into_the_whole_match() {
    let dir = scratch("shards");
    let engines = [engine("a", "uci", "--seed 3"), engine("b", "cecp", "--seed 5")];
    let common = "--games 8 --movetime 20 --max-plies 24 --order random --seed 11 --openings";
    let book = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/openings.fen");
    let whole = dir.join("whole.txt");
    let run = chuhan_match(&engines, &format!("{common} {} --results {}", book.display(), whole.display()));
    assert!(run.ok, "{}", run.stderr);

    // The two slices, through GNU parallel when it is installed (as the README runs them), else side by side.
    let mut words: Vec<String> = vec!["match".into()];
    words.extend(engines.iter().flatten().cloned());
    words.extend(format!("{common} {}", book.display()).split_whitespace().map(String::from));
    let shard = play_shards(&dir, &words, 2);
    let (one, two) = (game_list(&shard(1)), game_list(&shard(2)));
    assert!(!one.is_empty() && !two.is_empty() && one.iter().all(|g| !two.contains(g)), "disjoint slices");

    let merged = dir.join("merged.txt");
    let merge = |files: &[PathBuf], out: Option<&PathBuf>| {
        let mut cmd = Command::new(support::chuhan());
        cmd.args(["match", "merge", "--sprt", "elo0=0", "elo1=5"]).args(files);
        if let Some(out) = out {
            cmd.arg("--results").arg(out);
        }
        cmd.output().expect("run merge")
    };
    let out = merge(&[shard(1), shard(2)], Some(&merged));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert_eq!(game_list(&merged), game_list(&whole), "merge = the unsharded match");
    assert!(
        stdout.contains("Match: 8 games of 8 played") && stdout.contains("pairs 4: pentanomial"),
        "{stdout}"
    );
    assert!(stdout.contains("SPRT") || stdout.contains("LLR"), "{stdout}");
    assert!(stderr.is_empty(), "nothing missing or doubled: {stderr}");

    // A slice given twice is counted once; a slice left out shows as missing games.
    let out = merge(&[shard(1), shard(1)], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("duplicate: ") && stderr.contains("missing: "), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Match: 4 games of 8 played"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The opening order is the file's with `--order sequential`, so the seed changes nothing and slices given
/// none are slices of one match (each used to draw its own seed from the clock, and merge refused them).
#[test]
fn sequential_shards_without_a_seed_merge_into_the_whole_match() {
    let dir = scratch("sequential-shards");
    let engines = [engine("a", "uci", "--seed 3"), engine("b", "ucci", "--seed 5")];
    let book = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/openings.fen");
    let common =
        format!("--games 12 --movetime 20 --max-plies 24 --order sequential --openings {}", book.display());
    let whole = dir.join("whole.txt");
    let run = chuhan_match(&engines, &format!("{common} --results {}", whole.display()));
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(game_list(&whole).len(), 12);

    let mut words: Vec<String> = vec!["match".into()];
    words.extend(engines.iter().flatten().cloned());
    words.extend(common.split_whitespace().map(String::from));
    let shard = play_shards(&dir, &words, 3);
    let slices: Vec<Vec<String>> = (1..=3).map(|i| game_list(&shard(i))).collect();
    assert!(slices.iter().all(|s| !s.is_empty()), "every slice plays games");
    assert_eq!(slices.iter().map(Vec::len).sum::<usize>(), 12, "the slices share the games out");

    let merged = dir.join("merged.txt");
    let out = Command::new(support::chuhan())
        .args(["match", "merge"])
        .args((1..=3).map(&shard))
        .arg("--results")
        .arg(&merged)
        .output()
        .expect("run merge");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("Match: 12 games of 12 played; merged from 3 files"), "{stdout}");
    assert!(stderr.is_empty(), "nothing missing or doubled: {stderr}");
    assert_eq!(game_list(&merged), game_list(&whole), "merge = the unsharded match");
    let _ = std::fs::remove_dir_all(&dir);
}
