// validate/runner/main.cu -- gpusim-validate: runs every CUDA twin and
// microbenchmark on the local GPU and writes one JSON results file
// (schema: validate/README.md), then prints a summary table.
//
// Each workload runs in its own child process (fork before any CUDA call in
// the parent): a kernel fault or a hang in one twin loses that twin only,
// and the parent still writes the file with everything else.
#include "harness.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace vh;

#define VH_STR2(x) #x
#define VH_STR(x) VH_STR2(x)

namespace {

__device__ __forceinline__ unsigned long long globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Keeps every SM busy for ms milliseconds so that the clocks leave idle
// (an idle H200 was seen at 345 MHz) before anything is measured.
__global__ void k_burn(float *sink, unsigned long long ns)
{
    unsigned long long t0 = globaltimer();
    float x = threadIdx.x;
    while (globaltimer() - t0 < ns)
        for (int i = 0; i < 256; i++) x = x * 0.999f + 0.5f;
    if (x == 12345.f) *sink = x;  // never true; keeps the loop
}

// SM cycles against the global nanosecond timer over `ns`: the SM clock
// that converts event milliseconds to cycles.
__global__ void k_clock(unsigned long long *out, unsigned long long ns)
{
    unsigned long long g0 = globaltimer(), c0 = clock64(), g1, c1;
    do {
        g1 = globaltimer();
        c1 = clock64();
    } while (g1 - g0 < ns);
    out[0] = c1 - c0;
    out[1] = g1 - g0;
}

int attr(cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) return -1;
    return v;
}

double measure_clock_mhz()
{
    unsigned long long *d = nullptr, h[2] = {0, 0};
    float *sink = nullptr;
    CK(cudaMalloc(&d, 2 * sizeof *d));
    CK(cudaMalloc(&sink, sizeof *sink));
    int sms = attr(cudaDevAttrMultiProcessorCount, 0);
    k_burn<<<sms * 4, 256>>>(sink, 300000000ull);  // 300 ms
    CK(cudaGetLastError());
    k_clock<<<1, 1>>>(d, 20000000ull);  // 20 ms, right behind the burn
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    cudaFree(d);
    cudaFree(sink);
    return h[1] ? (double)h[0] * 1e3 / (double)h[1] : NAN;
}

std::string device_json()
{
    int dev = 0;
    CK(cudaGetDevice(&dev));
    cudaDeviceProp p{};
    CK(cudaGetDeviceProperties(&p, dev));
    int drv = 0, rt = 0;
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    int clk = attr(cudaDevAttrClockRate, dev), mclk = attr(cudaDevAttrMemoryClockRate, dev);
    int bus = attr(cudaDevAttrGlobalMemoryBusWidth, dev);
    std::string name = p.name, lower = name;
    for (auto &c : lower) c = (char)tolower((unsigned char)c);
    const char *presets[] = {"h200", "h100", "a100", "b200", "rtx 4090", "t4"};
    std::string preset;
    for (const char *s : presets)
        if (lower.find(s) != std::string::npos) { preset = s; break; }
    if (preset == "rtx 4090") preset = "rtx4090";
    char cc[16], nvcc[32];
    snprintf(cc, sizeof cc, "%d.%d", p.major, p.minor);
    snprintf(nvcc, sizeof nvcc, "%d.%d.%d", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
    double mhz = measure_clock_mhz();
    JObj j;
    j.str("name", name).str("preset", preset).str("cc", cc).i64("compute_capability", p.major * 10 + p.minor)
        .i64("sm_count", p.multiProcessorCount)
        .num("clock_mhz", clk / 1000.0).num("measured_sm_clock_mhz", mhz)
        .num("mem_clock_mhz", mclk / 1000.0).i64("mem_bus_width_bits", bus)
        .num("peak_dram_gbs", 2.0 * mclk * 1e3 * bus / 8 / 1e9)
        .i64("total_global_mem", (long long)p.totalGlobalMem)
        .i64("l2_cache_bytes", attr(cudaDevAttrL2CacheSize, dev))
        .i64("persisting_l2_max_bytes", attr(cudaDevAttrMaxPersistingL2CacheSize, dev))
        .i64("shared_per_block", (long long)p.sharedMemPerBlock)
        .i64("shared_per_block_optin", (long long)p.sharedMemPerBlockOptin)
        .i64("shared_per_sm", (long long)p.sharedMemPerMultiprocessor)
        .i64("reserved_shared_per_block", (long long)p.reservedSharedMemPerBlock)
        .i64("regs_per_block", p.regsPerBlock).i64("regs_per_sm", p.regsPerMultiprocessor)
        .i64("max_threads_per_block", p.maxThreadsPerBlock)
        .i64("max_threads_per_sm", p.maxThreadsPerMultiProcessor)
        .i64("max_blocks_per_sm", p.maxBlocksPerMultiProcessor).i64("warp_size", p.warpSize)
        .raw("max_block_dim", json_dim3(dim3(p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2])))
        .raw("max_grid_dim", json_dim3(dim3(p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2])))
        .i64("total_const_mem", (long long)p.totalConstMem)
        .boolean("ecc", p.ECCEnabled != 0).i64("pci_bus_id", p.pciBusID)
        .i64("driver_version", drv).i64("runtime_version", rt).str("nvcc_version", nvcc)
        .str("compiled_for", VH_STR(__CUDA_ARCH_LIST__));
    return j.text();
}

struct Args {
    std::string out = "gpusim-validate.json";
    std::vector<std::string> only;
    Options opt;
    bool fork = true, list = false;
    int timeout_s = 150;  // per workload
};

void usage(FILE *f)
{
    fprintf(f,
            "usage: gpusim-validate [--out FILE] [--only NAME[,NAME...]] [--reps N] [--quick]\n"
            "                       [--profile] [--timeout SECONDS] [--no-fork] [--list]\n"
            "Runs the CUDA twins of the gpusim workloads and the microbenchmarks on GPU 0\n"
            "and writes one JSON results file (see validate/README.md).\n"
            "--profile: each variant's correctness launch alone, between cudaProfilerStart\n"
            "and cudaProfilerStop, nothing timed (for ncu --profile-from-start off:\n"
            "validate/run_device.sh --counters).\n"
            "Exit: 0 all correct; 1 some variant wrong or failed; 2 no CUDA device or bad usage.\n");
}

bool parse(int argc, char **argv, Args &a)
{
    for (int i = 1; i < argc; i++) {
        std::string s = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(s + " needs a value");
            return argv[++i];
        };
        if (s == "--out") a.out = val();
        else if (s == "--only") {
            std::stringstream ss(val());
            for (std::string t; std::getline(ss, t, ',');) a.only.push_back(t);
        } else if (s == "--reps") a.opt.reps = std::max(20, atoi(val().c_str()));
        else if (s == "--quick") a.opt.quick = true;
        else if (s == "--profile") a.opt.profile = true;
        else if (s == "--timeout") a.timeout_s = atoi(val().c_str());
        else if (s == "--no-fork") a.fork = false;
        else if (s == "--list") a.list = true;
        else if (s == "-h" || s == "--help") { usage(stdout); exit(0); }
        else { fprintf(stderr, "gpusim-validate: unknown option '%s'\n", s.c_str()); usage(stderr); return false; }
    }
    return true;
}

std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// What one child hands back: JSON records (comma-joined) and table rows.
struct Part {
    std::string json, rows;
    int code = 0;
};

// Runs fn in a child process (or in-process with --no-fork); fn writes its
// results into the two files and returns the exit code.
template <class Fn> Part isolate(const Args &a, const std::string &label, Fn fn)
{
    char jpath[] = "/tmp/gpusim-validate-XXXXXX", rpath[] = "/tmp/gpusim-validate-XXXXXX";
    int jfd = mkstemp(jpath), rfd = mkstemp(rpath);
    if (jfd < 0 || rfd < 0) { perror("mkstemp"); exit(2); }
    close(jfd);
    close(rfd);
    Part p;
    if (!a.fork) {
        p.code = fn(std::string(jpath), std::string(rpath));
    } else {
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); exit(2); }
        if (pid == 0) {
            alarm((unsigned)a.timeout_s);  // a hung twin must not eat the device time
            int code = fn(std::string(jpath), std::string(rpath));
            fflush(stdout);
            _exit(code);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        if (WIFEXITED(st)) p.code = WEXITSTATUS(st);
        else {
            p.code = 3;
            fprintf(stderr, "gpusim-validate: %s: child killed by signal %d%s\n", label.c_str(), WTERMSIG(st),
                    WTERMSIG(st) == SIGALRM ? " (timeout)" : "");
            JObj e;
            e.str("workload", label).str("error", "child process killed by signal " + std::to_string(WTERMSIG(st)) +
                                                       (WTERMSIG(st) == SIGALRM ? " (timeout)" : ""));
            std::string prev = read_file(jpath);
            std::ofstream(jpath) << prev << (prev.empty() ? "" : ",\n") << e.text();
            std::ofstream(rpath, std::ios::app) << label << "\t-\tERROR\t0\t0\t0\t-1\t-1\n";
        }
    }
    p.json = read_file(jpath);
    p.rows = read_file(rpath);
    unlink(jpath);
    unlink(rpath);
    return p;
}

int run_twin(const Args &a, const Twin &t, const std::string &jpath, const std::string &rpath)
{
    int code = 0;
    std::string err;
    std::unique_ptr<Ctx> ctx;
    try {
        ctx.reset(new Ctx(a.opt));
        t.fn(*ctx);
    } catch (const std::exception &e) {
        err = e.what();
        code = 3;
        fprintf(stderr, "gpusim-validate: %s: %s\n", t.name, e.what());
    }
    std::ofstream j(jpath), r(rpath);
    bool first = true;
    if (ctx) {
        for (auto &rec : ctx->records()) { j << (first ? "" : ",\n") << rec; first = false; }
        for (auto &row : ctx->rows()) r << row << "\n";
        if (!code && ctx->failures()) code = 1;
    }
    if (!err.empty()) {
        j << (first ? "" : ",\n") << JObj().str("workload", t.name).str("error", err).text();
        r << t.name << "\t-\tERROR\t0\t0\t0\t-1\t-1\n";
    }
    return code;
}

// Writes the results file; `partial` marks one written while twins still run.
bool write_results(const Args &a, const std::string &device, const std::string &records, bool partial)
{
    char date[64];
    time_t now = time(nullptr);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    JObj method;
    method.i64("reps", a.opt.quick ? 3 : a.opt.reps).i64("warmup", a.opt.warmup)
        .i64("min_launches_per_group", a.opt.group).num("group_target_ms", a.opt.group_target_ms)
        .boolean("quick", a.opt.quick).boolean("profile", a.opt.profile)
        .str("ms", "median over reps of (event time of a group of back-to-back launches / launches in it)")
        .str("single", "median over reps of one launch between events, L2 flushed (2 x L2 bytes memset) before each");
    std::string tmp = a.out + ".tmp";
    {
        std::ofstream out(tmp);
        out << "{\n\"schema\": \"gpusim-validate/1\",\n\"date\": " << json_string(date) << ",\n";
        if (partial) out << "\"partial\": true,\n";
        out << "\"device\": " << device << ",\n\"method\": " << method.text() << ",\n\"variants\": [\n" << records
            << "\n]\n}\n";
        if (!out) {
            fprintf(stderr, "gpusim-validate: cannot write %s\n", tmp.c_str());
            return false;
        }
    }
    if (rename(tmp.c_str(), a.out.c_str()) != 0) {
        fprintf(stderr, "gpusim-validate: cannot write %s\n", a.out.c_str());
        return false;
    }
    return true;
}

void print_table(const std::string &rows)
{
    struct Row { std::string w, v, st; double ms, single, gbs; int regs, bps; };
    std::vector<Row> all;
    std::stringstream ss(rows);
    for (std::string line; std::getline(ss, line);) {
        std::stringstream ls(line);
        Row r;
        std::string f[8];
        for (int i = 0; i < 8; i++) std::getline(ls, f[i], '\t');
        r.w = f[0]; r.v = f[1]; r.st = f[2];
        r.ms = atof(f[3].c_str()); r.single = atof(f[4].c_str()); r.gbs = atof(f[5].c_str());
        r.regs = atoi(f[6].c_str()); r.bps = atoi(f[7].c_str());
        all.push_back(r);
    }
    printf("\n%-12s %-16s %-5s %11s %7s %11s %8s %4s %3s\n", "workload", "variant", "check", "ms(group)", "ratio",
           "ms(single)", "GB/s", "regs", "b/SM");
    std::map<std::string, double> first;
    for (auto &r : all) {
        if (!first.count(r.w)) first[r.w] = r.ms;
        double ratio = first[r.w] > 0 ? r.ms / first[r.w] : NAN;
        printf("%-12s %-16s %-5s %11.5f %7.3f %11.5f %8.1f %4d %3d\n", r.w.c_str(), r.v.c_str(), r.st.c_str(), r.ms,
               ratio, r.single, r.gbs, r.regs, r.bps);
    }
}

}  // namespace

int main(int argc, char **argv)
{
    Args a;
    try {
        if (!parse(argc, argv, a)) return 2;
    } catch (const std::exception &e) {
        fprintf(stderr, "gpusim-validate: %s\n", e.what());
        return 2;
    }
    std::vector<Twin> twins = registry();
    std::sort(twins.begin(), twins.end(), [](const Twin &x, const Twin &y) {
        return x.order != y.order ? x.order < y.order : strcmp(x.name, y.name) < 0;
    });
    if (a.list) {
        for (auto &t : twins) printf("%s\n", t.name);
        return 0;
    }
    for (auto &o : a.only) {
        bool known = false;
        for (auto &t : twins) known |= o == t.name;
        if (!known) { fprintf(stderr, "gpusim-validate: --only: no twin named '%s' (see --list)\n", o.c_str()); return 2; }
    }

    // The device first: no device means nothing else can run.
    Part dev = isolate(a, "device", [](const std::string &jpath, const std::string &) {
        int n = 0;
        cudaError_t e = cudaGetDeviceCount(&n);
        if (e != cudaSuccess || n == 0) {
            fprintf(stderr, "gpusim-validate: no CUDA device (%s)\n",
                    e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found none");
            return 2;
        }
        try {
            std::string d = device_json();
            std::ofstream(jpath) << d;
            printf("device: %s\n", d.c_str());
        } catch (const std::exception &ex) {
            fprintf(stderr, "gpusim-validate: device: %s\n", ex.what());
            return 3;
        }
        return 0;
    });
    if (dev.code != 0 || dev.json.empty()) return 2;

    std::string records, rows;
    int worst = 0;
    for (auto &t : twins) {
        if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), t.name) == a.only.end()) continue;
        Part p = isolate(a, t.name, [&](const std::string &jp, const std::string &rp) { return run_twin(a, t, jp, rp); });
        if (!p.json.empty()) records += (records.empty() ? "" : ",\n") + p.json;
        rows += p.rows;
        worst = std::max(worst, p.code);
        write_results(a, dev.json, records, true);  // a killed run still leaves what it measured
    }

    if (!write_results(a, dev.json, records, false)) return 2;
    print_table(rows);
    printf("\nwrote %s\n", a.out.c_str());
    return worst == 0 ? 0 : 1;
}
