//! The search's threads: started once when the thread count changes, parked on a channel between
//! searches. A search hands each thread one task; a thread keeps nothing between tasks (the statistics it
//! learns travel with the task and come back with its result), so threads can be added or dropped at
//! any time the searcher is idle.
//!
//! Starting threads per search cost tens of microseconds per `go` and a thread creation that could fail
//! in the middle of a game; analysis GUIs and bullet games send thousands of short searches.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;

/// Stack size of a search thread: the recursion is up to `MAX_PLY` frames deep, each holding move lists.
/// In WebAssembly only the frames' arrays live on this stack (in the shared linear memory, which every
/// thread's stack and the hash table share within the browser's limit); the one-thread browser build
/// searches within the default 1 MiB, so 4 MiB leaves room.
const STACK_BYTES: usize = if cfg!(target_family = "wasm") { 4 << 20 } else { 32 << 20 };

/// Search threads ever started in this process (all pools), for tests and diagnostics.
static THREADS_STARTED: AtomicU64 = AtomicU64::new(0);

/// How many search threads this process has started so far (every searcher's pool together).
pub fn threads_started() -> u64 {
    THREADS_STARTED.load(Ordering::Relaxed)
}

/// One unit of work for a pool thread.
pub(super) type Task = Box<dyn FnOnce() + Send + 'static>;

struct PoolThread {
    tasks: Sender<Task>,
    handle: JoinHandle<()>,
}

/// Parked search threads, numbered from 0 (the main search thread).
#[derive(Default)]
pub(super) struct ThreadPool {
    threads: Vec<PoolThread>,
}

impl ThreadPool {
    /// Number of threads running.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// Makes the pool exactly `count` threads (at least one): starts the missing ones, ends the extra
    /// ones. Does nothing when the count is right. Fails when the system cannot start a thread; the threads
    /// that did start stay.
    pub fn resize(&mut self, count: usize) -> io::Result<()> {
        let count = count.max(1);
        while self.threads.len() > count {
            if let Some(t) = self.threads.pop() {
                // Closing its channel ends the thread's loop once its current task (if any) is done.
                drop(t.tasks);
                let _ = t.handle.join();
            }
        }
        while self.threads.len() < count {
            let id = self.threads.len();
            let (tasks, inbox) = mpsc::channel::<Task>();
            let handle = std::thread::Builder::new()
                .name(if id == 0 { "search-main".into() } else { format!("search-{id}") })
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    while let Ok(task) = inbox.recv() {
                        task();
                    }
                })?;
            THREADS_STARTED.fetch_add(1, Ordering::Relaxed);
            self.threads.push(PoolThread { tasks, handle });
        }
        Ok(())
    }

    /// Gives thread `id` a task. Hands the task back when that thread does not exist or has died.
    pub fn execute(&self, id: usize, task: Task) -> Result<(), Task> {
        match self.threads.get(id) {
            Some(t) => t.tasks.send(task).map_err(|e| e.0),
            None => Err(task),
        }
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        // Close every channel first, so the threads end together, then wait for them.
        let handles: Vec<JoinHandle<()>> = self.threads.drain(..).map(|t| t.handle).collect();
        for handle in handles {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_start_only_when_the_count_changes() {
        let mut pool = ThreadPool::default();
        pool.resize(2).expect("threads start");
        let (tx, rx) = mpsc::channel();
        for round in 0..50 {
            for id in 0..2 {
                let tx = tx.clone();
                let task: Task = Box::new(move || tx.send((round, id)).expect("receiver lives"));
                assert!(pool.execute(id, task).is_ok());
                pool.resize(2).expect("no change");
            }
        }
        assert_eq!(rx.iter().take(100).count(), 100);
        assert_eq!(pool.len(), 2);
        pool.resize(1).expect("shrinks");
        assert_eq!(pool.len(), 1);
        assert!(pool.execute(1, Box::new(|| {})).is_err());
    }
}
