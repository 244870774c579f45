/* sim/config_knobs.c -- the knob walk of sim/config.h (config_knob_*):
** the knobs in sim/config.def order, for tools that go through them all
** (`gpusim gpus --diff`, sweeps). Its own small table from the same X-macro
** rows as config.c's, so the one list stays the one list. A value's text is
** what --set and a machine file take back: u32 in decimal, f64 as the
** shortest text that reads back, the policy by name.                      */
#include "sim/config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { WALK_U32, WALK_F64, WALK_POLICY };

static const struct {
    const char *key;
    int         type;
    size_t      offset;
} WALK[] = {
#define CFG(key, field, type, lo, hi, help) { key, WALK_##type, offsetof(GpuConfig, field) },
#include "sim/config.def"
#undef CFG
};
#define WALK_COUNT (sizeof WALK / sizeof WALK[0])

size_t config_knob_count(void) { return WALK_COUNT; }
const char *config_knob_key(size_t i) { return i < WALK_COUNT ? WALK[i].key : NULL; }
bool config_knob_is_number(size_t i) { return i < WALK_COUNT && WALK[i].type != WALK_POLICY; }

int config_knob_find(const char *key)
{
    for (size_t i = 0; key && i < WALK_COUNT; i++)
        if (strcmp(WALK[i].key, key) == 0) return (int)i;
    return -1;
}

void config_knob_text(const GpuConfig *c, size_t i, char *buf, size_t cap)
{
    if (!cap) return;
    buf[0] = '\0';
    if (i >= WALK_COUNT) return;
    const char *p = (const char *)c + WALK[i].offset;
    switch (WALK[i].type) {
    case WALK_U32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%u", v);
        break;
    }
    case WALK_F64: {
        double v;
        memcpy(&v, p, sizeof v);
        if (!isfinite(v)) snprintf(buf, cap, "null");
        else if (v == floor(v) && fabs(v) < 1e15) snprintf(buf, cap, "%.0f", v);
        else
            for (int prec = 1; prec <= 17; prec++) {
                snprintf(buf, cap, "%.*g", prec, v);
                if (strtod(buf, NULL) == v) break;
            }
        break;
    }
    case WALK_POLICY: {
        SchedPolicy v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, cap, "%s", config_policy_name(v));
        break;
    }
    }
}
