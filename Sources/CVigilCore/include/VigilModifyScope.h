#ifndef VIGIL_MODIFY_SCOPE_H
#define VIGIL_MODIFY_SCOPE_H

/// The calling thread's open modify scope (a `ModifyScope` on the stack of its outermost `modify`), or NULL outside
/// every modify body; defined in VigilModifyScope.c.
extern __thread void *vigil_modify_scope_storage;

/// The calling thread's open modify scope, or NULL.
static inline void *vigil_modify_scope(void) { return vigil_modify_scope_storage; }

/// Opens (a scope) or closes (NULL) the calling thread's modify scope.
static inline void vigil_modify_scope_set(void *scope) { vigil_modify_scope_storage = scope; }

#endif
