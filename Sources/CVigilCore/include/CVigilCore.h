// The reactive core's own C: its lock, the asymmetric fence, the progress words threads wait on, and the
// per-thread "inside a callback" depth and modify scope. Nothing of netlink, epoll or the sensors lives here.
#ifndef VIGIL_CORE_H
#define VIGIL_CORE_H

#include "VigilCallbackDepth.h"
#include "VigilLock.h"
#include "VigilMembarrier.h"
#include "VigilModifyScope.h"
#include "VigilProgress.h"

#endif
