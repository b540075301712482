//! CECP, the Chess Engine Communication Protocol of XBoard and WinBoard ("xboard protocol", version 2),
//! for xiangqi: files a-i, ranks 0-9 with rank 0 Red's back rank (XBoard counts ranks from 0 on a board
//! of ten), the same squares as UCCI. The first `xboard` line hands the session over to [`session::run`].

pub mod command;
pub mod format;
pub mod session;

/// Whether `line` is the command that opens CECP (`xboard`).
pub fn opens(line: &str) -> bool {
    line.split_whitespace().next() == Some("xboard")
}
