// Descriptors for the tests that are close-on-exec from their creation: pipe2(2) and accept4(2) need _GNU_SOURCE.
#define _GNU_SOURCE 1

#include "CVigilTestSupport.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

int vigil_test_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

int vigil_test_accept(int listener) {
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC);
}
