/* cli/claimcheck.h -- checks a workload's claims (workloads/claims.h)
** against what `gpusim run` measured: each names the description's words
** it backs, so a failure says which sentence of the lesson the model no
** longer supports. Claims hold for the workload as shipped: a run with
** --set or --param checks none, and a claim is left out when a variant it
** names did not run or it is about another preset. */
#ifndef GPUSIM_CLI_CLAIMCHECK_H
#define GPUSIM_CLI_CLAIMCHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/report.h"

typedef struct {
    uint32_t checked, failed;
} ClaimTally;

/* Checks r's workload's claims (none when !as_shipped), writing one
** "claim failed: ..." line per failure to out. */
void claimcheck_run(const RunReport *r, bool as_shipped, FILE *out, ClaimTally *t);

/* Whether every metric w's claims name is one the report gives; false with
** *d the first unknown one, at its place in the workload file (bad input,
** told before anything runs). */
bool claimcheck_metrics_known(const Workload *w, Diag *d);

#endif
