// A small futex mutex for the package's `FutexMutex`: one compare-and-swap to lock and, where membarrier(2) works, a
// plain store to unlock when uncontended; under contention a short spin, then FUTEX_WAIT on a private, non-PI futex.
// Swift's own Mutex on Linux uses priority-inheritance futexes, which hand every contended lock over through the
// kernel, and it is invisible to ThreadSanitizer; these __atomic operations are visible to it.
//
// Waiters count themselves in `waiters`, apart from the lock's state, and the unlocker wakes one when the count is
// not zero. The unlocker's store of the state and its load of the count would need a full fence between them (a
// waiter registering just then could otherwise sleep through the release); instead, as the subjects' waits do, the
// waiter pays: it registers, then runs membarrier(2), which executes a full barrier on every running thread of the
// process. Afterwards either the unlocker's store is visible to the waiter (which then takes the lock) or the
// unlocker's later load sees the registration (and wakes it). Where membarrier(2) is unavailable, the unlocker uses a
// full fence instead. So the uncontended unlock is a plain store: the exchange it replaced was a third of the cost
// of a publish (perf annotate of `fanout.publish.immediate`).
#ifndef VIGIL_LOCK_H
#define VIGIL_LOCK_H

#include <stdint.h>

typedef struct {
    /// 0 unlocked, 1 locked.
    uint32_t state;
    /// How many threads are registered to be woken when the lock is released.
    uint32_t waiters;
} vigil_lock_word;

/// Whether unlocking may rely on the waiters' membarrier(2); set by vigil_lock_prepare before any lock exists.
extern int vigil_lock_asymmetric;

/// Decides, once per process, whether locks rely on membarrier(2); call before creating a lock. Defined in
/// VigilLock.c.
void vigil_lock_prepare(void);

/// Makes unlocking use a full fence (nonzero) or rely on membarrier(2) again where it works (zero), so tests can
/// check both paths; safe while locks are in use, because waiters run the barrier whatever the flag says.
void vigil_lock_force_fallback(int fallback);

/// Waits for the lock after the fast path failed; defined in VigilLock.c.
void vigil_lock_slow(vigil_lock_word *lock);

/// Wakes one waiter; defined in VigilLock.c.
void vigil_unlock_slow(vigil_lock_word *lock);

/// Acquires the lock.
static inline void vigil_lock(vigil_lock_word *lock) {
    uint32_t expected = 0;
    if (__atomic_compare_exchange_n(&lock->state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    vigil_lock_slow(lock);
}

/// The owner word a debug build keeps beside the lock, to trap on recursive locking: read and written relaxed.
static inline uintptr_t vigil_lock_owner(uintptr_t *owner) { return __atomic_load_n(owner, __ATOMIC_RELAXED); }

static inline void vigil_lock_set_owner(uintptr_t *owner, uintptr_t thread) {
    __atomic_store_n(owner, thread, __ATOMIC_RELAXED);
}

/// Releases the lock, waking one waiter if any is registered.
static inline void vigil_unlock(vigil_lock_word *lock) {
    __atomic_store_n(&lock->state, 0, __ATOMIC_RELEASE);
    if (!__atomic_load_n(&vigil_lock_asymmetric, __ATOMIC_RELAXED)) __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&lock->waiters, __ATOMIC_RELAXED) != 0) vigil_unlock_slow(lock);
}

#endif
