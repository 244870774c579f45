/* cli/claimcheck.c -- a workload's claims against its run (claimcheck.h). */
#include "cli/claimcheck.h"

#include "cli/explain.h"

#include <math.h>
#include <string.h>

static const RunRow *row_of(const RunReport *r, uint32_t variant)
{
    const WlVariant *v = &r->w->variants[variant];
    for (uint32_t i = 0; i < r->nrows; i++)
        if (r->rows[i].v == v) return r->rows[i].ran ? &r->rows[i] : NULL;
    return NULL;
}

static void bounds(char *buf, size_t cap, const WlClaim *c)
{
    if (isinf(c->min)) snprintf(buf, cap, "at most %g", c->max);
    else if (isinf(c->max)) snprintf(buf, cap, "at least %g", c->min);
    else snprintf(buf, cap, "within [%g, %g]", c->min, c->max);
}

bool claimcheck_metrics_known(const Workload *w, Diag *d)
{
    KernelStats none;
    memset(&none, 0, sizeof none); /* the names are looked up, not the values */
    for (uint32_t k = 0; k < w->nclaims; k++) {
        const WlClaim *c = &w->claims[k];
        double x;
        if (c->metric && c->unknown_metric && !report_metric(&none, c->metric, &x)) {
            *d = *c->unknown_metric;
            return false;
        }
    }
    return true;
}

void claimcheck_run(const RunReport *r, bool as_shipped, FILE *out, ClaimTally *t)
{
    t->checked = t->failed = 0;
    if (!as_shipped) return;
    const Workload *w = r->w;
    for (uint32_t k = 0; k < w->nclaims; k++) {
        const WlClaim *c = &w->claims[k];
        if (c->gpu && strcmp(c->gpu, r->c->name) != 0) continue;
        const RunRow *a = row_of(r, c->variant);
        const RunRow *b = c->kind == WL_CLAIM_RATIO ? row_of(r, c->over) : NULL;
        if (!a || (c->kind == WL_CLAIM_RATIO && !b)) continue;
        t->checked++;
        const char *name = w->variants[c->variant].name;
        if (c->kind == WL_CLAIM_CLAUSE) {
            char sentence[2048];
            explain_row(r, (uint32_t)(a - r->rows), sentence, sizeof sentence);
            if (strstr(sentence, c->clause)) continue;
            t->failed++;
            fprintf(out, "claim failed: \"%s\": %s's why sentence does not say \"%s\"\n", c->says, name, c->clause);
            continue;
        }
        double x, y = 1;
        char range[96];
        bounds(range, sizeof range, c);
        if (!report_metric(&a->st, c->metric, &x) || (b && !report_metric(&b->st, c->metric, &y))) {
            t->failed++;
            fprintf(out, "claim failed: \"%s\": no numeric metric '%s' (see workloads/README.md, \"--json\")\n",
                    c->says, c->metric);
            continue;
        }
        if (b) {
            if (y == 0) {
                t->failed++;
                fprintf(out, "claim failed: \"%s\": %s of %s is 0\n", c->says, c->metric, w->variants[c->over].name);
                continue;
            }
            x /= y;
        }
        if (x >= c->min && x <= c->max) continue;
        t->failed++;
        if (b)
            fprintf(out, "claim failed: \"%s\": %s / %s %s = %.4g, not %s\n", c->says, name, w->variants[c->over].name,
                    c->metric, x, range);
        else
            fprintf(out, "claim failed: \"%s\": %s %s = %.4g, not %s\n", c->says, name, c->metric, x, range);
    }
}
