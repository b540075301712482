//! Texel tuning of the weights from self-play games (filled in below).
