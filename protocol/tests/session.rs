//! The protocol loop run in-process on a pipe, for what is easier to see from inside than through the
//! binary: the end of input finishing `run`, and the terminal picture of `d`.

use protocol::output::Output;
use protocol::session::{run, Config};
use std::io::Write;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

/// A sink that hands over whole lines.
struct Lines(Sender<String>, Vec<u8>);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let _ = self.0.send(String::from_utf8_lossy(&self.1).into_owned());
                self.1.clear();
            } else {
                self.1.push(b);
            }
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn until(rx: &Receiver<String>, done: impl Fn(&str) -> bool) -> Vec<String> {
    let mut got = vec![];
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(l) => {
                let stop = done(&l);
                got.push(l);
                if stop {
                    return got;
                }
            }
            Err(_) => panic!("timed out; got {got:?}"),
        }
    }
}

fn start(config: Config) -> (std::io::PipeWriter, Receiver<String>, std::thread::JoinHandle<()>) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    let (tx, rx) = channel();
    let handle = std::thread::spawn(move || run(reader, Output::new(Lines(tx, vec![])), config));
    (writer, rx, handle)
}

#[test]
fn end_of_input_stops_the_search_answers_and_returns() {
    let (mut w, rx, handle) = start(Config::default());
    writeln!(w, "ucci\ngo depth infinite").expect("write");
    until(&rx, |l| l.starts_with("info depth"));
    drop(w);
    let lines = until(&rx, |l| l.starts_with("bestmove"));
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
    handle.join().expect("run returns");
}

#[test]
fn quit_in_ucci_says_bye_and_returns() {
    let (mut w, rx, handle) = start(Config::default());
    writeln!(w, "ucci\nisready\nquit").expect("write");
    let lines = until(&rx, |l| l == "bye");
    assert!(lines.contains(&"readyok".to_string()));
    handle.join().expect("run returns");
}

#[test]
fn board_picture_on_a_terminal() {
    let (mut w, rx, handle) = start(Config { tty: true, ..Config::default() });
    writeln!(w, "d\nd ascii\nquit").expect("write");
    let picture = until(&rx, |l| l.starts_with("Checkers:")).join("\n");
    assert!(picture.contains('帅') && picture.contains('将') && picture.contains("楚 河"), "{picture}");
    assert!(picture.contains("\x1b["), "coloured on a terminal");
    let ascii = until(&rx, |l| l.starts_with("Checkers:")).join("\n");
    assert!(ascii.contains("9  r n b a k a b n r") && !ascii.contains('\x1b'), "{ascii}");
    handle.join().expect("run returns");
}
