// Kernel interfaces that Glibc's Swift module does not import, and the C macros
// Swift cannot call, turned into static inline functions.
#ifndef VIGIL_CLINUXSUPPORT_H
#define VIGIL_CLINUXSUPPORT_H

// No _GNU_SOURCE here: Glibc's Swift module is built without it, and a header that sees glibc's declarations
// differently (fd_set's fields are named differently under _GNU_SOURCE, for one) makes the two modules clash. What
// needs _GNU_SOURCE is declared here and defined in VigilGNU.c.

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#include <sys/uio.h>
#include <net/if.h>
#include <linux/if_addr.h>
#include <linux/input.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rfkill.h>
#include <linux/rtnetlink.h>

#include "VigilGzip.h"
#include "VigilThread.h"
#include "VigilTLS.h"
#include "VigilCrypt.h"

#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#endif

// MARK: errno

static inline int vigil_errno(void) { return errno; }
static inline void vigil_set_errno(int value) { errno = value; }

// MARK: netlink message macros (netlink(7))

static inline uint32_t vigil_nlmsg_align(uint32_t len) { return NLMSG_ALIGN(len); }
static inline uint32_t vigil_nlmsg_hdrlen(void) { return NLMSG_HDRLEN; }
static inline uint32_t vigil_nlmsg_length(uint32_t len) { return NLMSG_LENGTH(len); }
static inline uint32_t vigil_nlmsg_space(uint32_t len) { return NLMSG_SPACE(len); }
static inline void *vigil_nlmsg_data(struct nlmsghdr *header) { return NLMSG_DATA(header); }
static inline int vigil_nlmsg_ok(const struct nlmsghdr *header, int remaining) {
    return NLMSG_OK(header, remaining);
}
static inline struct nlmsghdr *vigil_nlmsg_next(struct nlmsghdr *header, int *remaining) {
    return NLMSG_NEXT(header, *remaining);
}

// MARK: rtnetlink attribute macros (rtnetlink(7))

static inline uint32_t vigil_rta_align(uint32_t len) { return RTA_ALIGN(len); }
static inline uint32_t vigil_rta_length(uint32_t len) { return RTA_LENGTH(len); }
static inline int vigil_rta_ok(const struct rtattr *attribute, int remaining) { return RTA_OK(attribute, remaining); }
static inline struct rtattr *vigil_rta_next(struct rtattr *attribute, int *remaining) {
    return RTA_NEXT(attribute, *remaining);
}
static inline void *vigil_rta_data(struct rtattr *attribute) { return RTA_DATA(attribute); }
static inline int vigil_rta_payload(const struct rtattr *attribute) { return (int)RTA_PAYLOAD(attribute); }

// MARK: control messages (cmsg(3))

static inline struct cmsghdr *vigil_cmsg_firsthdr(struct msghdr *message) { return CMSG_FIRSTHDR(message); }
static inline struct cmsghdr *vigil_cmsg_nxthdr(struct msghdr *message, struct cmsghdr *header) {
    return CMSG_NXTHDR(message, header);
}
static inline unsigned char *vigil_cmsg_data(struct cmsghdr *header) { return CMSG_DATA(header); }
static inline size_t vigil_cmsg_space(size_t len) { return CMSG_SPACE(len); }
static inline size_t vigil_cmsg_len(size_t len) { return CMSG_LEN(len); }

// MARK: netlink sockets (netlink(7), setns(2), unix(7) credentials)

/// Moves the calling thread into the network namespace `fd` refers to (`setns(fd, CLONE_NEWNET)`).
int vigil_setns_network(int fd);

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC: a GNU extension, so defined in VigilGNU.c.
int vigil_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length);
/// The size of `struct ucred`, the payload of an `SCM_CREDENTIALS` control message.
size_t vigil_ucred_size(void);
/// Whether `header` is an `SCM_CREDENTIALS` message long enough to hold a `struct ucred`.
int vigil_cmsg_is_credentials(const struct cmsghdr *header);
/// The sender's uid in an `SCM_CREDENTIALS` message (check ``vigil_cmsg_is_credentials`` first).
uint32_t vigil_cmsg_credentials_uid(struct cmsghdr *header);

// MARK: video4linux (VIDIOC_QUERYCAP, linux/videodev2.h; defined in VigilVideo.c so this header need not include it)

/// The fields of `struct v4l2_capability` the device inventory reads, each string NUL-terminated.
struct vigil_video_capability {
    char driver[17];
    char card[33];
    char bus_info[33];
    uint32_t capabilities;
    uint32_t device_caps;
};

/// Asks the video4linux node `fd` what it is (`ioctl(fd, VIDIOC_QUERYCAP, …)`); returns 0, or -1 with errno.
int vigil_video_query_capability(int fd, struct vigil_video_capability *capability);

// MARK: constants Swift imports poorly (enum-like macros with casts)

// send(2)'s flag that turns SIGPIPE into EPIPE (hidden from Swift's Glibc module).
static inline int vigil_msg_nosignal(void) { return MSG_NOSIGNAL; }
static inline uint32_t vigil_epollin(void) { return EPOLLIN; }
static inline uint32_t vigil_epollpri(void) { return EPOLLPRI; }
static inline uint32_t vigil_epollout(void) { return EPOLLOUT; }
static inline uint32_t vigil_epollerr(void) { return EPOLLERR; }
static inline uint32_t vigil_epollhup(void) { return EPOLLHUP; }
static inline uint32_t vigil_epollrdhup(void) { return EPOLLRDHUP; }

// MARK: evdev (linux/input.h): the ioctl numbers are function-like macros, and struct input_event's time fields
// depend on the word size and time_t, so events are decoded and encoded here.

/// `EVIOCGSW(length)`: reads the device's switch states as a bitmap of `length` bytes.
static inline unsigned long vigil_eviocgsw(unsigned int length) { return EVIOCGSW(length); }
/// `EVIOCSCLOCKID`: sets the clock of the event timestamps.
static inline unsigned long vigil_eviocsclockid(void) { return EVIOCSCLOCKID; }
/// The size of one `struct input_event` as read(2) returns it.
static inline size_t vigil_input_event_size(void) { return sizeof(struct input_event); }

/// Decodes the `struct input_event` at `bytes` (which need not be aligned).
static inline void vigil_input_event_decode(
    const void *bytes, int64_t *seconds, int64_t *microseconds, uint16_t *type, uint16_t *code, int32_t *value) {
    struct input_event event;
    memcpy(&event, bytes, sizeof event);
    *seconds = (int64_t)event.input_event_sec;
    *microseconds = (int64_t)event.input_event_usec;
    *type = event.type;
    *code = event.code;
    *value = event.value;
}

/// Encodes one `struct input_event` into the `vigil_input_event_size()` bytes at `bytes`.
static inline void vigil_input_event_encode(
    void *bytes, int64_t seconds, int64_t microseconds, uint16_t type, uint16_t code, int32_t value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.input_event_sec = seconds;
    event.input_event_usec = microseconds;
    event.type = type;
    event.code = code;
    event.value = value;
    memcpy(bytes, &event, sizeof event);
}

// MARK: rfkill (linux/rfkill.h)

/// `RFKILL_IOCTL_MAX_SIZE`: tells `/dev/rfkill` the largest event this reader understands (Linux 5.11 on).
static inline unsigned long vigil_rfkill_ioctl_max_size(void) { return RFKILL_IOCTL_MAX_SIZE; }

/// ioctl(2) with a pointer argument (Swift cannot call the variadic declaration).
static inline int vigil_ioctl_pointer(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

#endif
