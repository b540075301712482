//! Faults in a match (issue 36): engines that are killed, go deaf, flood their output or answer in the
//! wrong coordinates, a runner killed mid-match and resumed, and a disk that fills while results are
//! written. Each match is a few short games, so each test takes a few seconds at most.

mod support;

use arena::openings;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::match_cli::{chuhan_match, engine, rows, scratch, Row};

/// Plays a match from the start position with a results file; returns the run and its rows.
fn play(test: &str, engines: &[Vec<String>], args: &str) -> (support::match_cli::Run, Vec<Row>) {
    let dir = scratch(test);
    let results = dir.join("results.txt");
    let run = chuhan_match(engines, &format!("--results {} --movetime 20 {args}", results.display()));
    let r = if results.exists() { rows(&results) } else { Vec::new() };
    let _ = std::fs::remove_dir_all(&dir);
    (run, r)
}

/// Runs `chuhan WORDS` from a shell that first runs `limits` (a `ulimit`, a `trap`), and waits for it.
fn chuhan_under(limits: &str, words: &[String]) -> std::process::Output {
    Command::new("bash")
        .arg("-c")
        .arg(format!("{limits} && exec \"$@\""))
        .arg("bash")
        .arg(support::chuhan())
        .args(words)
        .output()
        .expect("run the runner under ulimit")
}

/// The game IDs (`pairing pair slot`) of a results file, sorted.
fn game_ids(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("results file");
    let mut ids: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').take(3).collect::<Vec<_>>().join(" "))
        .collect();
    ids.sort();
    ids
}

#[test]
fn an_engine_killed_by_sigkill_loses_and_is_restarted_for_the_next_game() {
    let (run, r) = play(
        "sigkill",
        &[engine("victim", "uci", "--mode killed --after 2"), engine("b", "ucci", "")],
        "--games 4",
    );
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(r.len(), 4, "every game was played, each with a fresh process: {r:?}");
    for (red, _, result, term, _) in &r {
        assert_eq!(term, "crash");
        assert_eq!(result, if red == "victim" { "0-1" } else { "1-0" });
    }
}

#[test]
fn an_engine_that_never_answers_isready_is_reported_and_one_that_stops_loses() {
    // Deaf from the start: the runner's start-up check names it, after its `ready=` time, not never.
    let mut deaf = engine("deaf", "uci", "--mode deaf");
    deaf.push("ready=300".into());
    let t = Instant::now();
    let (run, _) = play("deaf", &[deaf, engine("b", "uci", "")], "--games 2");
    assert!(
        !run.ok && run.stderr.contains("deaf") && run.stderr.contains("no readyok within 0.3 s"),
        "{}",
        run.stderr
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // Deaf after the start-up check's `isready`: each game's `isready` after `ucinewgame` goes unanswered,
    // so each game is lost by it, and the match still ends.
    let mut later = engine("later", "ucci", "--mode deaf --after 1");
    later.push("ready=300".into());
    let (run, r) = play("deaflater", &[later, engine("b", "uci", "")], "--games 2");
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(r.len(), 2);
    for (red, _, result, term, detail) in &r {
        assert_eq!(term, "crash", "{detail}");
        assert!(detail.contains("no readyok within 0.3 s"), "{detail}");
        assert_eq!(result, if red == "later" { "0-1" } else { "1-0" });
    }
}

#[test]
fn an_engine_that_floods_its_output_loses_without_filling_the_runners_memory() {
    // The flooder writes without end and without a line break. The runner keeps at most one capped line
    // of it; under a 1 GiB address-space limit the match must still finish.
    let dir = scratch("flood");
    let results = dir.join("results.txt");
    let mut words = vec!["match".to_string()];
    words.extend(engine("flooder", "uci", "--mode flood --after 1"));
    words.extend(engine("b", "uci", ""));
    words.extend(["--games", "2", "--movetime", "20", "--results"].map(String::from));
    words.push(results.display().to_string());
    let t = Instant::now();
    // A sanitizer reserves terabytes of address space for its shadow memory, so no `ulimit -v` can apply
    // under one (scripts/sanitize.sh names it in CHUHAN_SANITIZER): there the match runs without the limit.
    let limit = match std::env::var("CHUHAN_SANITIZER") {
        Ok(kind) => {
            println!("flood: no address-space limit under the {kind} sanitizer");
            "true"
        }
        Err(_) => "ulimit -v 1048576",
    };
    let out = chuhan_under(limit, &words);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    println!("flood: the match took {:?}", t.elapsed());
    let r = rows(&results);
    assert_eq!(r.len(), 2, "{r:?}");
    for (red, _, result, term, _) in &r {
        assert!(["no-reply", "time-forfeit"].contains(&term.as_str()), "{r:?}");
        assert_eq!(result, if red == "flooder" { "0-1" } else { "1-0" });
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_move_in_the_wrong_coordinates_is_an_illegal_move() {
    let (run, r) = play(
        "coords",
        &[engine("chessy", "ucci", "--mode wrongcoords --after 1"), engine("b", "uci", "")],
        "--games 2",
    );
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(r.len(), 2);
    for (red, _, result, term, detail) in &r {
        assert_eq!(term, "illegal-move", "{detail}");
        assert_eq!(result, if red == "chessy" { "0-1" } else { "1-0" });
        assert!(detail.contains("chessy played"), "{detail}");
    }
}

#[test]
fn a_runner_killed_mid_match_resumes_with_no_game_lost_or_played_twice() {
    let dir = scratch("killrunner");
    let results = dir.join("r.txt");
    let pgn = dir.join("games.pgn");
    let games = 16;
    let args = format!(
        "--movetime 10 --games {games} --max-plies 12 --order random --results {} --pgn {}",
        results.display(),
        pgn.display()
    );
    let engines = [engine("a", "uci", ""), engine("b", "ucci", "")];
    let mut cmd = Command::new(support::chuhan());
    cmd.arg("match");
    for e in &engines {
        cmd.args(e);
    }
    let mut child =
        cmd.args(args.split_whitespace()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("start");
    // Kill it (SIGKILL: no chance to tidy up) once a few games are saved, in the middle of the next.
    let t = Instant::now();
    while (if results.exists() { game_ids(&results).len() } else { 0 }) < 3 {
        assert!(t.elapsed() < Duration::from_secs(20), "no games saved");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(30));
    child.kill().expect("SIGKILL the runner");
    child.wait().expect("reaped");
    let saved = game_ids(&results).len();
    assert!(saved < games, "the runner was killed before the end ({saved} games saved)");

    let resumed = chuhan_match(&engines, &format!("{args} --resume"));
    assert!(resumed.ok, "{}", resumed.stderr);
    assert!(resumed.stderr.contains(&format!("resuming: {saved} of {games}")), "{}", resumed.stderr);
    let ids = game_ids(&results);
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!((ids.len(), unique.len()), (games, games), "no game lost, none played twice: {ids:?}");
    // Both files still parse: the results file as a whole, the PGN as one game per result.
    arena::results::ResultsFile::read(&results).expect("the results file reads");
    let read = openings::parse(&std::fs::read_to_string(&pgn).expect("pgn")).expect("the PGN reads");
    assert_eq!(read.len(), games, "one PGN game per result");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_runner_killed_between_a_games_pgn_record_and_its_results_line_resumes_with_one_record_per_game() {
    // The runner writes a game's PGN record, then its results line. Killed between the two, it leaves a
    // record for a game the results file does not have: the same files with the last results line cut off.
    let dir = scratch("pgnorphan");
    let results = dir.join("r.txt");
    let pgn = dir.join("games.pgn");
    let args = format!(
        "--movetime 10 --games 4 --max-plies 8 --results {} --pgn {}",
        results.display(),
        pgn.display()
    );
    let engines = [engine("a", "uci", ""), engine("b", "uci", "")];
    assert!(chuhan_match(&engines, &args).ok);
    let text = std::fs::read_to_string(&results).expect("results file");
    let cut = text.trim_end_matches('\n').rfind('\n').expect("a results line") + 1;
    std::fs::write(&results, &text[..cut]).expect("cut the last results line");

    let resumed = chuhan_match(&engines, &format!("{args} --resume"));
    assert!(resumed.ok, "{}", resumed.stderr);
    assert!(resumed.stderr.contains("resuming: 3 of 4"), "{}", resumed.stderr);
    assert!(resumed.stderr.contains("dropped the record"), "{}", resumed.stderr);
    let pgn_text = std::fs::read_to_string(&pgn).expect("pgn");
    let mut rounds: Vec<&str> = pgn_text.lines().filter(|l| l.starts_with("[Round ")).collect();
    rounds.sort();
    assert_eq!(rounds, ["[Round \"1\"]", "[Round \"2\"]", "[Round \"3\"]", "[Round \"4\"]"]);
    assert_eq!(game_ids(&results).len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_full_disk_stops_the_match_with_a_clear_error_and_leaves_the_results_file_intact() {
    // A file-size limit of 1 KiB stands in for a full disk: the write that would cross it fails (EFBIG;
    // SIGXFSZ is ignored so the runner sees the error rather than dying of the signal).
    let dir = scratch("fulldisk");
    let results = dir.join("r.txt");
    let engines = [engine("a", "uci", ""), engine("b", "uci", "")];
    let args = format!("--movetime 10 --games 20 --max-plies 6 --results {}", results.display());
    let mut words = vec!["match".to_string()];
    words.extend(engines.iter().flatten().cloned());
    words.extend(args.split_whitespace().map(String::from));
    let out = chuhan_under("trap '' XFSZ; ulimit -f 1", &words);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the match cannot go on without its results file");
    assert!(stderr.contains(&format!("results file {}: File too large", results.display())), "{stderr}");
    let text = std::fs::read_to_string(&results).expect("results file");
    assert!(text.ends_with('\n') && text.len() <= 1024, "only whole lines: {text:?}");
    let saved = arena::results::ResultsFile::read(&results).expect("the results file still reads").rows.len();
    assert!((1..20).contains(&saved), "{saved} games saved");
    // With room again, --resume plays the rest.
    let resumed = chuhan_match(&engines, &format!("{args} --resume"));
    assert!(resumed.ok, "{}", resumed.stderr);
    assert_eq!(game_ids(&results).len(), 20);
    let _ = std::fs::remove_dir_all(&dir);
}
