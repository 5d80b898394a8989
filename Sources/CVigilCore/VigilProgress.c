#include "VigilProgress.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void vigil_progress_wake(vigil_progress *progress) {
    syscall(SYS_futex, &progress->count, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

void vigil_progress_sleep(vigil_progress *progress, uint32_t seen, int64_t timeout_ns) {
    if (timeout_ns < 0) {
        syscall(SYS_futex, &progress->count, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
        return;
    }
    struct timespec timeout = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
    syscall(SYS_futex, &progress->count, FUTEX_WAIT_PRIVATE, seen, &timeout, NULL, 0);
}
