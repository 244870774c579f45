// validate/runner/harness.h -- what a CUDA twin needs from gpusim-validate.
//
// A twin file (validate/twins/NAME.cu, validate/micro/*.cu) registers one
// function per workload with VH_TWIN. That function describes each variant
// (the mini-ISA kernel it mirrors, the exact size parameters and launch) and
// hands the harness four callbacks: reset (fresh random inputs, poisoned
// outputs), launch (enqueue exactly one launch), check (compare with a CPU
// reference) and, for microbenchmarks, measure (read in-kernel counters).
// The harness does the method: correctness first, warm-up, then medians of
// single launches (L2 flushed before each, as cold as the simulator's start)
// and of groups of back-to-back launches (launch overhead hidden), plus the
// kernel's registers, static shared memory and CUDA's occupancy for it.
// Results are JSON objects (schema: validate/README.md).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vh {

// Every CUDA call goes through CK: a failure throws with the call's text and
// place, the harness records it against the variant being run.
void check_cuda(cudaError_t e, const char *what, const char *file, int line);
#define CK(call) ::vh::check_cuda((call), #call, __FILE__, __LINE__)

// Minimal JSON object writer (keys in insertion order; NaN/inf become null).
class JObj {
public:
    JObj &num(const char *k, double v);
    JObj &i64(const char *k, long long v);
    JObj &str(const char *k, const std::string &v);
    JObj &boolean(const char *k, bool v);
    JObj &raw(const char *k, const std::string &json);  // json: already JSON text
    std::string text() const { return "{" + body_ + "}"; }
    bool empty() const { return body_.empty(); }

private:
    void key(const char *k);
    std::string body_;
};
std::string json_string(const std::string &s);
std::string json_number(double v);
std::string json_dim3(dim3 d);

using Params = std::vector<std::pair<std::string, long long>>;

// One launch of a variant of several ("launches" in the workload JSON).
struct Step {
    std::string kernel;       // the mini-ISA kernel it mirrors
    const void *func = nullptr;
    dim3 grid, block;
    size_t dynamic_smem = 0;
};

// One variant as the simulator must reproduce it.
struct Variant {
    std::string workload;     // the "name" of the workload JSON
    std::string file;         // that JSON, relative to the repo root
    std::string variant;      // the variant's "name" in that JSON
    std::string kernel;       // the mini-ISA kernel it mirrors
    Params params;            // every size parameter, as --param name=value
    dim3 grid, block;
    size_t dynamic_smem = 0;
    const void *func = nullptr;  // the __global__ function timed
    double bytes = 0;         // least DRAM bytes one launch must move (0: n/a)
    double flops = 0;         // useful FP32 operations of one launch (0: n/a)
    std::string note;         // what differs from the simulated run, if anything
    std::string extra;        // optional JSON object text, stored as "emulates" (README)
    // A variant of several launches: each one (kernel, func, grid, block and
    // dynamic_smem above are the first's); Body::launch enqueues them all, in
    // order, and is timed as one. Recorded as "launches" (README).
    std::vector<Step> steps;
};

// A variant of workloads/<workload>.json (file filled in from the name).
Variant make_variant(const std::string &workload, const std::string &variant, const std::string &kernel,
                     const void *func, dim3 grid, dim3 block, size_t dynamic_smem, const Params &params);

// CUDA's resident blocks per SM for func at this launch (the JSON's blocks_per_sm).
int blocks_per_sm(const void *func, int threads, size_t dynamic_smem);

// Blocks of `threads` per SM that `regs` registers per thread allow (CUDA's
// rules: 256-register allocation per warp), capped by the thread limit.
int blocks_for_regs(const cudaDeviceProp &p, int regs, int threads);
// Dynamic shared memory that leaves room for exactly `blocks` blocks per SM
// (0 when the thread limit already gives that many). The kernel must allow
// it: cudaFuncSetAttribute(MaxDynamicSharedMemorySize) for more than 48 KB.
size_t smem_for_blocks(const cudaDeviceProp &p, int blocks, int threads);

struct Body {
    std::function<void()> reset;                 // fresh random inputs, poisoned outputs
    std::function<void(cudaStream_t)> launch;    // exactly one launch, no sync
    std::function<std::string()> check;          // "" when correct, else why not
    std::function<void(JObj &)> measure;         // optional: in-kernel measurements
    std::function<void(cudaStream_t)> between;   // optional: before each timed rep, untimed
};

struct Stats;  // a median, min and max of launch times (harness.cu)

struct Options {
    int reps = 30;            // timed repetitions per mode (>= 20)
    int warmup = 3;
    int group = 10;           // least launches per timed group
    double group_target_ms = 2.0;  // a group is lengthened to about this
    bool quick = false;       // correctness plus a few repetitions (a smoke test)
    bool profile = false;     // the correctness launch alone, between cudaProfilerStart and
                              // Stop (for ncu --profile-from-start off); nothing timed
};

class Ctx {
public:
    Ctx(const Options &o);
    ~Ctx();
    const cudaDeviceProp &prop() const { return prop_; }
    int sm_count() const { return prop_.multiProcessorCount; }
    cudaStream_t stream() const { return stream_; }
    uint64_t next_seed() { return seed_ += 0x9E3779B97F4A7C15ull; }

    // Runs one variant (correctness, timing, attributes) and keeps its record.
    void run(const Variant &v, Body &b);
    // A record that is not a timed variant (e.g. a clock measurement).
    void add_record(const std::string &json) { records_.push_back(json); }
    const std::vector<std::string> &records() const { return records_; }
    // One line per variant for the summary table: workload, variant, status,
    // grouped ms, single ms, GB/s, regs, blocks/SM (tab separated).
    const std::vector<std::string> &rows() const { return rows_; }
    int failures() const { return failures_; }

    // Writes 2 x L2 bytes so that the next launch finds nothing of its data in L2.
    void flush_l2();

private:
    void time_launches(Body &b, int reps, int &group, Stats &single, Stats &grouped);
    Options opt_;
    cudaDeviceProp prop_{};
    cudaStream_t stream_{};
    cudaEvent_t ev_[2]{};
    void *flush_buf_ = nullptr;
    size_t flush_bytes_ = 0;
    uint64_t seed_ = 0;
    std::vector<std::string> records_, rows_;
    int failures_ = 0;
    long long profiled_ = 0;  // kernels launched between profiler start/stop so far
};

// ---- device buffers and inputs -------------------------------------------
template <class T> struct DevBuf {
    T *p = nullptr;
    size_t n = 0;
    explicit DevBuf(size_t count) : n(count) { CK(cudaMalloc(&p, bytes())); }
    ~DevBuf() { if (p) cudaFree(p); }
    DevBuf(const DevBuf &) = delete;
    DevBuf &operator=(const DevBuf &) = delete;
    size_t bytes() const { return n * sizeof(T); }
    void poison() { CK(cudaMemset(p, 0xFF, bytes())); }  // NaN as float, -1 as int
    std::vector<T> host() const {
        std::vector<T> h(n);
        CK(cudaMemcpy(h.data(), p, bytes(), cudaMemcpyDeviceToHost));
        return h;
    }
};

// Uniform random floats in [lo, hi) (never all zeros), drawn on the device
// from a counter-based hash of (seed, index): fresh inputs cost no host time.
void fill_uniform(float *p, size_t n, uint64_t seed, float lo, float hi);
// Uniform random integers in [lo, hi].
void fill_uniform_u32(uint32_t *p, size_t n, uint64_t seed, uint32_t lo, uint32_t hi);
// p[i] = v for every i.
void fill_const_u32(uint32_t *p, size_t n, uint32_t v);

// "" when |got - ref| <= atol + rtol*|ref| everywhere (NaN never passes),
// else the count of bad elements and the first one.
std::string compare_f32(const float *got, const float *ref, size_t n, double atol, double rtol);
std::string compare_u32(const uint32_t *got, const uint32_t *ref, size_t n);

// ---- registry ----------------------------------------------------------------
using TwinFn = void (*)(Ctx &);
struct Twin {
    const char *name;   // workload name; also what --only selects
    int order;          // run order (micro first, then workloads)
    TwinFn fn;
};
std::vector<Twin> &registry();
struct Register {
    Register(const char *name, int order, TwinFn fn) { registry().push_back({name, order, fn}); }
};
#define VH_TWIN(name, order, fn) static ::vh::Register vh_register_##fn(name, order, fn)

}  // namespace vh
