//! Cooperative interruption of long native work (perft, whole games, agent searches).
//!
//! The bindings release the GIL for long loops, so Python cannot deliver Ctrl-C until they
//! return. Those loops call [`poll`] at every node or ply; every [`EVERY`] calls, and at most
//! every [`INTERVAL`], it asks the installed hook (the bindings re-acquire the GIL and run
//! `Python::check_signals`). Once the hook says stop, `poll` keeps returning `true` on this
//! thread, every loop unwinds with a partial result, and the bindings raise the Python error
//! instead of returning it. Without a hook (Rust tests, Rust callers) `poll` only counts.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// Calls of [`poll`] between two looks at the clock (cheap enough for perft's inner nodes).
pub const EVERY: u32 = 128;
/// Least time between two calls of the hook: the GIL is re-acquired at most this often.
pub const INTERVAL: Duration = Duration::from_millis(25);

thread_local! {
    static HOOK: Cell<Option<fn() -> bool>> = const { Cell::new(None) };
    static STOP: Cell<bool> = const { Cell::new(false) };
    static TICKS: Cell<u32> = const { Cell::new(0) };
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// True when the work on this thread should stop now (the hook asked for it, now or earlier).
#[inline]
pub fn poll() -> bool {
    if STOP.with(Cell::get) {
        return true;
    }
    let t = TICKS.with(|c| {
        let v = c.get().wrapping_add(1);
        c.set(v);
        v
    });
    if !t.is_multiple_of(EVERY) {
        return false;
    }
    let Some(hook) = HOOK.with(Cell::get) else {
        return false;
    };
    let now = Instant::now();
    if LAST.with(Cell::get).is_some_and(|last| now.duration_since(last) < INTERVAL) {
        return false;
    }
    LAST.with(|l| l.set(Some(now)));
    if hook() {
        STOP.with(|s| s.set(true));
        return true;
    }
    false
}

/// Whether the current guarded work was told to stop.
pub fn stopped() -> bool {
    STOP.with(Cell::get)
}

/// Run `f` on this thread with `hook` installed; returns its result and whether it was stopped.
/// The hook and the stop flag are cleared afterwards, so the next call starts fresh.
pub fn guarded<R>(hook: fn() -> bool, f: impl FnOnce() -> R) -> (R, bool) {
    struct Reset(Option<fn() -> bool>);
    impl Drop for Reset {
        fn drop(&mut self) {
            HOOK.with(|h| h.set(self.0));
            STOP.with(|s| s.set(false));
            LAST.with(|l| l.set(None));
        }
    }
    let previous = HOOK.with(|h| h.replace(Some(hook)));
    STOP.with(|s| s.set(false));
    LAST.with(|l| l.set(Some(Instant::now())));
    let _reset = Reset(previous);
    let out = f();
    (out, stopped())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    static CALLS: AtomicU32 = AtomicU32::new(0);

    fn stop_on_second_call() -> bool {
        CALLS.fetch_add(1, Ordering::SeqCst) >= 1
    }

    #[test]
    fn a_hook_stops_the_loop_and_is_cleared_afterwards() {
        let start = Instant::now();
        let (n, stopped) = guarded(stop_on_second_call, || {
            let mut n = 0u64;
            while !poll() {
                n += 1;
            }
            n
        });
        assert!(stopped && n > 0);
        assert!(start.elapsed() < Duration::from_secs(1));
        assert!(!poll() && !super::stopped(), "the flag does not outlive the guarded work");
    }

    #[test]
    fn without_a_hook_poll_never_stops() {
        assert!((0..10 * EVERY).all(|_| !poll()));
    }
}
