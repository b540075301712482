//! What a GUI (or a developer at the keyboard) can ask for, after parsing and before any of it is checked
//! against the position. Moves and FENs stay text here: the session resolves them against the position, so
//! the parser needs no board.

// The protocols chuhan speaks. The first `ucci` or `uci` decides which one a session uses; `xboard`
// hands the session to CECP's own loop (`cecp/`), so the UCI/UCCI code never holds `Dialect::Cecp`.
pub use engine::Dialect;

/// Where a `position` (or `probe`) command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    /// `startpos`.
    Startpos,
    /// `fen <FEN>`: the FEN's fields joined by single spaces.
    Fen(String),
}

/// A position as the wire describes it: a start and the moves played since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The start.
    pub base: Base,
    /// Moves in coordinate text (`h2e2`), lower-cased, not yet checked.
    pub moves: Vec<String>,
}

/// The clock part of a `go`, in each dialect's own terms and units.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum GoClock {
    /// No clock given.
    #[default]
    None,
    /// UCI: both sides' clocks in milliseconds (GUIs sometimes send negative times; they count as 0).
    Uci {
        /// Red's time left.
        wtime: Option<i64>,
        /// Black's time left.
        btime: Option<i64>,
        /// Red's increment.
        winc: Option<i64>,
        /// Black's increment.
        binc: Option<i64>,
        /// Moves to the next time control.
        movestogo: Option<u32>,
    },
    /// UCCI: the mover's clock and the opponent's, in seconds or (with `usemillisec`) milliseconds.
    Ucci {
        /// The mover's time left.
        time: f64,
        /// Moves to the next time control (sudden death periods).
        movestogo: Option<u32>,
        /// Increment per move (Fischer clock).
        increment: Option<f64>,
        /// The opponent's time left.
        opptime: Option<f64>,
        /// The opponent's moves to go.
        oppmovestogo: Option<u32>,
        /// The opponent's increment.
        oppincrement: Option<f64>,
    },
}

/// A `go` command's parameters. Absent limits mean "think until stopped".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// Think on the opponent's time.
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw: bool,
    /// Search until `stop` (UCI `infinite`, UCCI `depth infinite`).
    pub infinite: bool,
    /// Fixed depth in plies (UCCI `depth 0` = static evaluation only).
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// UCI `movetime`, milliseconds.
    pub movetime: Option<u64>,
    /// UCI `mate n`.
    pub mate: Option<u32>,
    /// UCI `searchmoves`: only these root moves.
    pub searchmoves: Vec<String>,
    /// The clocks.
    pub clock: GoClock,
    /// `go perft n`: the developer's move-tree count instead of a search.
    pub perft: Option<u32>,
}

impl Go {
    /// Whether the command sets no limit at all (then the engine thinks until stopped).
    pub fn has_no_limit(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.mate.is_none()
            && self.clock == GoClock::None
    }
}

/// How `d` draws the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// A picture with Chinese characters when stdout is a terminal (coloured, except on Windows), ASCII
    /// letters otherwise.
    Auto,
    /// ASCII letters (`d ascii`).
    Ascii,
    /// The picture, without colours (`d unicode`, `d chinese`, `d cn`).
    Unicode,
}

/// `bench` parameters (all optional; the defaults are the command line's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchArgs {
    /// Search depth.
    pub depth: Option<u32>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Hash size in MiB.
    pub hash_mb: Option<usize>,
}

/// One parsed input line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uci`: switch to (or confirm) UCI and introduce the engine.
    Uci,
    /// `ucci`: switch to (or confirm) UCCI and introduce the engine.
    Ucci,
    /// `isready`.
    IsReady,
    /// `setoption`: the name as given (matched case-insensitively later) and the value text, if any.
    SetOption {
        /// Option name.
        name: String,
        /// Value text (may contain spaces), if any.
        value: Option<String>,
    },
    /// UCI `ucinewgame`.
    NewGame,
    /// `position ...`.
    Position(PositionSpec),
    /// UCCI `banmoves m1 m2 ...`.
    BanMoves(Vec<String>),
    /// `go ...`.
    Go(Go),
    /// `ponderhit` (UCCI: `ponderhit draw` = the opponent offers a draw with the move).
    PonderHit {
        /// The opponent offers a draw.
        draw: bool,
    },
    /// `stop`.
    Stop,
    /// UCCI `probe`: what the hash table knows about a position.
    Probe(PositionSpec),
    /// `quit`.
    Quit,
    /// `d`: draw the board.
    Display(BoardStyle),
    /// `eval`: the static evaluation and its terms.
    Eval,
    /// `perft n`.
    Perft(u32),
    /// `bench ...`.
    Bench(BenchArgs),
    /// `flip`: swap colours.
    Flip,
}
