// membarrier(2): the asymmetric fence the core's waits use, so the hot delivery loop needs no hardware fence of
// its own. syscall(2) is variadic and cannot be called from Swift, hence these wrappers.
#ifndef VIGIL_MEMBARRIER_H
#define VIGIL_MEMBARRIER_H

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Registers the process for private expedited barriers and runs one; returns 0 when both worked, -1 otherwise
/// (an old kernel, or a seccomp filter that refuses the call).
static inline int vigil_membarrier_setup(void) {
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return -1;
    return (int)syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

/// Runs a full memory barrier on every running thread of this process; 0 on success.
static inline int vigil_membarrier_private(void) {
    return (int)syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

#endif
