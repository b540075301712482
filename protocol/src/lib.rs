//! chuhan's front door: protocols and command line.
