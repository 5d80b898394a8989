// A progress counter that one thread advances and others sleep on (a futex), for the core's two waits: a publisher
// waiting, bounded, for its queued value, and disposeAndWait() waiting for a callback running on another thread.
#ifndef VIGIL_PROGRESS_H
#define VIGIL_PROGRESS_H

#include <stdint.h>

typedef struct {
    /// The futex word waiters sleep on: advanced by the one thread that delivers, or by vigil_progress_wake_waiters.
    uint32_t count;
    /// How many threads are registered to be woken.
    uint32_t waiters;
} vigil_progress;

/// Wakes every thread sleeping on `progress`; defined in VigilProgress.c.
void vigil_progress_wake(vigil_progress *progress);

/// Sleeps while the count still equals `seen`, at most `timeout_ns` nanoseconds (negative: no limit), or until
/// woken. Returns at once if the count already moved on. Defined in VigilProgress.c.
void vigil_progress_sleep(vigil_progress *progress, uint32_t seen, int64_t timeout_ns);

/// The current count.
static inline uint32_t vigil_progress_load(vigil_progress *progress) {
    return __atomic_load_n(&progress->count, __ATOMIC_ACQUIRE);
}

/// Advances the count and wakes the registered waiters, if any. Only the thread that currently delivers calls it.
///
/// `fenced` is set where membarrier(2) is unavailable: the full fence then orders the store before the load of the
/// waiter count, which the waiters' membarrier does otherwise.
static inline void vigil_progress_advance(vigil_progress *progress, int fenced) {
    __atomic_store_n(&progress->count, __atomic_load_n(&progress->count, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
    if (fenced) __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&progress->waiters, __ATOMIC_RELAXED) != 0) vigil_progress_wake(progress);
}

/// Wakes the registered waiters, if any, after the caller's stores (a round's end, giving up the role) that they
/// wait for; any thread may call it, so the count moves by an atomic add (never back, never lost). `fenced` as for
/// vigil_progress_advance.
static inline void vigil_progress_wake_waiters(vigil_progress *progress, int fenced) {
    if (fenced) __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&progress->waiters, __ATOMIC_RELAXED) == 0) return;
    __atomic_add_fetch(&progress->count, 1, __ATOMIC_RELEASE);
    vigil_progress_wake(progress);
}

/// Registers the calling thread as a waiter; pair with vigil_progress_remove_waiter.
static inline void vigil_progress_add_waiter(vigil_progress *progress) {
    __atomic_add_fetch(&progress->waiters, 1, __ATOMIC_SEQ_CST);
}

static inline void vigil_progress_remove_waiter(vigil_progress *progress) {
    __atomic_sub_fetch(&progress->waiters, 1, __ATOMIC_SEQ_CST);
}

/// One pause in a spin-wait.
static inline void vigil_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
