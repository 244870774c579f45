/* sim/config.h -- the machine: every parameter the timing model reads.
** The knob list is sim/config.def (one row per knob); presets live in
** sim/presets/NAME.json and are compiled into the library.                    */
#ifndef GPUSIM_SIM_CONFIG_H
#define GPUSIM_SIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SCHED_GTO = 0, SCHED_LRR = 1, SCHED_ROUND_ROBIN = 2 } SchedPolicy;

#define CFG_TYPE_U32    uint32_t
#define CFG_TYPE_F64    double
#define CFG_TYPE_POLICY SchedPolicy

typedef struct {
    char name[64];         /* preset name or file stem                   */
    char description[160]; /* full product name, e.g. "NVIDIA A100 SXM4 80GB" */
#define CFG(key, field, type, lo, hi, help) CFG_TYPE_##type field;
#include "sim/config.def"
#undef CFG
} GpuConfig;

/* The GPU used when the user names none. */
#define CONFIG_DEFAULT_GPU "a100"

/* Loads a machine. name_or_path is a preset name ("a100", see
** config_preset_name) or, when it contains '/' or ends in ".json", a path to
** a JSON file with the same shape as a preset. The file must give every knob
** of sim/config.def (nested objects by dotted key: {"sm": {"count": 108}}),
** nothing else besides optional "name" and "description" strings; values must
** have the knob's type and lie in its range; then config_validate must pass.
** With "base": NAME-or-path the file starts from that machine (a preset, or
** a machine file found relative to this one, itself possibly with a base)
** and gives only the knobs it changes; its description is the base's unless
** it gives one. A cycle of bases, or more than 16 of them, is an error.
** name defaults to the file stem. On error returns false, fills d with
** file:line:col (when known; a base file's own errors name that file) and a
** message naming the JSON path, and leaves *out unchanged. Never prints. */
bool config_load(const char *name_or_path, GpuConfig *out, Diag *d);

/* Same as config_load, from a JSON text in memory (len bytes, need not be
** NUL-terminated). source names it in diagnostics and gives the default name
** (its stem); it may be NULL. */
bool config_parse(const char *json, size_t len, const char *source, GpuConfig *out, Diag *d);

/* Applies one "key=value" (the CLI's --set) to c. value is a decimal
** integer (u32 knobs), a number (f64 knobs) or gto|lrr (sched.policy).
** An unknown key, a bad value or one outside the knob's range leaves c
** unchanged and returns false with a message that lists the valid keys or the
** range. Cross-field consistency is not checked here: call config_validate
** after the last --set. */
bool config_set(GpuConfig *c, const char *assignment, Diag *d);

/* Every knob in its range, then cross-field sanity (a largest block fits on an
** SM, one warp at the register limit fits in a sub-partition, opt-in shared
** memory plus the reservation fits the largest carveout, which fits the
** unified L1, cache sizes are whole sets of 128-byte lines, latencies grow
** down the hierarchy). Returns false with the first problem found. */
bool config_validate(const GpuConfig *c, Diag *d);

/* The cross-field half of config_validate, for a machine whose knobs are
** all in range (sim/config_check.c); source names it in d. */
bool config_check_consistency(const GpuConfig *c, const char *source, Diag *d);

/* The machine as pretty JSON (2-space indent, knobs in sim/config.def order,
** nested by dotted key, with name and description), the exact shape that
** config_load accepts: loading the text back gives an identical struct.
** Returns a malloc'd NUL-terminated string the caller frees, NULL when out of
** memory. */
char *config_to_json(const GpuConfig *c);

/* The presets compiled into the library, sorted by name; i >= count gives
** NULL. The strings are static. */
size_t config_preset_count(void);
const char *config_preset_name(size_t i);

/* One line per knob: key, type, accepted range, help (for `gpusim gpus
** --knobs` and --set errors). */
void config_print_knobs(FILE *out);

/* The knobs of sim/config.def in order, for tools that walk them (`gpusim
** gpus --diff`, sweeps). config_knob_key gives the dotted key of knob i
** (NULL for i >= config_knob_count()); config_knob_find the index of a key,
** or -1; config_knob_is_number whether its values are numbers (u32, f64)
** rather than words (sched.policy); config_knob_text c's value of knob i as
** --set and machine files write it ("108", "2039", "0.5", "gto"), always
** NUL-terminated in buf. */
size_t config_knob_count(void);
const char *config_knob_key(size_t i);
int config_knob_find(const char *key);
bool config_knob_is_number(size_t i);
void config_knob_text(const GpuConfig *c, size_t i, char *buf, size_t cap);

/* "gto", "lrr" or "rr" (static string; "?" for a value outside the enum). */
const char *config_policy_name(SchedPolicy p);

/* DRAM bandwidth in bytes per SM clock cycle:
** dram.bandwidth_gbs * 1e9 / (clock_mhz * 1e6). */
double config_dram_bytes_per_cycle(const GpuConfig *c);

#ifdef __cplusplus
}
#endif

#endif
