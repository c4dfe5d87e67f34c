//! The rules module's memory allocator: blocks of power-of-two sizes, a free list for each size,
//! carved from memory the module grows at its end. It is a fifth of the size of Rust's standard wasm
//! allocator (dlmalloc), which counts in the module the page downloads before its first move; it
//! gives no memory back and rounds sizes up, which suits a page's game of chess. The engine's module
//! keeps the standard allocator.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32::{memory_grow, memory_size};
use core::cell::UnsafeCell;
use core::ptr::null_mut;

/// WebAssembly's page, the unit memory grows by.
const PAGE: usize = 65_536;
/// The smallest block: 16 bytes (2⁴), room for the free list's link and most small strings.
const MIN_CLASS: u32 = 4;

/// Free blocks of each size class (by its power of two; 0 ends a list), and the unused memory
/// `next..end` at the end of the module's memory.
struct Heap {
    free: [usize; 32],
    next: usize,
    end: usize,
}

/// The allocator; one static instance is the global allocator of the rules module.
pub struct SizeClasses(UnsafeCell<Heap>);

// SAFETY: the module runs on one thread (wasm32 without threads), so no two calls overlap.
unsafe impl Sync for SizeClasses {}

impl SizeClasses {
    /// An allocator that has handed out nothing yet.
    pub const fn new() -> SizeClasses {
        SizeClasses(UnsafeCell::new(Heap { free: [0; 32], next: 0, end: 0 }))
    }
}

/// The size class of `layout`: the power of two of its block, which is at least as large as its
/// size and its alignment. `None` for sizes past 2³¹, which wasm32 cannot hold, and for alignments
/// past a page, which blocks do not keep (nothing asks for them).
fn class(layout: Layout) -> Option<u32> {
    if layout.align() > PAGE {
        return None;
    }
    let size = layout.size().max(layout.align()).max(1 << MIN_CLASS);
    Some(size.checked_next_power_of_two()?.trailing_zeros())
}

unsafe impl GlobalAlloc for SizeClasses {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class(layout) else { return null_mut() };
        // SAFETY: one thread, and no reference to the heap outlives a call.
        let heap = unsafe { &mut *self.0.get() };
        let head = heap.free[class as usize];
        if head != 0 {
            // SAFETY: a free block holds the address of the next free block of its class.
            heap.free[class as usize] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        if heap.end == 0 {
            // Memory before the current end belongs to the stack and static data.
            heap.end = memory_size(0) * PAGE;
            heap.next = heap.end;
        }
        // A block starts at a multiple of its size (of a page for larger ones), so it is aligned.
        let size = 1usize << class;
        let align = size.min(PAGE);
        let start = (heap.next + align - 1) & !(align - 1);
        let Some(stop) = start.checked_add(size) else { return null_mut() };
        if stop > heap.end {
            let pages = (stop - heap.end).div_ceil(PAGE);
            if memory_grow(0, pages) == usize::MAX {
                return null_mut();
            }
            heap.end += pages * PAGE;
        }
        heap.next = stop;
        start as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(class) = class(layout) else { return };
        // SAFETY: one thread; `ptr` is a block of this class that is no longer used, at least 16 bytes.
        unsafe {
            let heap = &mut *self.0.get();
            *(ptr as *mut usize) = heap.free[class as usize];
            heap.free[class as usize] = ptr as usize;
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY (all three calls): as GlobalAlloc::realloc's contract promises of `ptr` and `layout`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // The same class: the block already has room for the new size.
        let new_class = class(new_layout);
        if new_class.is_some() && new_class == class(layout) {
            return ptr;
        }
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            unsafe {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}
