//! The match results file and `merge`. Property: every row read writes back to a line that reads as the
//! same row; a file merged with itself holds each game once (the copies reported as duplicates) and gives
//! the same rows as the file alone, or is refused exactly when the file alone is.
#![no_main]

use arena::merge::combine_read;
use arena::results::{ResultRow, ResultsFile};
use fuzzkit::assert_one_short_line;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let file = match ResultsFile::parse(&text) {
        Ok(f) => f,
        Err(e) => return assert_one_short_line(&e.to_string(), 400),
    };
    for row in &file.rows {
        let line = row.to_line();
        assert!(!line.contains('\n'), "{line:?}");
        let back = ResultRow::parse(&line).unwrap_or_else(|| panic!("written row does not read: {line:?}"));
        assert_eq!(&back, row, "{line:?}");
    }
    let rows = file.rows.len();
    let alone = combine_read(vec![("a".into(), ResultsFile::parse(&text).unwrap())]);
    let twice = combine_read(vec![
        ("a".into(), ResultsFile::parse(&text).unwrap()),
        ("b".into(), ResultsFile::parse(&text).unwrap()),
    ]);
    match (alone, twice) {
        (Ok(one), Ok(two)) => {
            assert_eq!(one.rows, two.rows, "merging a file with itself changed its games");
            // The first copy's own repeats, then every row of the second copy.
            assert_eq!(two.duplicates.len(), one.duplicates.len() + rows, "each copy is one duplicate");
            assert_eq!(one.rows.len() + one.duplicates.len(), rows);
            assert_eq!(one.missing_count(), two.missing_count());
            assert!(one.missing().take(20).eq(two.missing().take(20)));
            // The count is the list's length (listed only when the schedule is small enough to list).
            if one.missing_count() <= 10_000 {
                assert_eq!(one.missing().count() as u64, one.missing_count());
            }
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!("alone: {:?}, with itself: {:?}", a.err(), b.err()),
    }
});
