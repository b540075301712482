//! `chuhan match` from the tests: the test engine's `--engine` words, a run of the runner, scratch
//! directories and the rows of a results file.

use super::{chuhan, test_engine};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `--engine` words for the test engine; `args` are its own arguments (e.g. `--mode crash`).
pub fn engine(name: &str, proto: &str, args: &str) -> Vec<String> {
    let mut w = vec![
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={}", test_engine().display()),
        format!("proto={proto}"),
    ];
    w.extend(args.split_whitespace().map(|a| format!("arg={a}")));
    w
}

/// How a `chuhan match` run ended and what it printed.
pub struct Run {
    /// It exited with success.
    pub ok: bool,
    /// Its stdout.
    pub stdout: String,
    /// Its stderr.
    pub stderr: String,
}

/// Runs `chuhan match` with the `engines`' words and `args` (split at white space) to its end.
pub fn chuhan_match(engines: &[Vec<String>], args: &str) -> Run {
    let mut cmd = Command::new(chuhan());
    cmd.arg("match");
    for e in engines {
        cmd.args(e);
    }
    cmd.args(args.split_whitespace());
    let out = cmd.output().expect("run chuhan match");
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// A result row as (red, black, result, termination, detail).
pub type Row = (String, String, String, String, String);

/// A row's result and termination.
pub fn outcome(row: &Row) -> (&str, &str) {
    (row.2.as_str(), row.3.as_str())
}

/// The result rows of a results file.
pub fn rows(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).expect("results file");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f = |k: &str| {
                l.split('\t').find_map(|x| x.strip_prefix(&format!("{k}="))).unwrap_or_default().to_string()
            };
            (f("red"), f("black"), f("result"), f("termination"), f("detail"))
        })
        .collect()
}
