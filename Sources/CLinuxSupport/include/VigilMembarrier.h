// membarrier(2): the asymmetric fence the core's dispose path uses, so the hot
// delivery loop needs no hardware fence of its own. syscall(2) is variadic and
// cannot be called from Swift, hence these wrappers.
#ifndef VIGIL_MEMBARRIER_H
#define VIGIL_MEMBARRIER_H

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Registers the process for private expedited barriers; returns 0 on success, -1 with errno otherwise.
static inline int vigil_membarrier_register(void) {
    return (int)syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
}

/// Runs a full memory barrier on every running thread of this process; 0 on success.
static inline int vigil_membarrier_private(void) {
    return (int)syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

/// Runs a full memory barrier on every running thread of the system (slower fallback); 0 on success.
static inline int vigil_membarrier_global(void) {
    return (int)syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
}

#endif
