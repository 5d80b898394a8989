// Thread helpers that need _GNU_SOURCE, which Glibc's Swift module is built without; defined in VigilGNU.c.
#ifndef VIGIL_THREAD_H
#define VIGIL_THREAD_H

/// Names the calling thread (at most 15 bytes are kept), as shown in /proc/self/task/*/comm.
int vigil_set_thread_name(const char *name);

#endif
