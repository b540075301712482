//! Appending whole records to a file, all or nothing: a record that cannot be written whole (a full disk,
//! a file-size limit, an I/O error) is cut off again, so the file keeps exactly the records written before
//! and the caller gets the error. The results file and the PGN use it; `--resume` then finds a file that
//! parses and ends with the last game that was really saved.
//!
//! Why not write a new copy beside the file and rename it over the old one: that rewrites the whole file
//! per game, which for the 20,000-game SPRTs this runner plays is gigabytes of writes. Appending and cutting
//! back gives the same guarantee for write errors; a runner killed in the middle of a write (a window of
//! one system call) leaves a cut last line, which `--resume` already drops.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};

/// A sink that can be cut back to a length (a file; a fake disk in the tests).
pub trait Truncate: Write {
    /// Cuts the sink to `len` bytes; the next write goes after them.
    fn truncate_to(&mut self, len: u64) -> io::Result<()>;
}

impl Truncate for File {
    fn truncate_to(&mut self, len: u64) -> io::Result<()> {
        self.set_len(len)?;
        self.seek(SeekFrom::Start(len)).map(|_| ())
    }
}

/// A file that only ever holds whole records.
pub struct RecordFile<F: Truncate = File> {
    inner: F,
    /// Bytes of whole records in the file.
    len: u64,
}

impl<F: Truncate> RecordFile<F> {
    /// Records go after the `len` bytes already in `inner`.
    pub fn new(inner: F, len: u64) -> RecordFile<F> {
        RecordFile { inner, len }
    }

    /// Appends `record` and flushes it; on failure the partial record is cut off and the error returned.
    pub fn append(&mut self, record: &[u8]) -> io::Result<()> {
        match self.inner.write_all(record).and_then(|_| self.inner.flush()) {
            Ok(()) => {
                self.len += record.len() as u64;
                Ok(())
            }
            Err(e) => match self.inner.truncate_to(self.len) {
                Ok(()) => Err(e),
                Err(cut) => Err(io::Error::new(
                    e.kind(),
                    format!(
                        "{e}; cutting the partial record off failed too ({cut}), the last line is incomplete"
                    ),
                )),
            },
        }
    }

    /// The sink.
    pub fn get_ref(&self) -> &F {
        &self.inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disk of `room` bytes.
    struct SmallDisk {
        bytes: Vec<u8>,
        room: usize,
    }

    impl Write for SmallDisk {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let free = self.room.saturating_sub(self.bytes.len());
            if free == 0 {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "No space left on device"));
            }
            let n = buf.len().min(free);
            self.bytes.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Truncate for SmallDisk {
        fn truncate_to(&mut self, len: u64) -> io::Result<()> {
            self.bytes.truncate(len as usize);
            Ok(())
        }
    }

    #[test]
    fn a_record_that_does_not_fit_is_cut_off_and_the_earlier_ones_stay() {
        let mut f = RecordFile::new(SmallDisk { bytes: b"header\n".to_vec(), room: 20 }, 7);
        f.append(b"game 1\n").expect("fits");
        let e = f.append(b"game 2 is long\n").expect_err("does not fit");
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        assert_eq!(f.get_ref().bytes, b"header\ngame 1\n", "the partial record is gone");
        f.append(b"g3\n").expect("a short one still fits");
        assert_eq!(f.get_ref().bytes, b"header\ngame 1\ng3\n");
    }
}
