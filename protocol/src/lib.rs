//! chuhan's front door: the UCCI, UCI and CECP (xboard) protocols and the command line.
//!
//! Data flow: stdin bytes -> [`reader`] (lines) -> [`parse`] -> [`command::Command`] -> [`session`] (a thin
//! adapter) -> [`facade::Engine`] (position, settings, the search lifecycle) -> reports back through the
//! session's listener -> [`format`] -> [`output`] (stdout, flushed per line). CECP ([`cecp`]) is a second
//! adapter over the same engine.

pub mod board_view;
pub mod capacity;
pub mod cecp;
pub mod cli;
pub mod command;
pub mod draw;
pub mod egtb_cli;
pub mod evaluator;
pub mod facade;
pub mod format;
pub mod logging;
pub mod options;
pub mod output;
pub mod parse;
pub mod reader;
pub mod session;
pub mod strength;
pub mod tools;
pub mod wdl;

pub use command::{Command, Dialect};
pub use parse::{parse, ParseError};
