//! The binary's allocator: mimalloc, counting the bytes its allocations hold.
//!
//! mimalloc, not the system allocator: records files are read as many small strings and vectors
//! (`oh7 stats` 20-25% faster), and the server's messages are the same shape. Counted: the
//! server's metrics show the bytes held (`oh7_heap_bytes`), which tells a leak from the
//! allocator keeping freed pages.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicIsize, AtomicUsize};

use mimalloc::MiMalloc;

/// Counters whose sum is the bytes the program's allocations hold now: each thread adds to its
/// own (one counter shared by every thread was a tenth of a records merge's time, its cache
/// line passed between the cores at every allocation). A block freed on another thread than
/// the one that allocated it leaves one counter above and another below: only the sum means
/// anything.
static HELD: [Counter; COUNTERS] = [const { Counter(AtomicIsize::new(0)) }; COUNTERS];
const COUNTERS: usize = 16;

/// One counter, alone on its cache lines.
#[repr(align(128))]
struct Counter(AtomicIsize);

/// The next thread's counter.
static NEXT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's counter (`usize::MAX` until its first allocation). A `const` thread-local
    /// of a type without `Drop`: reaching it allocates nothing.
    static MINE: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// This thread's counter.
fn mine() -> &'static AtomicIsize {
    let i = MINE
        .try_with(|m| {
            if m.get() == usize::MAX {
                m.set(NEXT.fetch_add(1, Relaxed) % COUNTERS);
            }
            m.get()
        })
        .unwrap_or(0);
    &HELD[i].0
}

fn add(n: usize) {
    mine().fetch_add(n as isize, Relaxed);
}

fn sub(n: usize) {
    mine().fetch_sub(n as isize, Relaxed);
}

/// mimalloc, with [`HELD`] kept up to date (one relaxed atomic add to the thread's counter per
/// allocation and per free).
pub(crate) struct Counting;

// SAFETY: every call is mimalloc's, with the caller's arguments; the count is a side note.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `GlobalAlloc::alloc`'s, passed on.
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with `layout` (the caller's contract).
        unsafe { MiMalloc.dealloc(ptr, layout) };
        sub(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `dealloc`, and `new_size` per `GlobalAlloc::realloc`'s contract.
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            let c = mine();
            c.fetch_add(new_size as isize - layout.size() as isize, Relaxed);
        }
        p
    }
}

/// [`HELD`] summed (the server's metrics).
pub(crate) fn held() -> usize {
    HELD.iter().map(|c| c.0.load(Relaxed)).sum::<isize>().max(0) as usize
}

#[cfg(test)]
mod tests {
    use super::held;

    /// Held bytes are counted whichever threads allocate and free them: a block made on one
    /// thread and freed on another leaves the sum where it was.
    #[test]
    fn held_counts_blocks_across_threads() {
        const MB: usize = 1 << 20;
        let before = held();
        let block = std::thread::spawn(|| vec![1u8; 64 * MB]).join().unwrap();
        let during = held();
        // Other tests allocate meanwhile, but not 64 MB at once.
        assert!(during >= before + 32 * MB, "{before} then {during}");
        std::thread::spawn(move || drop(block)).join().unwrap();
        assert!(held() + 32 * MB <= during, "{during} then {}", held());
    }
}
