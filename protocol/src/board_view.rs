//! The `d` command: the board as a picture, then its FEN, key and checkers.
//!
//! On a terminal the picture uses the Chinese piece characters on a drawn grid with the river and the
//! palace diagonals, red pieces in red (ANSI colours). Anywhere else (a GUI's log, a pipe, a test) it uses
//! FEN letters, which every font has and every diff tool reads.
//!
//! Windows: Rust's standard library writes to a console with `WriteConsoleW` (UTF-16), so the Chinese
//! characters arrive intact whatever the console's code page is (on a pipe the letters are used anyway).
//! ANSI colour codes, though, are only understood by consoles with virtual-terminal processing switched on
//! (Windows Terminal; not every `cmd.exe` window), and elsewhere print as `←[1;31m`. So on Windows a terminal
//! gets the picture without colours, as `d unicode` draws it everywhere.

use crate::command::BoardStyle;
use engine::{Color, Piece, Position, Square};

const RED: &str = "\x1b[1;31m";
const BLACK: &str = "\x1b[1m";
const GRID: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// Whether `d` colours the picture on a terminal: not on Windows (see the module comment).
pub const COLOURS_ON_A_TERMINAL: bool = !cfg!(windows);

/// The lines `d` prints. `tty`: stdout is a terminal (pictures, and colours where they work, are welcome).
pub fn render(pos: &Position, style: BoardStyle, tty: bool) -> Vec<String> {
    let mut lines = match style {
        BoardStyle::Ascii => ascii(pos),
        BoardStyle::Unicode => picture(pos, false),
        BoardStyle::Auto if tty => picture(pos, COLOURS_ON_A_TERMINAL),
        BoardStyle::Auto => ascii(pos),
    };
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.to_fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: Vec<String> = pos.checkers().into_iter().map(|sq| sq.to_string()).collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines
}

fn piece_at(pos: &Position, file: u8, rank: u8) -> Option<Piece> {
    Square::from_file_rank(file, rank).and_then(|sq| pos.piece_at(sq))
}

/// FEN letters, `.` for an empty point, the river as a row of `~`.
fn ascii(pos: &Position) -> Vec<String> {
    let files = "   a b c d e f g h i".to_string();
    let mut lines = vec![files.clone()];
    for rank in (0..10).rev() {
        let row: Vec<String> =
            (0..9).map(|file| piece_at(pos, file, rank).map_or('.', Piece::to_char).to_string()).collect();
        lines.push(format!("{rank}  {}", row.join(" ")));
        if rank == 5 {
            lines.push("   ~~~~~~~~~~~~~~~~~".to_string());
        }
    }
    lines.push(files);
    lines
}

/// The junction drawn at an empty point.
fn junction(file: u8, rank: u8) -> char {
    let row = match rank {
        9 => ['┌', '┬', '┐'],
        0 => ['└', '┴', '┘'],
        5 => ['├', '┴', '┤'],
        4 => ['├', '┬', '┤'],
        _ => ['├', '┼', '┤'],
    };
    row[match file {
        0 => 0,
        8 => 2,
        _ => 1,
    }]
}

/// The palace diagonal (if any) drawn between files `file` and `file + 1`, below rank `rank`.
fn diagonal(file: u8, rank: u8) -> Option<char> {
    // Going down the board: in the upper half of each palace the line from the left corner runs down to
    // the right (╲) and the one from the right corner down to the left (╱); below the centre it reverses.
    let upper = matches!(rank, 9 | 2);
    let lower = matches!(rank, 8 | 1);
    match (file, upper, lower) {
        (3, true, _) | (4, _, true) => Some('╲'),
        (4, true, _) | (3, _, true) => Some('╱'),
        _ => None,
    }
}

/// Each point is two columns wide (a Chinese character is), with two columns of line between points.
fn picture(pos: &Position, colour: bool) -> Vec<String> {
    let paint = |code: &str, text: String| if colour { format!("{code}{text}{RESET}") } else { text };
    let files = "   a   b   c   d   e   f   g   h   i".to_string();
    let mut lines = vec![files.clone()];
    for rank in (0..10u8).rev() {
        let mut row = format!("{rank}  ");
        for file in 0..9u8 {
            match piece_at(pos, file, rank) {
                Some(p) => {
                    let code = if p.color() == Color::Red { RED } else { BLACK };
                    row.push_str(&paint(code, p.chinese().to_string()));
                }
                None => {
                    let tail = if file < 8 { '─' } else { ' ' };
                    row.push_str(&paint(GRID, format!("{}{tail}", junction(file, rank))));
                }
            }
            if file < 8 {
                row.push_str(&paint(GRID, "──".to_string()));
            }
        }
        lines.push(row.trim_end().to_string());
        if rank == 0 {
            break;
        }
        let between = if rank == 5 {
            "│     楚 河           汉 界     │".to_string()
        } else {
            let mut s = String::new();
            for file in 0..9u8 {
                s.push('│');
                if file < 8 {
                    match diagonal(file, rank) {
                        Some(d) => s.push_str(&format!(" {d} ")),
                        None => s.push_str("   "),
                    }
                }
            }
            s
        };
        lines.push(format!("   {}", paint(GRID, between)));
    }
    lines.push(files);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_board_of_the_start_position() {
        let lines = render(&Position::startpos(), BoardStyle::Auto, false);
        assert_eq!(lines[1], "9  r n b a k a b n r");
        assert_eq!(lines[3], "7  . c . . . . . c .");
        assert_eq!(lines[6], "   ~~~~~~~~~~~~~~~~~");
        assert_eq!(lines[11], "0  R N B A K A B N R");
        assert!(lines.contains(&format!("Fen: {}", engine::position::START_FEN)));
        assert!(lines.iter().any(|l| l.starts_with("Key: ") && l.len() == 21));
        assert!(lines.contains(&"Checkers: ".to_string()));
    }

    #[test]
    fn picture_has_chinese_pieces_river_and_palaces() {
        let lines = render(&Position::startpos(), BoardStyle::Unicode, false);
        let text = lines.join("\n");
        assert!(text.contains("车──马──象──士──将──士──象──马──车"), "{text}");
        assert!(text.contains("车──马──相──仕──帅──仕──相──马──车"), "{text}");
        assert!(text.contains("楚 河") && text.contains("汉 界"));
        assert!(text.contains('╲') && text.contains('╱'));
        assert!(!text.contains('\x1b'));
        // Every grid row is as wide as the next, so the verticals line up (two columns per character).
        let width = |l: &str| l.chars().map(|c| if (c as u32) >= 0x4e00 { 2 } else { 1 }).sum::<usize>();
        assert_eq!(width(&lines[2]), width(&lines[3]), "{}\n{}", lines[2], lines[3]);
        assert_eq!(width(&lines[2]), width(&lines[10]), "{}\n{}", lines[2], lines[10]);
        let on_a_terminal = render(&Position::startpos(), BoardStyle::Auto, true).join("\n");
        assert!(on_a_terminal.contains('帅'));
        assert_eq!(on_a_terminal.contains(RED), COLOURS_ON_A_TERMINAL);
        assert_eq!(on_a_terminal.contains('\x1b'), !cfg!(windows));
    }

    #[test]
    fn checkers_are_listed() {
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
        assert!(render(&pos, BoardStyle::Ascii, false).contains(&"Checkers: e1".to_string()));
    }
}
