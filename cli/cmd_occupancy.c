/* cli/cmd_occupancy.c -- `gpusim occupancy`: how many blocks of a launch
** fit on one SM of a machine, which resource limits it, and what each
** resource alone would allow (sim/occupancy.h does the arithmetic, by CUDA's
** rules). Text table or --json; an impossible launch is bad input (exit 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/occupancy.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim occupancy [--gpu NAME|FILE] --block N --regs R [--smem BYTES]\n"
            "                        [--static-smem BYTES] [--set key=value]... [--json]\n\n"
            "Blocks per SM, active warps, occupancy and the limiting resource of a launch,\n"
            "by the rules of CUDA's occupancy calculator, and how many blocks each resource\n"
            "alone allows (warps, blocks, registers, shared_memory).\n"
            "  --gpu NAME|FILE      preset (see `gpusim gpus`) or machine file; default %s\n"
            "  --block N            threads per block\n"
            "  --regs R             registers per thread (as ptxas -v or `gpusim asm` reports)\n"
            "  --smem BYTES         dynamic shared memory per block (default 0; opted in)\n"
            "  --static-smem BYTES  static shared memory per block (default 0)\n"
            "  --set key=value      change a knob of the machine (repeatable; `gpusim gpus --knobs`)\n"
            "  --json               one JSON object: blocks_per_sm, warps_per_sm, occupancy (0..1),\n"
            "                       limiter (warps|blocks|registers|shared_memory) and limits\n"
            "                       {warps, blocks, registers, shared_memory}: blocks per SM each\n"
            "                       resource allows, null where it sets no limit\n"
            "A launch that cannot run (block above the limit, too many registers, shared\n"
            "memory above the opt-in limit) is reported with the reason; exit status 2.\n",
            CONFIG_DEFAULT_GPU);
}

/* shortest %g form that reads back as v */
static void print_num(double v)
{
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, stdout);
}

static void print_json_limit(const char *key, uint32_t limit, bool last)
{
    if (limit == OCC_UNLIMITED) printf("    \"%s\": null%s\n", key, last ? "" : ",");
    else printf("    \"%s\": %u%s\n", key, limit, last ? "" : ",");
}

static void print_json(const OccResult *r)
{
    printf("{\n  \"blocks_per_sm\": %u,\n  \"warps_per_sm\": %u,\n  \"occupancy\": ", r->blocks_per_sm,
           r->warps_per_sm);
    print_num(r->occupancy);
    printf(",\n  \"limiter\": \"%s\",\n  \"limits\": {\n", occupancy_limiter_name(r->limiter));
    print_json_limit("warps", r->limit_warps, false);
    print_json_limit("blocks", r->limit_blocks, false);
    print_json_limit("registers", r->limit_registers, false);
    print_json_limit("shared_memory", r->limit_shared_memory, true);
    printf("  }\n}\n");
}

static void print_row(const char *name, uint32_t limit, const char *takes, bool limiter)
{
    char lim[16];
    if (limit == OCC_UNLIMITED) snprintf(lim, sizeof lim, "unlimited");
    else snprintf(lim, sizeof lim, "%u", limit);
    if (limiter) printf("  %-14s %9s   %-30s  <- limiter\n", name, lim, takes);
    else printf("  %-14s %9s   %s\n", name, lim, takes);
}

static void print_text(const GpuConfig *c, uint32_t block, uint32_t regs, uint32_t static_smem,
                       uint32_t dynamic_smem, const OccResult *r)
{
    uint32_t max_warps = c->sm_max_warps < c->sm_max_threads / 32 ? c->sm_max_warps : c->sm_max_threads / 32;
    uint32_t wpb = (block + 31) / 32;
    printf("gpu            %s (%s)\n", c->name, c->description);
    printf("launch         %u threads (%u warps) per block, %u registers per thread,\n"
           "               %u B static + %u B dynamic shared memory per block\n",
           block, wpb, regs, static_smem, dynamic_smem);
    printf("blocks per SM  %u\n", r->blocks_per_sm);
    printf("active warps   %u of %u per SM\n", r->warps_per_sm, max_warps);
    printf("occupancy      %.1f%%\n", 100.0 * r->occupancy);
    printf("limiter        %s\n\n", occupancy_limiter_name(r->limiter));

    char takes[64];
    printf("  %-14s %9s   %s\n", "resource", "blocks/SM", "one block takes");
    snprintf(takes, sizeof takes, "%u of %u warps", wpb, max_warps);
    print_row("warps", r->limit_warps, takes, r->limiter == OCC_WARPS);
    snprintf(takes, sizeof takes, "1 of %u blocks", c->sm_max_blocks);
    print_row("blocks", r->limit_blocks, takes, r->limiter == OCC_BLOCKS);
    snprintf(takes, sizeof takes, "%u of %u registers", r->regs_per_block_alloc, c->sm_registers);
    print_row("registers", r->limit_registers, takes, r->limiter == OCC_REGISTERS);
    snprintf(takes, sizeof takes, "%u of %u bytes", r->smem_per_block_alloc, c->sm_shared_memory);
    print_row("shared_memory", r->limit_shared_memory, takes, r->limiter == OCC_SHARED_MEMORY);
}

int cmd_occupancy(int argc, char **argv)
{
    const char *gpu = NULL, *block_s = NULL, *regs_s = NULL, *smem_s = "0", *static_s = "0";
    bool json = false;
    int nsets = 0;
    char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets) return cli_error("occupancy", "out of memory");

    int status = EXIT_BAD_INPUT;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL, *flag = argv[i];
        const char **slot = NULL;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            status = EXIT_OK;
            goto done;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
            continue;
        } else if (cli_option(argc, argv, &i, "--gpu", &v)) {
            slot = &gpu;
        } else if (cli_option(argc, argv, &i, "--block", &v)) {
            slot = &block_s;
        } else if (cli_option(argc, argv, &i, "--regs", &v)) {
            slot = &regs_s;
        } else if (cli_option(argc, argv, &i, "--smem", &v)) {
            slot = &smem_s;
        } else if (cli_option(argc, argv, &i, "--static-smem", &v)) {
            slot = &static_s;
        } else if (cli_option(argc, argv, &i, "--set", &v)) {
            if (v) sets[nsets++] = (char *)v;
        } else {
            cli_error("occupancy", "unknown argument '%s'", argv[i]);
            usage(stderr);
            goto done;
        }
        if (!v) {
            cli_error("occupancy", "%s needs a value", flag);
            goto done;
        }
        if (slot) *slot = v;
    }
    if (!block_s || !regs_s) {
        cli_error("occupancy", "%s", !block_s ? "--block N is required" : "--regs R is required");
        usage(stderr);
        goto done;
    }

    /* wide ranges here: the machine's own limits are checked by occupancy_compute */
    Diag d;
    uint32_t block, regs, smem, static_smem;
    GpuConfig c;
    if (!cli_parse_u32(block_s, "--block", &block, 1, UINT32_MAX, &d) ||
        !cli_parse_u32(regs_s, "--regs", &regs, 0, UINT32_MAX, &d) ||
        !cli_parse_u32(smem_s, "--smem", &smem, 0, UINT32_MAX, &d) ||
        !cli_parse_u32(static_s, "--static-smem", &static_smem, 0, UINT32_MAX, &d) ||
        !cli_load_gpu(gpu, sets, nsets, &c, &d)) {
        diag_print(stderr, &d);
        goto done;
    }

    OccResult r;
    if (!occupancy_compute(&c, block, regs, static_smem, smem, &r, &d)) {
        /* name the option that asked for too much */
        const char *culprit = r.limiter == OCC_REGISTERS ? "--regs"
                              : r.limiter != OCC_SHARED_MEMORY ? "--block"
                              : static_smem > c.shared_per_block ? "--static-smem" : "--smem";
        fprintf(stderr, "%s: error: cannot launch on %s: %s\n", culprit, c.name, d.message);
        goto done;
    }
    if (json) print_json(&r);
    else print_text(&c, block, regs, static_smem, smem, &r);
    status = EXIT_OK;
done:
    free(sets);
    return status;
}
