//! chuhan's front door: protocols and command line.

pub mod judge;
pub mod matchrunner;
