//! Large arrays read at random, backed by huge pages where the system grants them. The
//! solvers' tables (and the Kalah endgame database) are probed once per node: with 4 KiB
//! pages nearly every probe also misses the address-translation cache, and the page walk
//! costs as much as the probe itself.

use std::ops::Deref;
use std::ptr::NonNull;

/// Types whose all-zero bytes are a valid value: the arrays are mapped zeroed, which the
/// system does as their pages are first touched, rather than written zero by zero.
///
/// # Safety
/// The all-zero bit pattern must be a valid value of the type.
pub unsafe trait Zeroed {}

// SAFETY: an atomic integer of zero bits is the value 0.
unsafe impl Zeroed for std::sync::atomic::AtomicU8 {}

/// An array that could not be had: more bytes than the system would map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {bytes} bytes of memory")]
pub struct OutOfMemory {
    pub bytes: usize,
}

/// The size of a huge page: the array starts on one, so that all of it may be backed by
/// them (an allocator's block starts anywhere, and its first and last partial huge pages
/// are not).
const HUGE_PAGE: usize = 2 << 20;

/// A fixed array of values that start zero, mapped straight from the system: untouched
/// until used, aligned to a huge page and advised to use them. (The allocator zeroes a
/// block aligned to more than 16 bytes itself, touching every page before any advice.)
pub struct ZeroedArray<T> {
    start: NonNull<T>,
    len: usize,
    /// Bytes mapped from `start`'s mapping's base, and that base: what is unmapped.
    mapped: usize,
    base: *mut u8,
}

// SAFETY: the array owns its values as a `Vec` would.
unsafe impl<T: Send> Send for ZeroedArray<T> {}
// SAFETY: as above: shared references give only `&[T]`.
unsafe impl<T: Sync> Sync for ZeroedArray<T> {}

impl<T> ZeroedArray<T> {
    /// `len` zero values, or [`OutOfMemory`] if the system will not map that many.
    pub fn new(len: usize) -> Result<ZeroedArray<T>, OutOfMemory>
    where
        T: Zeroed,
    {
        let out_of_memory = OutOfMemory {
            bytes: len.saturating_mul(size_of::<T>()),
        };
        assert!(
            align_of::<T>() <= HUGE_PAGE,
            "a huge page aligns every value"
        );
        let bytes = len
            .checked_mul(size_of::<T>())
            .and_then(|bytes| bytes.checked_next_multiple_of(HUGE_PAGE))
            .ok_or(out_of_memory)?;
        if bytes == 0 {
            return Ok(ZeroedArray {
                start: NonNull::dangling(),
                len,
                mapped: 0,
                base: std::ptr::null_mut(),
            });
        }
        let mapped = bytes.checked_add(HUGE_PAGE).ok_or(out_of_memory)?;
        let base = map(mapped).ok_or(out_of_memory)?;
        let start = base.wrapping_add(base.align_offset(HUGE_PAGE));
        #[cfg(target_os = "linux")]
        // SAFETY: the range lies within the mapping just made, none of it in use yet; the
        // advice changes only how its pages are backed, not their contents.
        unsafe {
            libc::madvise(start.cast(), bytes, libc::MADV_HUGEPAGE);
        }
        Ok(ZeroedArray {
            start: NonNull::new(start.cast()).expect("a mapping is never at address 0"),
            len,
            mapped,
            base,
        })
    }
}

impl<T> Deref for ZeroedArray<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` values from `start`, each initialised (zero bytes, a valid `T`),
        // within the mapping, which lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        if self.mapped > 0 {
            // SAFETY: the values are initialised and no longer referenced; then the whole
            // mapping made in `new` goes.
            unsafe {
                std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                    self.start.as_ptr(),
                    self.len,
                ));
                unmap(self.base, self.mapped);
            }
        }
    }
}

/// `bytes` zero bytes from the system, untouched, or `None`.
#[cfg(unix)]
fn map(bytes: usize) -> Option<*mut u8> {
    // SAFETY: a fresh private anonymous mapping, which the system gives zeroed.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    (base != libc::MAP_FAILED).then_some(base.cast())
}

/// # Safety
/// `base` and `bytes` must be a mapping made by [`map`], no longer used.
#[cfg(unix)]
unsafe fn unmap(base: *mut u8, bytes: usize) {
    // SAFETY: the caller's contract.
    unsafe {
        libc::munmap(base.cast(), bytes);
    }
}

/// The allocator's zeroed memory, where there is no `mmap`.
#[cfg(not(unix))]
fn map(bytes: usize) -> Option<*mut u8> {
    let layout = std::alloc::Layout::from_size_align(bytes, HUGE_PAGE).ok()?;
    // SAFETY: `bytes` is not zero.
    let base = unsafe { std::alloc::alloc_zeroed(layout) };
    (!base.is_null()).then_some(base)
}

/// # Safety
/// `base` and `bytes` must be an allocation made by [`map`], no longer used.
#[cfg(not(unix))]
unsafe fn unmap(base: *mut u8, bytes: usize) {
    // SAFETY: the caller's contract: `map` allocated it with this layout.
    unsafe {
        std::alloc::dealloc(
            base,
            std::alloc::Layout::from_size_align_unchecked(bytes, HUGE_PAGE),
        );
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU8, Ordering};

    #[test]
    fn arrays_start_zero_on_a_huge_page_and_keep_what_is_written() {
        let array = ZeroedArray::<AtomicU8>::new(3 * HUGE_PAGE + 5).unwrap();
        assert_eq!(array.len(), 3 * HUGE_PAGE + 5);
        assert_eq!(array.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(array.iter().all(|value| value.load(Ordering::Relaxed) == 0));
        array[3 * HUGE_PAGE + 4].store(7, Ordering::Relaxed);
        assert_eq!(array[3 * HUGE_PAGE + 4].load(Ordering::Relaxed), 7);
        assert!(ZeroedArray::<AtomicU8>::new(0).unwrap().is_empty());
    }

    #[test]
    fn more_memory_than_the_system_maps_is_an_error() {
        // 2^60 bytes: more than any address space maps, refused rather than aborting.
        assert_eq!(
            ZeroedArray::<AtomicU8>::new(1 << 60).err(),
            Some(OutOfMemory { bytes: 1 << 60 })
        );
        assert!(ZeroedArray::<AtomicU8>::new(usize::MAX).is_err());
    }
}
