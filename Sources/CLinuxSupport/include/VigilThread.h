// Thread helpers that need _GNU_SOURCE, which Glibc's Swift module is built without.
#ifndef VIGIL_THREAD_H
#define VIGIL_THREAD_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <pthread.h>

/// Names the calling thread (at most 15 bytes are kept), as shown in /proc/self/task/*/comm.
static inline int vigil_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

#endif
