//! chuhan's tuning tools: self-play data, Texel tuning of the handcrafted weights, and training.
//!
//! - [`datagen`] plays self-play games at a fixed node budget and stores them with [`gamefile`];
//! - [`texel`] fits the evaluation's weights to game results (the evaluation as a linear function of its
//!   weights is `eval::linear`), and [`source`] writes them back as `eval/src/weights.rs`;
//! - [`spsa`] tunes the search's parameters by SPSA over games played by `chuhan match`.
//! - [`nnue`] trains the learned evaluation (`eval::nnue`) on game files.
//!
//! Every in-process game here is played by [`selfplay`] and judged by `engine::rules`, the same referee as
//! `chuhan judge` and `chuhan match`. The `chuhan-tune` binary drives it all (scripts/tune.sh).
#![deny(missing_docs)]

pub mod datagen;
pub mod endgames;
pub mod files;
pub mod gamefile;
pub mod nnue;
pub mod selfplay;
pub mod source;
pub mod spsa;
pub mod texel;
