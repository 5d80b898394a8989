// VIDIOC_QUERYCAP, kept out of the header: linux/videodev2.h is large and Swift needs one call of it.
#include <string.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

#include "CLinuxSupport.h"

int vigil_video_query_capability(int fd, struct vigil_video_capability *capability) {
    struct v4l2_capability raw;
    memset(&raw, 0, sizeof raw);
    if (ioctl(fd, VIDIOC_QUERYCAP, &raw) != 0) return -1;
    memset(capability, 0, sizeof *capability);
    // The kernel's strings are NUL-padded but need not end in NUL when full; one more byte here always does.
    memcpy(capability->driver, raw.driver, sizeof raw.driver);
    memcpy(capability->card, raw.card, sizeof raw.card);
    memcpy(capability->bus_info, raw.bus_info, sizeof raw.bus_info);
    capability->capabilities = raw.capabilities;
    capability->device_caps = raw.device_caps;
    return 0;
}
