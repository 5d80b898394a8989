#include "VigilCallbackDepth.h"

__thread unsigned vigil_callback_depth_storage = 0;
