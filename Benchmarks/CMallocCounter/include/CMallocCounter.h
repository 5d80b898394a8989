// Counts heap allocations made by this process while counting is on, by
// interposing malloc and its siblings (the executable's definitions win over
// glibc's), which then forward to glibc's own __libc_* entry points.
#ifndef VIGIL_MALLOC_COUNTER_H
#define VIGIL_MALLOC_COUNTER_H

/// Turns counting on (non-zero) or off.
void vigil_malloc_counting(int enabled);

/// The number of allocations counted so far.
unsigned long vigil_malloc_count(void);

/// Bytes the allocator has handed out and not taken back (mallinfo2's uordblks plus mmapped blocks).
unsigned long vigil_heap_bytes_in_use(void);

#endif
