// What the tests need of glibc's GNU extensions, which Glibc's Swift module is built without; defined in
// ThreadPlacement.c, PseudoTerminal.c, SameFile.c and CloseOnExec.c. Only the tests link it.
#ifndef VIGIL_TEST_SUPPORT_H
#define VIGIL_TEST_SUPPORT_H

#include <stddef.h>

/// Writes the CPUs the calling thread may run on into `cpus` (at most `capacity`); returns how many, or -1.
int vigil_test_allowed_cpus(int *cpus, int capacity);

/// Pins the calling thread to `cpu`; returns 0, or -1 with errno set.
int vigil_test_pin_thread(int cpu);

/// The calling thread's kernel id (gettid(2)), as /proc/self/task names it.
int vigil_test_thread_id(void);

/// Opens a pseudo-terminal's master, unlocked, and writes its slave's path into `name`; returns the master, or -1.
int vigil_test_open_pseudo_terminal(char *name, size_t capacity);

/// Whether descriptors `first` and `second` of this process name the same open file (kcmp(2) with KCMP_FILE): 1 when
/// they do, 0 when they do not, -1 with errno set when either is closed or kcmp is unavailable.
int vigil_test_same_open_file(int first, int second);

/// Makes a pipe whose ends are close-on-exec from the start (pipe2(2) with O_CLOEXEC), so a child another thread spawns
/// meanwhile cannot inherit them; returns 0, or -1 with errno set.
int vigil_test_pipe(int ends[2]);

/// Accepts a connection on `listener`, close-on-exec from the start (accept4(2) with SOCK_CLOEXEC); returns its
/// descriptor, or -1 with errno set.
int vigil_test_accept(int listener);

#endif
