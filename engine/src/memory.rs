//! How much memory the machine has, for sizing the hash table (the platform layer, like Stockfish's
//! `memory.*`). Linux tells us through `/proc/meminfo`; elsewhere the answer is "unknown" and the caller
//! falls back to a conservative size, because the standard library has no portable query and a table larger
//! than the machine makes it swap until the engine loses on time.

/// What the operating system says about memory, in bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemInfo {
    /// Physical memory.
    pub total: u64,
    /// Memory a new allocation can use without swapping (Linux `MemAvailable`: free memory plus caches
    /// the kernel can drop).
    pub available: u64,
}

/// The machine's memory now, or `None` where it cannot be read (not Linux, or no `/proc`).
pub fn mem_info() -> Option<MemInfo> {
    #[cfg(target_os = "linux")]
    {
        std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| parse_meminfo(&text))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Reads `MemTotal` and `MemAvailable` out of `/proc/meminfo` text (lines like `MemAvailable: 123 kB`).
/// Kernels older than 3.14 have no `MemAvailable`; `MemFree` stands in for it, which underestimates.
pub fn parse_meminfo(text: &str) -> Option<MemInfo> {
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.split(':').next() == Some(name))?;
        let mut words = line.split(':').nth(1)?.split_whitespace();
        let n: u64 = words.next()?.parse().ok()?;
        let unit = match words.next() {
            Some(u) if u.eq_ignore_ascii_case("kb") => 1024,
            None => 1,
            Some(_) => return None,
        };
        n.checked_mul(unit)
    };
    let total = field("MemTotal")?;
    let available = field("MemAvailable").or_else(|| field("MemFree"))?;
    Some(MemInfo { total, available: available.min(total) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_total_and_available() {
        let text = "MemTotal:       24576000 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n\
                    Buffers:          100 kB\n";
        assert_eq!(
            parse_meminfo(text),
            Some(MemInfo { total: 24_576_000 * 1024, available: 20_000_000 * 1024 })
        );
    }

    #[test]
    fn old_kernels_fall_back_to_free_memory_and_garbage_is_none() {
        let text = "MemTotal: 2048 kB\nMemFree: 1024 kB\n";
        assert_eq!(parse_meminfo(text), Some(MemInfo { total: 2048 * 1024, available: 1024 * 1024 }));
        assert_eq!(parse_meminfo(""), None);
        assert_eq!(parse_meminfo("MemTotal: lots kB\nMemAvailable: 1 kB"), None);
        assert_eq!(parse_meminfo("MemTotal: 1 MB\nMemAvailable: 1 kB"), None);
    }

    #[test]
    fn this_machine_answers_on_linux() {
        let info = mem_info();
        if cfg!(target_os = "linux") {
            let info = info.expect("/proc/meminfo");
            assert!(info.total > 0 && info.available <= info.total);
        }
    }
}
