//! Tables held in memory, looked up by the material of a position.

use super::material::Material;
use super::table::{Table, Verdict};
use crate::position::Position;
use std::collections::HashMap;

/// Tables in memory, one per stored material.
#[derive(Default)]
pub struct TableSet {
    tables: HashMap<Material, Table>,
}

impl TableSet {
    /// An empty set.
    pub fn new() -> TableSet {
        TableSet::default()
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        self.tables.insert(table.material(), table);
    }

    /// The table of a stored material.
    pub fn get(&self, material: &Material) -> Option<&Table> {
        self.tables.get(material)
    }

    /// Whether the set has the table of this stored material.
    pub fn contains(&self, material: &Material) -> bool {
        self.tables.contains_key(material)
    }

    /// The verdict on `pos` from the table of its material, if the set has it.
    pub fn probe(&self, pos: &Position) -> Option<Verdict> {
        let (material, flip) = Material::of(pos).canonical();
        self.tables.get(&material)?.verdict(pos, flip)
    }

    /// The materials held.
    pub fn materials(&self) -> impl Iterator<Item = &Material> {
        self.tables.keys()
    }
}
