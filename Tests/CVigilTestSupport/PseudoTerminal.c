// A pseudo-terminal for the tests: posix_openpt(3), grantpt(3), unlockpt(3) and ptsname_r(3) need _GNU_SOURCE.
#define _GNU_SOURCE 1

#include "CVigilTestSupport.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int vigil_test_open_pseudo_terminal(char *name, size_t capacity) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, capacity) != 0) {
        close(master);
        return -1;
    }
    return master;
}
