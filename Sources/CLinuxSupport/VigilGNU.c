// The wrappers that need glibc's GNU extensions. _GNU_SOURCE is defined only in this file, never in a header
// Swift imports (see CLinuxSupport.h).
#define _GNU_SOURCE 1

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "CLinuxSupport.h"

int vigil_setns_network(int fd) { return setns(fd, CLONE_NEWNET); }

size_t vigil_ucred_size(void) { return sizeof(struct ucred); }

int vigil_cmsg_is_credentials(const struct cmsghdr *header) {
    return header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_CREDENTIALS &&
           header->cmsg_len >= CMSG_LEN(sizeof(struct ucred));
}

uint32_t vigil_cmsg_credentials_uid(struct cmsghdr *header) {
    struct ucred credentials;
    memcpy(&credentials, CMSG_DATA(header), sizeof credentials);
    return credentials.uid;
}

int vigil_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int vigil_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }
