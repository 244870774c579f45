/* cli/trace_chrome.h -- `gpusim run --trace FILE`: the timing model's trace
** events written as Chrome trace-event JSON, an output format of the CLI. */
#ifndef GPUSIM_CLI_TRACE_CHROME_H
#define GPUSIM_CLI_TRACE_CHROME_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/trace.h"

/* Chrome trace-event JSON (opens in Perfetto / chrome://tracing): per SM, the
** block and warp lifetimes and a counter track of warp states; one span per
** launch. Timestamps are microseconds of simulated time at clock_mhz.
** Ownership: the caller owns `out` (it stays open after close). */
typedef struct ChromeTrace ChromeTrace;
ChromeTrace *trace_chrome_open(FILE *out, double clock_mhz); /* writes the header; NULL: no memory */
void trace_chrome_sink(ChromeTrace *t, TraceSink *sink);
void trace_chrome_label(ChromeTrace *t, const char *label);   /* the next launch's name ("workload/variant") */
/* Writes the last launch's spans and counters and the footer, frees t.
** False when host memory ran out on the way (the file lacks events). */
bool trace_chrome_close(ChromeTrace *t);

#endif
