//! The command line, run as a user would: perft, judge, help and version.

use std::process::Command;

#[test]
fn perft_prints_the_node_count() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).args(["perft", "3"]).output().expect("run chuhan");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0], "Nodes searched: 79666");
    assert!(lines[1].starts_with("Nodes/second: "), "{stdout}");
}

#[test]
fn perft_rejects_a_bad_fen_without_crashing() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(["perft", "2", "--fen", "rnbakabnr/9 w"])
        .output()
        .expect("run chuhan");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("10 ranks"));
}

#[test]
fn version_and_help_with_examples() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).arg("--version").output().expect("run chuhan");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("chuhan {}", env!("CARGO_PKG_VERSION")));
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).arg("--help").output().expect("run chuhan");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Examples:") && help.contains("chuhan perft 5") && help.contains("--log"),
        "{help}"
    );
}

fn run_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run chuhan");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    child.wait_with_output().expect("wait")
}

#[test]
fn log_file_records_the_conversation_and_stdout_stays_protocol() {
    let log = std::env::temp_dir().join(format!("chuhan-cli-test-{}.log", std::process::id()));
    let out = run_with_input(&["--log", log.to_str().expect("utf-8 path")], "uci\nisready\nquit\n");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .all(|l| l.starts_with("id ") || l.starts_with("option ") || l == "uciok" || l == "readyok"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&log).expect("log written");
    let _ = std::fs::remove_file(&log);
    assert!(text.contains("< isready") && text.contains("> readyok"), "{text}");
    // No banner and no logs on a pipe.
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn protocol_perft_and_bench_print_what_the_command_line_prints() {
    let out = run_with_input(&[], "perft 3\nquit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let tail: Vec<&str> = stdout.lines().rev().take(2).collect();
    assert!(tail[0].starts_with("Nodes/second: ") && tail[1] == "Nodes searched: 79666", "{stdout}");
    let cli =
        Command::new(env!("CARGO_BIN_EXE_chuhan")).args(["bench", "--depth", "2"]).output().expect("bench");
    let loop_ = run_with_input(&[], "bench depth 2\n");
    let nodes = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find(|l| l.starts_with("Nodes searched"))
            .map(str::to_string)
    };
    assert!(nodes(&cli).is_some());
    assert_eq!(nodes(&cli), nodes(&loop_));
    let lines = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).lines().count();
    assert_eq!(lines(&cli), 2);
    assert_eq!(lines(&loop_), 2);
}

#[test]
fn bench_searches_with_the_evaluation_it_is_given() {
    let nodes = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).args(args).output().expect("bench");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find(|l| l.starts_with("Nodes searched"))
            .map(str::to_string)
    };
    let default = nodes(&["bench", "--depth", "8"]);
    let nnue = nodes(&["bench", "--depth", "8", "--eval", "nnue"]);
    let classical = nodes(&["bench", "--depth", "8", "--eval", "classical"]);
    assert!(default.is_some() && classical.is_some());
    // The default evaluation is the network; the handcrafted one searches a different tree.
    assert_eq!(default, nnue);
    assert_ne!(classical, nnue);
}

#[test]
fn both_protocols_name_the_engine_with_the_package_version() {
    let id = format!("id name chuhan {}", env!("CARGO_PKG_VERSION"));
    for (hello, ok) in [("uci", "uciok"), ("ucci", "ucciok")] {
        // CRLF, as a Windows GUI may send it.
        let out = run_with_input(&[], &format!("{hello}\r\nisready\r\nquit\r\n"));
        assert!(out.status.success());
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.first(), Some(&id.as_str()), "{stdout}");
        assert!(lines.contains(&ok) && lines.contains(&"readyok"), "{stdout}");
    }
}

/// `chuhan match` with an engine, a working directory and an argument whose paths have spaces in them (as
/// `C:\Program Files\...` does on Windows): each must reach the engine as one word.
#[test]
fn match_runs_engines_from_paths_with_spaces() {
    let root = std::env::temp_dir().join(format!("chuhan cli test {}", std::process::id()));
    let bin_dir = root.join("engines dir");
    let work_dir = root.join("work dir");
    std::fs::create_dir_all(&bin_dir).expect("scratch directory");
    std::fs::create_dir_all(&work_dir).expect("scratch directory");
    let exe = bin_dir.join(format!("chuhan copy{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_chuhan"), &exe).expect("copy chuhan");
    let log = |name: &str| work_dir.join(format!("engine {name} log.txt"));
    let engine = |name: &str| {
        vec![
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={}", exe.display()),
            format!("dir={}", work_dir.display()),
            "arg=--log".to_string(),
            format!("arg={}", log(name).display()),
        ]
    };
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .arg("match")
        .args(engine("a"))
        .args(engine("b"))
        .args(["--depth", "1", "--games", "2", "--max-plies", "4"])
        .output()
        .expect("run chuhan match");
    let logs: Vec<String> = ["a", "b"].map(|n| std::fs::read_to_string(log(n)).unwrap_or_default()).into();
    let _ = std::fs::remove_dir_all(&root);
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    for text in logs {
        assert!(text.contains("< uci") && text.contains("> bestmove"), "{text}");
    }
}

#[test]
fn perft_divide_lists_every_root_move() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(["perft", "2", "--divide"])
        .output()
        .expect("run chuhan");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 46, "{text}");
    assert_eq!(lines[44], "Nodes searched: 1920");
    assert!(lines[45].starts_with("Nodes/second: "), "{text}");
    assert!(lines.contains(&"h2e2: 45"), "{text}");
}

// ---------------------------------------------------------------------------------------------------
// `chuhan judge` (the referee itself is tested in engine/tests/judge.rs)

/// A perpetual check by Red: the rook checks from g8 and g9 while the king steps between f9 and f8.
const PERPETUAL_CHECK: (&str, &str) = ("5k3/6R2/9/9/9/9/9/9/9/3K5 w - - 0 1", "g8g9 f9f8 g9g8 f8f9");

fn split(moves: &str) -> Vec<&str> {
    moves.split_whitespace().collect()
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .arg("judge")
        .args(args)
        .output()
        .expect("run chuhan judge");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_prints_one_line_result_and_reason() {
    let (code, out, _) = cli(&[]);
    assert_eq!((code, out.as_str()), (0, "* ongoing\n"));
    let (code, out, _) = cli(&["--fen", "startpos", "--moves", "h2e2", "h9g7"]);
    assert_eq!((code, out.as_str()), (0, "* ongoing\n"));
    let (fen, cycle) = PERPETUAL_CHECK;
    let twice = format!("{cycle} {cycle}");
    let mut args = vec!["--fen", fen, "--moves"];
    args.extend(split(&twice));
    let (code, out, err) = cli(&args);
    assert_eq!((code, out.as_str()), (0, "0-1 perpetual-check\n"), "{err}");
}

#[test]
fn cli_names_an_illegal_move_on_stderr() {
    let (code, out, err) = cli(&["--moves", "h2e2", "a9a5"]);
    assert_eq!((code, out.as_str()), (0, "1-0 illegal-move\n"));
    assert!(err.contains("a9a5"), "{err}");
}

#[test]
fn cli_rejects_a_bad_fen_with_nothing_on_stdout() {
    let (code, out, err) = cli(&["--fen", "rnbakabnr/9/9 w", "--moves", "h2e2"]);
    assert_ne!(code, 0);
    assert_eq!(out, "");
    assert!(err.contains("FEN"), "{err}");
}

#[test]
fn cli_judges_by_the_rule_set_and_move_limit_given() {
    // The red horse chases the unprotected black rook perpetually: lost under the Chinese and Asian rules,
    // a draw under the computer rule.
    let (fen, cycle) = ("5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1", "c3d5 f4e4 d5c3 e4f4");
    let twice = format!("{cycle} {cycle}");
    for (rules, verdict) in [
        ("chinese", "0-1 perpetual-chase\n"),
        ("asian", "0-1 perpetual-chase\n"),
        ("computer", "1/2-1/2 repetition-draw\n"),
    ] {
        let mut args = vec!["--rules", rules, "--fen", fen, "--moves"];
        args.extend(split(&twice));
        let (code, out, err) = cli(&args);
        assert_eq!((code, out.as_str()), (0, verdict), "{rules}: {err}");
    }
    let (code, _, err) = cli(&["--rules", "sky"]);
    assert_ne!(code, 0);
    assert!(err.contains("sky"), "{err}");
    // Two quiet plies after 18: a 10-move limit draws.
    let fen = "3k5/9/9/9/9/9/9/9/r8/4K3R w - - 18 10";
    let (code, out, err) = cli(&["--move-limit", "10", "--fen", fen, "--moves", "i0h0", "a1b1"]);
    assert_eq!((code, out.as_str()), (0, "1/2-1/2 move-limit\n"), "{err}");
}

#[test]
fn egtb_generate_probe_and_list() {
    let dir = std::env::temp_dir().join(format!("chuhan-cli-egtb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let run =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_chuhan")).args(args).output().expect("run chuhan");
    let out = run(&["egtb", "generate", "KRKA", "--dir", d]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("KRKA: 48600 slots") && stdout.contains("KRK: 9720 slots"), "{stdout}");
    // Red mates in two moves (three plies) with the rook.
    let out = run(&["egtb", "probe", "--dir", d, "--fen", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "win 3", "{stdout}");
    assert!(lines[1].split(' ').all(|m| m.len() == 4), "{stdout}");
    let out = run(&["egtb", "probe", "--dir", d, "--fen", "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unknown");
    let out = run(&["egtb", "list", "--dir", d]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l.starts_with("KRKA 48600 slots")), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
