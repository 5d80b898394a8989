#include "VigilLock.h"
#include "VigilMembarrier.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { spin_limit = 100 };

int vigil_lock_asymmetric = 0;

/// Whether membarrier(2) worked when the process decided.
static int membarrier_works = 0;

static pthread_once_t prepared = PTHREAD_ONCE_INIT;

static void decide(void) {
    membarrier_works = vigil_membarrier_setup() == 0;
    __atomic_store_n(&vigil_lock_asymmetric, membarrier_works, __ATOMIC_RELAXED);
}

void vigil_lock_prepare(void) {
    pthread_once(&prepared, decide);
}

void vigil_lock_force_fallback(int fallback) {
    vigil_lock_prepare();
    __atomic_store_n(&vigil_lock_asymmetric, membarrier_works && !fallback, __ATOMIC_RELAXED);
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline int try_lock(vigil_lock_word *lock) {
    uint32_t expected = 0;
    return __atomic_load_n(&lock->state, __ATOMIC_RELAXED) == 0 &&
           __atomic_compare_exchange_n(&lock->state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void vigil_lock_slow(vigil_lock_word *lock) {
    // Spin briefly: critical sections here are a few dozen instructions, so the holder usually releases soon.
    for (int spin = 0; spin < spin_limit; spin++) {
        cpu_relax();
        if (try_lock(lock)) return;
    }
    // Register, then make sure an unlocker either sees the registration or its release is visible here (see the
    // header); registered until the lock is taken, so every release meanwhile wakes a waiter. The barrier runs
    // whatever the flag says, so unlockers that read the flag before or after a change are covered alike.
    __atomic_add_fetch(&lock->waiters, 1, __ATOMIC_SEQ_CST);
    if (!membarrier_works || vigil_membarrier_private() != 0) __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (!try_lock(lock)) {
        // Sleeps only while the lock is still held; a release in between makes it return at once.
        syscall(SYS_futex, &lock->state, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
    }
    __atomic_sub_fetch(&lock->waiters, 1, __ATOMIC_SEQ_CST);
}

void vigil_unlock_slow(vigil_lock_word *lock) {
    syscall(SYS_futex, &lock->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
