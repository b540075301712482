//! The hash table's memory: cache-line buckets in zeroed memory that the OS maps lazily.
//!
//! An all-zero bucket is four empty entries, so zeroed memory is an empty table. Asked for zeroed memory,
//! the allocator takes fresh pages from the OS (which are zero already, and only backed by memory when
//! first touched) instead of writing zeros, so making even a huge table is instant.
//!
//! Measured reason for the `unsafe` code here: the safe construction (`Vec::resize_with(Bucket::default)`)
//! writes every page before the table can be used; on the 24 GiB, 2-core development machine `setoption
//! name Hash value 4096` then took 10-18 s to `readyok`, 16384 MiB 73-83 s. With this module it takes
//! milliseconds (figures in docs/benchmarks.md, "Hash allocation and clearing"). No safe alternative exists: `Box::new_zeroed_slice`
//! needs an `unsafe` `assume_init` and cannot report failure, and a `Vec` of atomics cannot be zeroed
//! without writing it.
//!
//! Why not `alloc_zeroed` with the bucket's own 64-byte alignment: the system allocator takes its
//! `calloc` path (the lazy one) only for alignments up to 16 bytes, and writes zeros over everything
//! otherwise. So the memory is asked for with word alignment, one bucket larger, and the buckets start at
//! the first cache-line boundary inside it.
//!
//! Huge pages (Linux): a probe lands on a random bucket, so with 4 KiB pages nearly every probe of a table
//! larger than the TLB's reach (a few MiB) also misses the TLB and walks the page tables. Tables of 2 MiB
//! or more therefore start on a 2 MiB boundary (the allocation is 2 MiB larger) and are marked with
//! `madvise(MADV_HUGEPAGE)`, which kernels whose transparent huge pages are set to `madvise` (the common
//! default) need before they back the range with 2 MiB pages. The pages are still zeroed and mapped
//! lazily by the kernel; the advice is only a hint, and a kernel that refuses it leaves 4 KiB pages.
//!
//! Only tables up to [`HUGE_PAGE_TABLE_MAX`] get the advice. A probe that first touches a huge page makes
//! the kernel zero (and a virtual machine's host back) all 2 MiB of it at once, where a small page costs
//! 4 KiB: measured on a fresh 2-core cloud VM, 4.4 ms a huge page against 2-10 us a small one. A short
//! search on a big new table touches a new page at nearly every probe, so with a 21 GiB table `go movetime
//! 200` ran at 265 nodes/s on a CI runner and overran its time by seconds. Up to 256 MiB, all first
//! touches together cost at most about 0.6 s on a fresh VM and 25 ms once its memory has been used.

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// Entries per bucket.
pub const ENTRIES: usize = 4;

/// Four entries of two words, one cache line.
#[repr(C, align(64))]
#[derive(Default)]
pub struct Bucket {
    /// Entry i is `words[2i]` (key ^ data) and `words[2i + 1]` (data).
    pub words: [AtomicU64; 2 * ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Owned, cache-line-aligned buckets in zeroed memory (like a `Box<[Bucket]>`).
pub struct Buckets {
    /// Start of the allocation, and its layout (size 0: nothing allocated).
    base: NonNull<u8>,
    layout: Layout,
    /// The first bucket, at the first 64-byte boundary from `base`.
    first: NonNull<Bucket>,
    len: usize,
}

// SAFETY: `Buckets` owns its memory exclusively, like `Box<[Bucket]>`, and `Bucket` (atomics only) is Send.
unsafe impl Send for Buckets {}
// SAFETY: shared access only hands out `&[Bucket]`, and `Bucket` (atomics only) is Sync.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// No buckets, and no memory held.
    pub fn empty() -> Buckets {
        Buckets { base: NonNull::dangling(), layout: Layout::new::<()>(), first: NonNull::dangling(), len: 0 }
    }

    /// `len` empty buckets (`len` > 0), or `None` if the allocator cannot give that much.
    pub fn zeroed(len: usize) -> Option<Buckets> {
        let bytes = len.max(1).checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { std::mem::align_of::<Bucket>() };
        let size = bytes.checked_add(align)?;
        let layout = Layout::from_size_align(size, std::mem::align_of::<AtomicU64>()).ok()?;
        // SAFETY: the layout's size is not zero, as `alloc_zeroed` requires.
        let base = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        // Word alignment leaves at most `align - 8` bytes before the boundary, and `align` spare bytes were
        // asked for, so `len` buckets fit after it.
        let offset = base.as_ptr().align_offset(align);
        if offset >= align {
            // SAFETY: `base` was just allocated with `layout` and is not used again.
            unsafe { dealloc(base.as_ptr(), layout) };
            return None;
        }
        let first = base.as_ptr().wrapping_add(offset).cast::<Bucket>();
        let first = NonNull::new(first)?;
        if advises_huge_pages(bytes) {
            advise_huge_pages(first.as_ptr().cast(), bytes - bytes % HUGE_PAGE);
        }
        Some(Buckets { base, layout, first, len: len.max(1) })
    }

    /// `len` empty buckets, or the process ends with the allocator's out-of-memory report.
    pub fn zeroed_or_abort(len: usize) -> Buckets {
        Buckets::zeroed(len).unwrap_or_else(|| handle_alloc_error(Layout::new::<Bucket>()))
    }
}

/// The size of an x86-64 (and common AArch64) huge page.
const HUGE_PAGE: usize = 2 << 20;

/// The largest table, bytes, backed by huge pages (see the module's note).
const HUGE_PAGE_TABLE_MAX: usize = 256 << 20;

/// Whether a table of `bytes` is advised onto huge pages: from one huge page up to [`HUGE_PAGE_TABLE_MAX`].
fn advises_huge_pages(bytes: usize) -> bool {
    (HUGE_PAGE..=HUGE_PAGE_TABLE_MAX).contains(&bytes)
}

/// Asks the kernel to back `len` bytes from `start` (2 MiB aligned, inside one allocation) with huge pages.
/// (Not under Miri, which cannot call into the C library; the advice changes nothing Miri could check.)
#[cfg(all(target_os = "linux", not(miri)))]
fn advise_huge_pages(start: *mut u8, len: usize) {
    // Declared here instead of pulling in the `libc` crate for one call; the C library is linked anyway.
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int) -> std::ffi::c_int;
    }
    /// `MADV_HUGEPAGE` from Linux's `<asm-generic/mman-common.h>` (the same value on every architecture).
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    // SAFETY: the range lies inside a live allocation that this `Buckets` owns; `madvise` with this advice
    // changes neither its contents nor its mapping, only how the kernel backs it. A failure (an old kernel,
    // huge pages switched off) is harmless and ignored: the table then simply uses small pages.
    let _ = unsafe { madvise(start.cast(), len, MADV_HUGEPAGE) };
}

#[cfg(any(not(target_os = "linux"), miri))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `first` is 64-byte aligned and points to `len` buckets inside the allocation (or is
        // dangling with `len` 0); all-zero bytes are a valid `Bucket` (atomics have the representation of
        // their integers); the memory lives as long as `self`, and only `&self` reaches it here.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as for `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        if self.layout.size() != 0 {
            // SAFETY: `base` was allocated with `layout` by `alloc_zeroed` and is freed only here.
            unsafe { dealloc(self.base.as_ptr(), self.layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn buckets_are_aligned_zeroed_and_writable() {
        // The largest is a huge-page table (2 MiB aligned); under Miri the smallest of those, for time.
        let large = if cfg!(miri) { HUGE_PAGE / 64 } else { (32 << 20) / 64 };
        for len in [1, 3, 1000, large] {
            let mut b = Buckets::zeroed(len).expect("memory");
            assert_eq!(b.len(), len);
            assert_eq!(b.as_ptr() as usize % 64, 0);
            if len * 64 >= HUGE_PAGE {
                assert_eq!(
                    b.as_ptr() as usize % HUGE_PAGE,
                    0,
                    "a large table starts on a huge-page boundary"
                );
            }
            assert!(b.iter().step_by(97).all(|x| x.words.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
            b[len - 1].words[7].store(5, Ordering::Relaxed);
            *b[0].words[0].get_mut() = 9;
            assert_eq!(
                b[len - 1].words[7].load(Ordering::Relaxed) + b[0].words[0].load(Ordering::Relaxed),
                14
            );
        }
        assert_eq!(Buckets::empty().len(), 0);
    }

    #[test]
    fn only_tables_up_to_256_mib_are_advised_onto_huge_pages() {
        assert!(!advises_huge_pages(HUGE_PAGE - 64));
        assert!(advises_huge_pages(HUGE_PAGE));
        assert!(advises_huge_pages(256 << 20));
        assert!(!advises_huge_pages((256 << 20) + 64));
        assert!(!advises_huge_pages(21 << 30));
    }

    #[test]
    fn absurd_sizes_are_refused_not_aborted() {
        assert!(Buckets::zeroed(usize::MAX / 32).is_none());
    }
}
