/* cudart/unimplemented.c -- the entry points of cudart/unimplemented.def.
** Deliberately without NVIDIA's headers: each is defined with no
** parameters and an int result, which reads no argument and returns
** cudaErrorNotSupported in the result register, whatever the real
** signature (every such entry point returns cudaError_t, or nothing). */
#include "cudart/runtime.h"

#define MISSING(name) \
    int name(void);   \
    int name(void) { return rt_api_missing(#name); }
#include "cudart/unimplemented.def"
#undef MISSING
