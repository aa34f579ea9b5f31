//! The cores' allocator: Talc over an arena in the module's own initial memory, growing the
//! WebAssembly memory only past it.
//!
//! Rust's default allocator on wasm32 (dlmalloc) grows the memory on its first allocation and
//! whenever it wants more, and a grow detaches the memory's old `ArrayBuffer`. In V8 (Chromium,
//! Node) the first detach in an isolate falls its "array buffer detaching" protector for good:
//! from then on every typed-array access in that worker's optimised JavaScript checks for a
//! detached buffer. The JavaScript implementations timed in the same worker (noble, modules of
//! yours) then ran 15–20 % slower than in a plain loop (README, "Is the engine fair to
//! JavaScript?"). With the arena, a run whose payloads fit in it never grows the memory.
//!
//! The allocator is single-threaded wasm32's only (the cores' builds); elsewhere the system
//! allocator stays and only [`ARENA_BYTES`] is here (the engine reads it through the cores'
//! `arenaBytes()` to tell whether a run will outgrow the arena).
#![no_std]

/// Room for a run's 1 MiB groups of the quick preset's algorithms (a worker holds every case of a size at
/// once, the A/A twin too: about 25 MiB for decrypt, three payloads each) and for one 4 MiB payload. A group of the
/// standard preset at 4 MiB does not fit: the memory grows then, as before, so the engine
/// (worker/api.ts outgrowsArena) detaches a buffer before such a run times anything, and all its
/// cases pay the checks alike rather than only those after the grow. Zero-initialised, so it costs the `.wasm` file nothing, and
/// pages the engine never touches cost no physical memory.
pub const ARENA_BYTES: usize = 32 << 20;

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod arena {
    use super::ARENA_BYTES;
    use core::alloc::Layout;
    use core::mem::MaybeUninit;
    use talc::base::{Talc, binning::Binning};
    use talc::cell::TalcSyncCell;
    use talc::source::Source;
    use talc::wasm::WasmBinning;

    static mut ARENA: [MaybeUninit<u8>; ARENA_BYTES] = [MaybeUninit::uninit(); ARENA_BYTES];

    const PAGE_BYTES: usize = 64 << 10;

    /// First the arena, then (a payload larger than it) memory grown for the allocation asked.
    #[derive(Debug)]
    pub struct ArenaThenGrow {
        arena_claimed: bool,
    }

    // SAFETY: `acquire` hands Talc only memory nothing else uses: the arena, which only this
    // allocator names, and pages just grown; it allocates nothing itself.
    unsafe impl Source for ArenaThenGrow {
        fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
            if !talc.source.arena_claimed {
                talc.source.arena_claimed = true;
                // SAFETY: see above; claimed once.
                if unsafe { talc.claim((&raw mut ARENA).cast(), ARENA_BYTES) }.is_some() {
                    return Ok(());
                }
            }
            // The allocation, its alignment and a page for Talc's own bookkeeping.
            let pages = (layout.size() + layout.align()).div_ceil(PAGE_BYTES) + 1;
            let previous = core::arch::wasm32::memory_grow(0, pages);
            if previous == usize::MAX {
                return Err(());
            }
            // SAFETY: the pages were just grown and belong to nothing else.
            unsafe { talc.claim((previous * PAGE_BYTES) as *mut u8, pages * PAGE_BYTES) }
                .map(|_| ())
                .ok_or(())
        }
    }

    #[global_allocator]
    static HEAP: TalcSyncCell<ArenaThenGrow, WasmBinning> = TalcSyncCell::new_wasm(ArenaThenGrow {
        arena_claimed: false,
    });
}
