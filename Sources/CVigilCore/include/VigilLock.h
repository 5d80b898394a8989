// A small futex mutex for the package's `FutexMutex` (Drepper, "Futexes Are Tricky", mutex 2): one compare-and-swap to
// lock and one exchange to unlock when uncontended; under contention a short spin, then FUTEX_WAIT on a private,
// non-PI futex. Swift's own Mutex on Linux uses priority-inheritance futexes, which hand every contended lock over
// through the kernel, and it is invisible to ThreadSanitizer; these __atomic operations are visible to it.
#ifndef VIGIL_LOCK_H
#define VIGIL_LOCK_H

#include <stdint.h>

/// Waits for the lock after the fast path failed; defined in VigilLock.c.
void vigil_lock_slow(uint32_t *word);

/// Wakes one waiter; defined in VigilLock.c.
void vigil_unlock_slow(uint32_t *word);

/// Acquires the lock whose word is `word` (0 unlocked, 1 locked, 2 locked with waiters).
static inline void vigil_lock(uint32_t *word) {
    uint32_t expected = 0;
    if (__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    vigil_lock_slow(word);
}

/// The owner word a debug build keeps beside the lock, to trap on recursive locking: read and written relaxed.
static inline uintptr_t vigil_lock_owner(uintptr_t *owner) { return __atomic_load_n(owner, __ATOMIC_RELAXED); }

static inline void vigil_lock_set_owner(uintptr_t *owner, uintptr_t thread) {
    __atomic_store_n(owner, thread, __ATOMIC_RELAXED);
}

/// Releases the lock, waking one waiter if any sleeps.
static inline void vigil_unlock(uint32_t *word) {
    if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2) vigil_unlock_slow(word);
}

#endif
