//! chuhan's game core: the xiangqi board, its rules, move generation and the search.
#![deny(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::FenError;
pub use movegen::MoveList;
pub use position::{MoveError, Position};
pub use types::{Color, Move, Piece, PieceKind, Square};
