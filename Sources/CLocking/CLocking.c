// The functions of this target are `static inline`, in include/CLocking.h; this file
// gives the target the source file a C target needs.
#include "CLocking.h"
