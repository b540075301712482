//! How big a hash table to make for a request: what was asked, but never more than the machine can hold.
//!
//! A table larger than free memory does not fail to allocate (the OS hands out pages lazily); it makes the
//! machine swap once the search fills it, and the engine then loses on time. So the table is capped at the
//! memory available now less a reserve for everything else (the search threads, the GUI, the other engine
//! of a match), and the caller is told why it got less, so it can say so to the user.

use crate::memory::MemInfo;

/// Largest table ever made, MiB (1 TiB): bigger requests are clamped before anything else.
pub const MAX_MB: usize = 1 << 20;
/// Where the machine's memory cannot be read, requests above this many MiB get this many: enough for long
/// analysis, small enough for any machine an engine is run on today.
pub const UNKNOWN_MEMORY_CAP_MB: usize = 4096;
/// The least memory left to everything else, MiB.
const MIN_RESERVE_MB: usize = 256;

/// Why a table is smaller than asked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SizeLimit {
    /// It is not: the table has the size asked for.
    Fits,
    /// The request was larger than [`MAX_MB`].
    Maximum,
    /// Not enough free memory: `available_mb` could be used now, of which `reserve_mb` is kept free.
    Memory {
        /// Memory available when the table was made, MiB.
        available_mb: usize,
        /// Memory kept free for everything else, MiB.
        reserve_mb: usize,
    },
    /// This system does not say how much memory it has: the request was capped at
    /// [`UNKNOWN_MEMORY_CAP_MB`].
    Unknown,
    /// The allocation failed within the budget; the table is the largest halving of it that succeeded.
    Allocation,
}

/// The size of a table against its request.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableSize {
    /// MiB asked for.
    pub asked_mb: usize,
    /// MiB in use (rounded down; at least one bucket even when that is less than 1 MiB).
    pub used_mb: usize,
    /// Why `used_mb` is less than `asked_mb`, if it is.
    pub limit: SizeLimit,
}

/// Memory kept free for everything but the table: an eighth of the machine, at least [`MIN_RESERVE_MB`].
pub fn reserve_mb(total_mb: usize) -> usize {
    (total_mb / 8).max(MIN_RESERVE_MB)
}

/// The MiB to allocate for a request of `asked_mb`, given the machine's memory (`None`: unknown), and why
/// it is less when it is. The memory of the table being replaced must already be freed.
pub fn plan(asked_mb: usize, mem: Option<MemInfo>) -> (usize, SizeLimit) {
    let asked = asked_mb.max(1);
    let (wanted, over_max) = if asked > MAX_MB { (MAX_MB, true) } else { (asked, false) };
    let budget = match mem {
        Some(m) => {
            let available_mb = (m.available >> 20) as usize;
            let reserve_mb = reserve_mb((m.total >> 20) as usize);
            let can = available_mb.saturating_sub(reserve_mb).max(1);
            (can < wanted).then_some((can, SizeLimit::Memory { available_mb, reserve_mb }))
        }
        None => (wanted > UNKNOWN_MEMORY_CAP_MB).then_some((UNKNOWN_MEMORY_CAP_MB, SizeLimit::Unknown)),
    };
    match budget {
        Some(b) => b,
        None if over_max => (MAX_MB, SizeLimit::Maximum),
        None => (wanted, SizeLimit::Fits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    fn machine(total_gib: u64, available_gib: u64) -> Option<MemInfo> {
        Some(MemInfo { total: total_gib * GIB, available: available_gib * GIB })
    }

    #[test]
    fn what_fits_is_given_as_asked() {
        assert_eq!(plan(16, machine(24, 22)), (16, SizeLimit::Fits));
        assert_eq!(plan(16 * 1024, machine(24, 22)), (16 * 1024, SizeLimit::Fits));
        assert_eq!(plan(0, machine(24, 22)), (1, SizeLimit::Fits));
    }

    #[test]
    fn more_than_the_machine_holds_leaves_a_reserve() {
        let (mb, limit) = plan(65_536, machine(24, 22));
        assert_eq!(limit, SizeLimit::Memory { available_mb: 22 * 1024, reserve_mb: 3 * 1024 });
        assert_eq!(mb, 19 * 1024);
        // A small machine keeps at least the minimum reserve; a full one still gets a table.
        assert_eq!(plan(4096, machine(1, 1)).0, 1024 - MIN_RESERVE_MB);
        assert_eq!(plan(4096, machine(8, 0)).0, 1);
    }

    #[test]
    fn unknown_memory_is_capped_conservatively() {
        assert_eq!(plan(1024, None), (1024, SizeLimit::Fits));
        assert_eq!(plan(65_536, None), (UNKNOWN_MEMORY_CAP_MB, SizeLimit::Unknown));
    }

    #[test]
    fn absurd_requests_stop_at_the_maximum() {
        assert_eq!(plan(usize::MAX, machine(4096, 4000)), (MAX_MB, SizeLimit::Maximum));
        assert_eq!(
            plan(usize::MAX, machine(24, 22)).1,
            SizeLimit::Memory { available_mb: 22 * 1024, reserve_mb: 3 * 1024 }
        );
    }
}
