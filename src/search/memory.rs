//! Large arrays read at random, backed by huge pages where the system grants them. The
//! solvers' tables (and the Kalah endgame database) are probed once per node: with 4 KiB
//! pages nearly every probe also misses the address-translation cache, and the page walk
//! costs as much as the probe itself.

use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};

/// Types whose all-zero bytes are a valid value: the arrays are allocated zeroed, which
/// the system does as their pages are first touched, rather than written zero by zero.
///
/// # Safety
/// The all-zero bit pattern must be a valid value of the type.
pub unsafe trait Zeroed {}

// SAFETY: an atomic integer of zero bits is the value 0.
unsafe impl Zeroed for std::sync::atomic::AtomicU8 {}

/// `len` zero values, in memory advised to use huge pages before it is first touched.
pub fn zeroed<T: Zeroed>(len: usize) -> Vec<T> {
    let layout = Layout::array::<T>(len).expect("an array the address space holds");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout is not empty; zero bytes are a valid `T` (the `Zeroed` contract).
    let start = unsafe { alloc_zeroed(layout) };
    if start.is_null() {
        handle_alloc_error(layout);
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let aligned = (start as usize).next_multiple_of(PAGE);
        let end = (start as usize + layout.size()) / PAGE * PAGE;
        if end > aligned {
            // SAFETY: the range lies within the allocation just made, none of it in use
            // yet; the advice changes only how its pages are backed, not their contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    end - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    // SAFETY: allocated by the global allocator with `T`'s array layout of `len`, and
    // every element initialised (zero, a valid `T`).
    unsafe { Vec::from_raw_parts(start.cast(), len, len) }
}

/// Asks the processor to bring `item`'s cache line in ahead of its read: a node looks up
/// each of its children, and their misses then overlap instead of following each other.
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints the cache; `item` is a valid reference besides.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
