//! chuhan's game core: the xiangqi board, its rules, move generation and the search.
#![deny(missing_docs)]

pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod checksum;
pub mod clock;
pub mod dialect;
pub mod egtb;
pub mod evaluate;
pub mod fen;
pub mod memory;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod random;
pub mod rules;
pub mod search;
pub mod text;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use dialect::Dialect;
pub use evaluate::Evaluate;
pub use fen::FenError;
pub use movegen::MoveList;
pub use position::{MoveError, Position};
pub use types::{Color, Move, Piece, PieceKind, Square};
