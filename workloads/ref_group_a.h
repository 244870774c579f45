/* workloads/ref_group_a.h -- CPU references of the occupancy, waves,
** grid_stride, registers, ilp, coalescing and bank_conflicts workloads.
** Each follows the RefFn contract of workloads/reference.h (the *_points
** ones the RefPointFn contract); their rows are
** in the table of workloads/reference.c.                                 */
#ifndef GPUSIM_WORKLOADS_REF_GROUP_A_H
#define GPUSIM_WORKLOADS_REF_GROUP_A_H

#include "workloads/reference.h"

bool ref_a_light(const RefCall *call, void *out, char *msg, size_t cap);
void ref_a_light_points(const RefCall *call, uint64_t first, uint64_t count, void *out);
bool ref_a_smem_reverse(const RefCall *call, void *out, char *msg, size_t cap);
bool ref_a_block_work(const RefCall *call, void *out, char *msg, size_t cap);
bool ref_a_saxpy(const RefCall *call, void *out, char *msg, size_t cap);
void ref_a_saxpy_points(const RefCall *call, uint64_t first, uint64_t count, void *out);
bool ref_a_strided_read(const RefCall *call, void *out, char *msg, size_t cap);
bool ref_a_bank_stride(const RefCall *call, void *out, char *msg, size_t cap);
bool ref_a_bank_swizzle(const RefCall *call, void *out, char *msg, size_t cap);

#endif
