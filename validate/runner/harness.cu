// validate/runner/harness.cu -- the measuring method shared by every twin:
// correctness against a CPU reference, then CUDA-event timing of single
// launches (L2 flushed) and of groups of back-to-back launches, with the
// kernel's attributes and CUDA's occupancy for its launch.
#include "harness.h"

#include <cuda_profiler_api.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace vh {

void check_cuda(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess) return;
    char buf[512];
    snprintf(buf, sizeof buf, "%s:%d: %s failed: %s (%s)", file, line, what, cudaGetErrorString(e),
             cudaGetErrorName(e));
    throw std::runtime_error(buf);
}

// ---- JSON --------------------------------------------------------------------
std::string json_string(const std::string &s)
{
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') { o += '\\'; o += (char)c; }
        else if (c == '\n') o += "\\n";
        else if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
        else o += (char)c;
    }
    return o + "\"";
}

std::string json_number(double v)
{
    if (!std::isfinite(v)) return "null";
    char b[40];
    if (v == std::floor(v) && std::fabs(v) < 9e15) snprintf(b, sizeof b, "%.0f", v);
    else snprintf(b, sizeof b, "%.9g", v);
    return b;
}

std::string json_dim3(dim3 d)
{
    char b[64];
    snprintf(b, sizeof b, "[%u, %u, %u]", d.x, d.y, d.z);
    return b;
}

void JObj::key(const char *k)
{
    if (!body_.empty()) body_ += ", ";
    body_ += json_string(k) + ": ";
}
JObj &JObj::num(const char *k, double v) { key(k); body_ += json_number(v); return *this; }
JObj &JObj::i64(const char *k, long long v) { key(k); body_ += std::to_string(v); return *this; }
JObj &JObj::str(const char *k, const std::string &v) { key(k); body_ += json_string(v); return *this; }
JObj &JObj::boolean(const char *k, bool v) { key(k); body_ += v ? "true" : "false"; return *this; }
JObj &JObj::raw(const char *k, const std::string &j) { key(k); body_ += j; return *this; }

// ---- inputs ------------------------------------------------------------------
__device__ __forceinline__ uint64_t splitmix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

__global__ void k_fill_uniform(float *p, size_t n, uint64_t seed, float lo, float span)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float u = (float)(splitmix(seed ^ (i * 0xD1B54A32D192ED03ull)) >> 40) * 0x1p-24f;  // [0, 1)
        p[i] = lo + span * u;
    }
}

__global__ void k_fill_uniform_u32(uint32_t *p, size_t n, uint64_t seed, uint32_t lo, uint64_t span)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = lo + (uint32_t)(splitmix(seed ^ (i * 0xD1B54A32D192ED03ull)) % span);
}

__global__ void k_fill_const_u32(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}

static unsigned fill_blocks(size_t n) { return (unsigned)std::min<size_t>((n + 255) / 256, 4096); }

void fill_uniform(float *p, size_t n, uint64_t seed, float lo, float hi)
{
    k_fill_uniform<<<fill_blocks(n), 256>>>(p, n, seed, lo, hi - lo);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

void fill_uniform_u32(uint32_t *p, size_t n, uint64_t seed, uint32_t lo, uint32_t hi)
{
    k_fill_uniform_u32<<<fill_blocks(n), 256>>>(p, n, seed, lo, (uint64_t)hi - lo + 1);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

void fill_const_u32(uint32_t *p, size_t n, uint32_t v)
{
    k_fill_const_u32<<<fill_blocks(n), 256>>>(p, n, v);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

std::string compare_f32(const float *got, const float *ref, size_t n, double atol, double rtol)
{
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double g = got[i], r = ref[i], d = std::fabs(g - r);
        bool ok = (std::isnan(r) && std::isnan(g)) || d <= atol + rtol * std::fabs(r);  // NaN g fails
        if (!ok) {
            if (!bad++) first = i;
        } else if (d > worst) worst = d;
    }
    if (!bad) return "";
    char b[256];
    snprintf(b, sizeof b, "%zu of %zu elements differ; first [%zu]: expected %.9g, got %.9g", bad, n, first,
             (double)ref[first], (double)got[first]);
    return b;
}

std::string compare_u32(const uint32_t *got, const uint32_t *ref, size_t n)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != ref[i] && !bad++) first = i;
    if (!bad) return "";
    char b[256];
    snprintf(b, sizeof b, "%zu of %zu elements differ; first [%zu]: expected %u, got %u", bad, n, first, ref[first],
             got[first]);
    return b;
}

Variant make_variant(const std::string &workload, const std::string &variant, const std::string &kernel,
                     const void *func, dim3 grid, dim3 block, size_t dynamic_smem, const Params &params)
{
    Variant v;
    v.workload = workload;
    v.file = "workloads/" + workload + ".json";
    v.variant = variant;
    v.kernel = kernel;
    v.func = func;
    v.grid = grid;
    v.block = block;
    v.dynamic_smem = dynamic_smem;
    v.params = params;
    return v;
}

int blocks_per_sm(const void *func, int threads, size_t dynamic_smem)
{
    int nb = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, func, threads, dynamic_smem));
    return nb;
}

int blocks_for_regs(const cudaDeviceProp &p, int regs, int threads)
{
    int per_warp = (regs * 32 + 255) / 256 * 256, warps = (threads + 31) / 32;
    return std::min(p.regsPerMultiprocessor / (per_warp * warps), p.maxThreadsPerMultiProcessor / threads);
}

size_t smem_for_blocks(const cudaDeviceProp &p, int blocks, int threads)
{
    if (blocks >= p.maxThreadsPerMultiProcessor / threads) return 0;
    size_t s = (p.sharedMemPerMultiprocessor / blocks - p.reservedSharedMemPerBlock) / 128 * 128;
    return std::min(s, p.sharedMemPerBlockOptin);
}

__device__ __forceinline__ unsigned long long globaltimer_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void k_spin(unsigned long long ns)
{
    unsigned long long t0 = globaltimer_ns();
    while (globaltimer_ns() - t0 < ns) {
    }
}

// ---- registry ----------------------------------------------------------------
std::vector<Twin> &registry()
{
    static std::vector<Twin> r;
    return r;
}

// ---- the method ----------------------------------------------------------------
Ctx::Ctx(const Options &o) : opt_(o)
{
    int dev = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&prop_, dev));
    // A blocking stream: it waits for the legacy-stream fills, memsets and
    // copies the twins do around it.
    CK(cudaStreamCreate(&stream_));
    CK(cudaEventCreate(&ev_[0]));
    CK(cudaEventCreate(&ev_[1]));
    int l2 = 0;
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    flush_bytes_ = 2 * (size_t)std::max(l2, 1 << 20);
    CK(cudaMalloc(&flush_buf_, flush_bytes_));
    // Clocks drop while the GPU idles between workloads: 100 ms of load first.
    k_spin<<<prop_.multiProcessorCount * 4, 256, 0, stream_>>>(100000000ull);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(stream_));
}

Ctx::~Ctx()
{
    cudaFree(flush_buf_);
    cudaEventDestroy(ev_[0]);
    cudaEventDestroy(ev_[1]);
    cudaStreamDestroy(stream_);
}

void Ctx::flush_l2()
{
    static unsigned char byte = 0;
    CK(cudaMemsetAsync(flush_buf_, ++byte, flush_bytes_, stream_));
}

struct Stats {
    double median = NAN, min = NAN, max = NAN;
};

namespace {
Stats stats_of(std::vector<double> v)
{
    Stats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    s.median = v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
    s.min = v.front();
    s.max = v.back();
    return s;
}
std::string stats_json(const Stats &s, int reps, int per_group, bool flushed)
{
    JObj j;
    j.i64("reps", reps);
    if (per_group) j.i64("launches_per_group", per_group);
    else j.boolean("l2_flushed", flushed);
    j.num("median_ms", s.median).num("min_ms", s.min).num("max_ms", s.max);
    return j.text();
}
}  // namespace

// Warm-up, then the medians of single launches (L2 flushed before each)
// and of groups of back-to-back launches.
void Ctx::time_launches(Body &b, int reps, int &group, Stats &single, Stats &grouped)
{
    for (int i = 0; i < opt_.warmup; i++) {
        if (b.between) b.between(stream_);
        b.launch(stream_);
    }
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(stream_));

    // Single launches, each after an L2 flush: the simulator starts cold.
    std::vector<double> t;
    for (int i = 0; i < reps; i++) {
        if (b.between) b.between(stream_);
        flush_l2();
        CK(cudaEventRecord(ev_[0], stream_));
        b.launch(stream_);
        CK(cudaEventRecord(ev_[1], stream_));
        CK(cudaEventSynchronize(ev_[1]));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, ev_[0], ev_[1]));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    single = stats_of(t);

    // Groups of back-to-back launches: the launch gap no longer flattens
    // short kernels. A group lasts about group_target_ms.
    if (single.median > 0)
        group = (int)std::min(1000.0, std::max((double)opt_.group, std::ceil(opt_.group_target_ms / single.median)));
    t.clear();
    for (int i = 0; i < reps; i++) {
        if (b.between) b.between(stream_);
        CK(cudaEventRecord(ev_[0], stream_));
        for (int g = 0; g < group; g++) b.launch(stream_);
        CK(cudaEventRecord(ev_[1], stream_));
        CK(cudaEventSynchronize(ev_[1]));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, ev_[0], ev_[1]));
        t.push_back(ms / group);
    }
    CK(cudaGetLastError());
    grouped = stats_of(t);
}

void Ctx::run(const Variant &v, Body &b)
{
    JObj r;
    r.str("workload", v.workload).str("file", v.file).str("variant", v.variant).str("kernel", v.kernel);
    JObj params;
    std::string ptext;
    for (auto &p : v.params) {
        params.i64(p.first.c_str(), p.second);
        ptext += " " + p.first + "=" + std::to_string(p.second);
    }
    r.raw("params", params.text());
    r.raw("launch", JObj().raw("grid", json_dim3(v.grid)).raw("block", json_dim3(v.block))
                        .i64("dynamic_smem", (long long)v.dynamic_smem).text());
    if (!v.note.empty()) r.str("note", v.note);
    if (!v.extra.empty()) r.raw("emulates", v.extra);
    printf("%-12s %-16s%s\n", v.workload.c_str(), v.variant.c_str(), ptext.c_str());
    fflush(stdout);

    std::string error, bad;
    bool sticky = false;
    Stats single, grouped;
    int regs = -1, nb = -1;
    int group = opt_.group, reps = opt_.quick ? 3 : std::max(opt_.reps, 20);
    try {
        cudaFuncAttributes fa{};
        CK(cudaFuncGetAttributes(&fa, v.func));
        int threads = (int)(v.block.x * v.block.y * v.block.z);
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, v.func, threads, v.dynamic_smem));
        regs = fa.numRegs;
        r.i64("regs", fa.numRegs).i64("static_smem", (long long)fa.sharedSizeBytes)
            .i64("local_bytes", (long long)fa.localSizeBytes).i64("binary_version", fa.binaryVersion)
            .i64("blocks_per_sm", nb)
            .num("occupancy", (double)nb * threads / prop_.maxThreadsPerMultiProcessor);
        if (!v.steps.empty()) {
            std::string seq = "[";
            for (size_t k = 0; k < v.steps.size(); k++) {
                const Step &st = v.steps[k];
                cudaFuncAttributes sa{};
                CK(cudaFuncGetAttributes(&sa, st.func));
                int sn = 0, sthreads = (int)(st.block.x * st.block.y * st.block.z);
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&sn, st.func, sthreads, st.dynamic_smem));
                seq += (k ? "," : "") + JObj().str("kernel", st.kernel).raw("grid", json_dim3(st.grid))
                                            .raw("block", json_dim3(st.block)).i64("dynamic_smem", (long long)st.dynamic_smem)
                                            .i64("regs", sa.numRegs).i64("static_smem", (long long)sa.sharedSizeBytes)
                                            .i64("blocks_per_sm", sn).text();
            }
            r.raw("launches", seq + "]");
        }

        // Correctness first, on fresh random inputs with poisoned outputs.
        b.reset();
        CK(cudaDeviceSynchronize());  // inputs and poison in place before the launch
        // Profiling: only this launch runs between start and stop, so ncu
        // (--profile-from-start off) sees it and none of the input fills.
        // Its kernels are this process's profiled_ .. profiled_ + n - 1.
        long long nlaunch = v.steps.empty() ? 1 : (long long)v.steps.size();
        if (opt_.profile) {
            CK(cudaProfilerStart());
            r.i64("profile_pid", (long long)getpid()).i64("profile_first", profiled_).i64("profile_launches", nlaunch);
        }
        b.launch(stream_);
        CK(cudaGetLastError());
        CK(cudaStreamSynchronize(stream_));
        if (opt_.profile) {
            CK(cudaProfilerStop());
            profiled_ += nlaunch;
        }
        bad = b.check ? b.check() : "";
        r.boolean("correct", bad.empty());
        if (!bad.empty()) r.str("check", bad);
        if (b.measure) {
            JObj m;
            b.measure(m);
            r.raw("measured", m.text());
        }

        if (!opt_.profile) time_launches(b, reps, group, single, grouped);
    } catch (const std::exception &e) {
        error = e.what();
        sticky = cudaDeviceSynchronize() != cudaSuccess;  // a kernel fault poisons the context
    }
    if (!error.empty()) r.str("error", error);
    r.num("ms", grouped.median);
    r.raw("grouped", stats_json(grouped, reps, group, false));
    r.raw("single", stats_json(single, reps, 0, true));
    if (v.bytes > 0) r.num("bytes", v.bytes).num("gbs", v.bytes / (grouped.median * 1e6));
    if (v.flops > 0) r.num("flops", v.flops).num("gflops", v.flops / (grouped.median * 1e6));
    records_.push_back(r.text());
    if (!error.empty() || !bad.empty()) failures_++;
    char row[512];
    snprintf(row, sizeof row, "%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%d\t%d", v.workload.c_str(), v.variant.c_str(),
             !error.empty() ? "ERROR" : bad.empty() ? "ok" : "WRONG", grouped.median, single.median,
             v.bytes > 0 ? v.bytes / (grouped.median * 1e6) : 0.0, regs, nb);
    rows_.push_back(row);
    printf("    %s  single %.4f ms  grouped %.4f ms (x%d)%s%s\n", !error.empty() ? "ERROR" : bad.empty() ? "ok" : "WRONG",
           single.median, grouped.median, group, error.empty() && bad.empty() ? "" : "  ",
           !error.empty() ? error.c_str() : bad.c_str());
    fflush(stdout);
    if (sticky) throw std::runtime_error("CUDA context lost after " + v.workload + "/" + v.variant + ": " + error);
}

}  // namespace vh
