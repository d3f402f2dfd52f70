//! Large arrays read at random, backed by huge pages where the system grants them. The
//! solvers' tables (and the Kalah endgame database) are probed once per node: with 4 KiB
//! pages nearly every probe also misses the address-translation cache, and the page walk
//! costs as much as the probe itself.

/// `len` copies of `zero`, in memory advised to use huge pages before it is first touched.
pub fn zeroed<T>(len: usize, zero: impl Fn() -> T) -> Vec<T> {
    let mut values: Vec<T> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = values.as_mut_ptr() as usize;
        let aligned = start.next_multiple_of(PAGE);
        let end = (start + len * std::mem::size_of::<T>()) / PAGE * PAGE;
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
    values.resize_with(len, zero);
    values
}
