//! `chuhan-tune datagen --shard I/N` run as separate processes — through GNU parallel when it is installed,
//! as the README runs them — and `datagen-merge` of the slices give the unsharded run's file byte for byte.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tune() -> &'static str {
    env!("CARGO_BIN_EXE_chuhan-tune")
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-datagen-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// The datagen words of the run (without `--out` and `--shard`).
fn run_words() -> Vec<String> {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/openings.fen");
    ["datagen", "--games", "6", "--nodes", "300", "--seed", "5", "--openings"]
        .iter()
        .map(|w| w.to_string())
        .chain([book.display().to_string()])
        .collect()
}

#[test]
fn slices_played_apart_merge_into_the_whole_run() {
    let dir = scratch();
    let whole = dir.join("whole.bin");
    let status = Command::new(tune()).args(run_words()).arg("--out").arg(&whole).status().expect("runs");
    assert!(status.success());

    let n = 2;
    let parallel = Command::new("parallel").arg("--version").output().is_ok_and(|o| o.status.success());
    if parallel {
        let status = Command::new("parallel")
            .args(["--will-cite", "--halt", "now,fail=1", tune()])
            .args(run_words())
            .args(["--shard", &format!("{{}}/{n}"), "--out"])
            .arg(dir.join("slice{}.bin"))
            .arg(":::")
            .args((1..=n).map(|i| i.to_string()))
            .status()
            .expect("run GNU parallel");
        assert!(status.success(), "parallel failed");
    } else {
        println!("GNU parallel was not found; the {n} slices run as plain processes side by side");
        let children: Vec<_> = (1..=n)
            .map(|i| {
                Command::new(tune())
                    .args(run_words())
                    .args(["--shard", &format!("{i}/{n}"), "--out"])
                    .arg(dir.join(format!("slice{i}.bin")))
                    .spawn()
                    .expect("start a slice")
            })
            .collect();
        for mut c in children {
            assert!(c.wait().expect("a slice").success());
        }
    }

    let merged = dir.join("merged.bin");
    let out = Command::new(tune())
        .args(["datagen-merge", "--out"])
        .arg(&merged)
        .args((1..=n).map(|i| dir.join(format!("slice{i}.bin"))))
        .output()
        .expect("merges");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("6 games read from 2 files, 0 duplicates dropped, 6 games"), "{said}");
    assert_eq!(std::fs::read(&merged).expect("merged"), std::fs::read(&whole).expect("whole"));

    let bad = Command::new(tune()).args(run_words()).args(["--shard", "3/2", "--out"]).arg(&merged).output();
    assert!(!bad.expect("runs").status.success(), "a slice past the count is refused");
    let _ = std::fs::remove_dir_all(&dir);
}
