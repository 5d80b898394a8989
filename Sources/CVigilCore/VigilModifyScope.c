#include "VigilModifyScope.h"

__thread void *vigil_modify_scope_storage = 0;
// Where the calling thread's outermost BehaviorSubject.modify keeps the deliveries its bodies started, so that they
// run once the step is over and no subscriber is ever called inside a body.
