//! placeholder
/// placeholder
pub struct Tablebases;
