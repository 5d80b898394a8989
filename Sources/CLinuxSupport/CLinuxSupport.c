// The header holds everything as static inline functions; this file gives the
// target a translation unit of its own.
#include "CLinuxSupport.h"
