// validate/twins/coalescing.cu -- CUDA twin of workloads/coalescing.json
// (kernels/coalescing.asm: strided_read). Teaching case 8 / text 002 s.2:
// out[i] = in[i * stride] for i < n, strides 1..32: from stride 8 on every
// lane needs its own 32-byte sector.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// no loop; one LDG, one STG per thread; i * stride is a 32-bit IMAD as the
// .asm's mul.lo.u32 (then a 64-bit address).
// Launch as coalescing.json: block 256, grid ceil(n/256), in = 32n floats,
// the stride a literal argument of each variant. Size: n = 2^22 instead of
// the JSON's 2^19 (in = 512 MB); at stride 32 a launch fetches 4 M sectors
// (128 MB) for 16 MB of data. Simulated: 131 K warps x ~12 instructions =
// 1.6 M warp instructions per variant.
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__global__ void strided_read(const float *in, float *out, int stride, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = in[(unsigned)i * (unsigned)stride];
}

void run(Ctx &ctx)
{
    const int n = 1 << 22, block = 256, max_stride = 32;
    DevBuf<float> in((size_t)n * max_stride), out((size_t)n);
    std::vector<float> h;
    for (int stride : {1, 2, 4, 8, 16, 32}) {
        Variant v = make_variant("coalescing", "stride" + std::to_string(stride), "strided_read",
                                 (const void *)strided_read, dim3((n + block - 1) / block), dim3(block), 0,
                                 {{"n", n}});
        v.bytes = 2.0 * n * 4;  // useful bytes
        Body b;
        b.reset = [&] {
            fill_uniform(in.p, in.n, ctx.next_seed(), -1.f, 1.f);
            out.poison();
            h = in.host();
        };
        b.launch = [&, stride](cudaStream_t s) { strided_read<<<v.grid, block, 0, s>>>(in.p, out.p, stride, n); };
        b.check = [&, stride] {
            std::vector<float> ref(n), got = out.host();
            for (int i = 0; i < n; i++) ref[i] = h[(size_t)i * stride];
            return compare_f32(got.data(), ref.data(), n, 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("coalescing", 20, run);
