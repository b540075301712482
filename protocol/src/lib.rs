//! chuhan's front door: protocols and command line.

pub mod matchrunner;
