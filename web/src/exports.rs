//! The wasm module's interface (`wasm32` only), numbers only so that no bindings generator is needed.
//!
//! Imported from the host (module `env`):
//! * `chuhan_write_line(ptr, len)`: one line the engine writes (UTF-8, no line end), valid during the call;
//! * `chuhan_now_ms() -> f64`: a monotonic millisecond clock (`performance.now()`);
//! * `chuhan_interrupt(wait_ms) -> 0|1|2`: polled by a running search: 1 for `stop`, 2 for `ponderhit`,
//!   0 for nothing, waiting up to `wait_ms` for one ([`engine::search::interrupt`]).
//!
//! Exported:
//! * `chuhan_interruptible()`: the host delivers `stop` and `ponderhit` through `chuhan_interrupt`
//!   during a search, so infinite and pondering searches need no time cap; called before the first
//!   `chuhan_send`;
//! * `chuhan_input(len) -> ptr`: room for `len` bytes of input; the host writes its UTF-8 text there;
//! * `chuhan_send(len) -> 0|1`: the engine reads those `len` bytes as lines (1: `quit` came);
//! * `chuhan_referee(len) -> n`: the rules service answers the request in the input ([`crate::referee`]);
//!   its `n` bytes of JSON are at `chuhan_answer()` until the next call.

use crate::driver::Driver;
use engine::search::interrupt::Interrupt;
use std::cell::{Cell, RefCell};
use std::io::Write;

#[link(wasm_import_module = "env")]
extern "C" {
    fn chuhan_write_line(ptr: *const u8, len: usize);
    fn chuhan_now_ms() -> f64;
    fn chuhan_interrupt(wait_ms: f64) -> u32;
}

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static DRIVER: RefCell<Option<Driver>> = const { RefCell::new(None) };
    static INTERRUPTIBLE: Cell<bool> = const { Cell::new(false) };
}

fn now_ms() -> f64 {
    // SAFETY: an imported host function taking no arguments; it only reads the host's clock.
    unsafe { chuhan_now_ms() }
}

fn interrupt(wait_ms: f64) -> Interrupt {
    // SAFETY: an imported host function taking a number; it only reads memory the page shares with it
    // (and may wait on it), never this module's memory.
    match unsafe { chuhan_interrupt(wait_ms) } {
        1 => Interrupt::Stop,
        2 => Interrupt::Ponderhit,
        _ => Interrupt::None,
    }
}

/// The engine's output: bytes gathered into lines, each handed to the host whole.
#[derive(Default)]
struct HostLines {
    pending: Vec<u8>,
}

impl Write for HostLines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                // SAFETY: the pointer and length describe `pending`, alive and unchanged during the call;
                // the host copies the bytes out before it returns and keeps no pointer.
                unsafe { chuhan_write_line(self.pending.as_ptr(), self.pending.len()) };
                self.pending.clear();
            } else {
                self.pending.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Room for `len` bytes of input; the host writes its text there before `chuhan_send` or
/// `chuhan_referee`.
#[no_mangle]
pub extern "C" fn chuhan_input(len: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// The host will deliver `stop` and `ponderhit` to running searches (before the first `chuhan_send`).
#[no_mangle]
pub extern "C" fn chuhan_interruptible() {
    INTERRUPTIBLE.with(|on| on.set(true));
}

/// The first `len` bytes of the input, as lines for the engine. Returns 1 once `quit` has come.
#[no_mangle]
pub extern "C" fn chuhan_send(len: usize) -> u32 {
    engine::clock::set_source(now_ms);
    engine::search::interrupt::set_source(interrupt);
    let bytes = INPUT.with(|input| {
        let input = input.borrow();
        input[..len.min(input.len())].to_vec()
    });
    DRIVER.with(|driver| {
        let mut driver = driver.borrow_mut();
        let driver = driver.get_or_insert_with(|| {
            let interruptible = INTERRUPTIBLE.with(Cell::get);
            Driver::new(HostLines::default(), interruptible)
        });
        u32::from(driver.send(&bytes))
    })
}

/// Answers the rules request in the first `len` bytes of the input; returns the answer's length.
#[no_mangle]
pub extern "C" fn chuhan_referee(len: usize) -> usize {
    let request = INPUT.with(|input| {
        let input = input.borrow();
        String::from_utf8_lossy(&input[..len.min(input.len())]).into_owned()
    });
    let json = crate::referee::answer(&request);
    ANSWER.with(|answer| {
        let mut answer = answer.borrow_mut();
        *answer = json.into_bytes();
        answer.len()
    })
}

/// Where the last rules answer lies (valid until the next `chuhan_referee`).
#[no_mangle]
pub extern "C" fn chuhan_answer() -> *const u8 {
    ANSWER.with(|answer| answer.borrow().as_ptr())
}
