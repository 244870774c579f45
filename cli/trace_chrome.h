/* cli/trace_chrome.h -- `gpusim run --trace FILE`: the timing model's trace
** events written as Chrome trace-event JSON, an output format of the CLI. */
#ifndef GPUSIM_CLI_TRACE_CHROME_H
#define GPUSIM_CLI_TRACE_CHROME_H

#include <stdio.h>

#include "sim/trace.h"

/* Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one
** process per SM, block lifetimes and warp lifetimes as duration events,
** timestamps in simulated cycles (shown as microseconds). */
typedef struct ChromeTrace ChromeTrace;
ChromeTrace *trace_chrome_open(FILE *out);   /* writes the header           */
void trace_chrome_sink(ChromeTrace *t, TraceSink *sink);
void trace_chrome_label(ChromeTrace *t, const char *label); /* next launch's name */
void trace_chrome_close(ChromeTrace *t);     /* writes the footer, frees t  */

#endif
