//! Tablebase file bytes (`<MATERIAL>.xqtb`), two ways. The bytes as a file: a refusal is one short message,
//! and a file that loads writes back the very same bytes and stops loading when its last byte or its length
//! changes. The bytes as contents: the header of a small material and WDL and DTM arrays drawn from the
//! input (a distance only where the slot is a win or a loss, as the generator writes them), sealed with the
//! right checksum, so the fuzzer reaches the probes (a mutated file almost never passes the checksum).
//! Property: such a file loads and writes back the same bytes; probing positions of its material through a
//! directory (`Tablebases`, as the engine does) gives the table's own verdict, and the root probe names only
//! legal moves, at least one whenever it answers.
#![no_main]

use engine::checksum::fnv1a;
use engine::egtb::file::{self, decode, encode, HEADER_LEN, MAGIC, VERSION};
use engine::egtb::index::Indexer;
use engine::egtb::{Material, Rules, Tablebases};
use fuzzkit::assert_one_short_line;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

/// Materials small enough to seal and probe many times a second.
const MATERIALS: [&str; 4] = ["KRK", "KNK", "KPK", "KCKA"];

/// Positions probed per input.
const PROBES: usize = 24;

/// A file of `material` whose WDL codes and distances come from `data` (repeated): distances of one byte,
/// or of two when `wide`. The DTM width is the writer's: two bytes only when one cannot hold them all.
fn sealed(material: Material, wide: bool, data: &[u8]) -> Vec<u8> {
    let slots = Indexer::new(&material).expect("a small material").size();
    let mut bytes = data.iter().copied().cycle();
    let mut wdl: Vec<u8> = (0..slots.div_ceil(4)).map(|_| bytes.next().unwrap_or(0)).collect();
    // The unused codes of the last byte stay zero, as the generator leaves them.
    if slots % 4 != 0 {
        let last = wdl.len() - 1;
        wdl[last] &= (1u8 << (2 * (slots % 4))) - 1;
    }
    let distances: Vec<u16> = (0..slots as usize)
        .map(|i| {
            let code = (wdl[i / 4] >> (2 * (i % 4))) & 3;
            // Codes 1 and 2 are a win and a loss; a draw (0) or an illegal slot (3) has no distance.
            match (code == 1 || code == 2, wide) {
                (false, _) => 0,
                (true, false) => bytes.next().unwrap_or(0) as u16,
                (true, true) => u16::from_le_bytes([bytes.next().unwrap_or(0), bytes.next().unwrap_or(0)]),
            }
        })
        .collect();
    let width: u8 = if distances.iter().all(|&d| d < 256) { 1 } else { 2 };
    let mut body = wdl.clone();
    for d in distances {
        match width {
            1 => body.push(d as u8),
            _ => body.extend_from_slice(&d.to_le_bytes()),
        }
    }
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut rules = [0u8; 32];
    rules[..Rules::Chinese.name().len()].copy_from_slice(Rules::Chinese.name().as_bytes());
    out.extend_from_slice(&rules);
    let mut name = [0u8; 16];
    let text = material.to_string();
    name[..text.len()].copy_from_slice(text.as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(&slots.to_le_bytes());
    out.push(width);
    out.extend_from_slice(&[0u8; 7]);
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    assert_eq!(out.len(), HEADER_LEN);
    out.extend_from_slice(&body);
    out
}

/// A directory of this fuzzing process's own, for the sealed file.
fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-fuzz-egtb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fuzz_target!(|data: &[u8]| {
    match decode(data, None) {
        Ok(table) => {
            assert!(encode(&table, Rules::Chinese) == data, "a loaded table writes back other bytes");
            let mut changed = data.to_vec();
            let last = changed.len() - 1;
            changed[last] ^= 1;
            assert!(decode(&changed, None).is_err(), "a changed body still loads");
            assert!(decode(&data[..last], None).is_err(), "a truncated file still loads");
        }
        Err(e) => assert_one_short_line(&e.to_string(), 400),
    }

    let Some((&choice, rest)) = data.split_first() else { return };
    let material: Material = MATERIALS[choice as usize % MATERIALS.len()].parse().expect("a material name");
    let bytes = sealed(material, choice & 0x80 != 0, rest);
    let table = decode(&bytes, None).unwrap_or_else(|e| panic!("a sealed {material} file is refused: {e}"));
    assert!(encode(&table, Rules::Chinese) == bytes, "a sealed {material} file writes back other bytes");

    let dir = scratch_dir();
    std::fs::write(dir.join(file::file_name(&material)), &bytes).expect("the scratch file");
    let tb = Tablebases::open(std::slice::from_ref(&dir));
    assert!(tb.take_messages().is_empty(), "a sealed file is refused by the directory");
    let ix = table.indexer();
    for k in 0..PROBES {
        // Slots spread over the table, placed by the input's bytes.
        let pick = rest
            .get(k * 3..k * 3 + 3)
            .map_or(k as u64, |b| u64::from_le_bytes([b[0], b[1], b[2], 0, 0, 0, 0, 0]));
        let index = pick % table.size();
        // Two pieces on a point, kings facing, the side not to move in check: slots without a position.
        let Some(pos) = ix.position_of(index) else { continue };
        let fen = pos.to_fen();
        assert_eq!(tb.probe(&pos), table.verdict(&pos, false), "{fen}");
        if let Some(root) = tb.probe_root(&pos) {
            let legal = pos.legal_moves();
            assert!(!root.best.is_empty(), "a root probe without a move: {fen}");
            for m in &root.best {
                assert!(legal.as_slice().contains(m), "{m:?} is not legal in {fen}");
            }
        }
    }
    assert!(tb.take_messages().is_empty());
});
