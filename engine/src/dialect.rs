//! The engine protocols chuhan speaks (as an engine, in `chuhan-protocol`) and drives (as a referee of
//! engine matches, in `chuhan-match`). The vocabulary both sides share lives here; what each side writes
//! and reads stays with it.

/// A protocol between a GUI (or match runner) and an engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCCI 3.0 (xqbase): XQWizard, the UCCI league tools.
    Ucci,
    /// UCI in the xiangqi dialect (Pikafish's): BHGUI, VinXiangQi, Sharkchess, cutechess.
    Uci,
    /// CECP, the xboard protocol (XBoard, WinBoard, Sjaak II).
    Cecp,
}

impl std::fmt::Display for Dialect {
    /// The dialect's name as `chuhan match`'s `proto=` gives it (`ucci`, `uci`, `cecp`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Dialect::Ucci => "ucci",
            Dialect::Uci => "uci",
            Dialect::Cecp => "cecp",
        })
    }
}
