// How many Vigil deliveries the calling thread is inside of: a publisher inside one never waits, and
// disposeAndWait() inside one never waits, so callbacks that publish into or dispose each other cannot deadlock.
#ifndef VIGIL_CALLBACK_DEPTH_H
#define VIGIL_CALLBACK_DEPTH_H

/// The calling thread's depth; defined in VigilCallbackDepth.c.
extern __thread unsigned vigil_callback_depth_storage;

/// Marks the calling thread as inside one more delivery.
static inline void vigil_callback_depth_enter(void) { vigil_callback_depth_storage++; }

/// Marks the end of the delivery entered last.
static inline void vigil_callback_depth_exit(void) { vigil_callback_depth_storage--; }

/// How many deliveries the calling thread is inside of; 0 outside any.
static inline unsigned vigil_callback_depth(void) { return vigil_callback_depth_storage; }

#endif
