/* tests/floors_private.c -- compiled (syntax only) against the workloads
** floor's include root by ctest: sim's public header is found, and with
** -DPRIVATE sim's private header is not (floors_private_refused must fail
** to compile: CMakeLists.txt keeps *_int.h out of other floors' roots). */
#include "sim/gpu.h"
#ifdef PRIVATE
#include "sim/gpu_int.h"
#endif
int floors_private_probe(void);
