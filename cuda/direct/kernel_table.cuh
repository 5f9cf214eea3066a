#pragma once
// The compiled step-kernel instances, looked up at run time by (precision, variant, k, u). A variant is a
// type (step_kernel<P, K, U, ROLLED>); these tables are the deliberate list CI and every developer compile:
//   fp32: none (1x1), i-unrolled (k = 2, 4, 8), ij-unrolled (k, u in {2, 4, 8})          13 instances
//   ds:   none, i-unrolled (k = 2, 4), ij-unrolled (2x2, 2x4, 4x2, 4x4)                    7
//   fp64: none, i-unrolled (k = 2, 4), ij-unrolled (2x2, 2x4, 4x2, 4x4)                    7
//   pairs (fp32): k x u 2x1, 2x2, 4x1, 4x2, 4x4, 8x1, 8x2, 8x4 (pairs_kernel<K, U, SPLIT>)   8
// ds and fp64 carry twice the registers per i- and j-body (double sums, hi + lo), so k and u of 8 would spill.
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <string>

#include "core/kernels/kernel_config.hpp"
#include "core/rows/sim_params.hpp"
#include "direct/step_kernel.cuh"

namespace nbody::kernels {

// What a family keeps on the device beside the partial sums of a plan, made once a part by configure (the tensor
// family: its Morton-sort buffers; the pairs family: a second stream). A launcher gets its part's back with every
// launch.
struct FamilyScratch {
    virtual ~FamilyScratch() = default;
};

// One step (or the priming evaluation) on `stream`: graph-capturable, host work only to enqueue.
using Launcher = void (*)(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& args,
                          const FamilyScratch* scratch);

struct KernelEntry {
    Precision precision;
    KernelVariant variant;
    int k, u;
    const void* function;  // for cudaFuncGetAttributes (registers, max threads per block)
    Launcher launch;
    int body_bytes;        // shared memory per j-body: 16 (fp32) or 32 (ds, fp64)
    // The other instance a plan may pick, compiled apart so that its code does not burden the main one: for the
    // step kernels the tile-free one (LaunchPlan::tile == 0; fp32 only, null otherwise), for the pairs family the
    // one whose q warps split a tile's j-groups (LaunchPlan::q > 1).
    const void* alt_function = nullptr;
    Launcher alt_launch = nullptr;

    // The instance a plan runs (LaunchPlan::alt says which).
    const void* function_for(const LaunchPlan& p) const { return p.alt ? alt_function : function; }
    Launcher launcher_for(const LaunchPlan& p) const { return p.alt ? alt_launch : launch; }
};

// Null when the combination was not compiled.
const KernelEntry* find_kernel(Precision p, KernelVariant v, int k, int u);

// The CUDA side of one family (a row per KernelVariant, kernel_table.cu; the rules are core/kernels/kernel_family.hpp):
// its compiled instances in a precision, the scratch it owns beyond the plan's partial sums, and what configure
// sets on the device before the first launch (the opt-in to more dynamic shared memory).
struct KernelList;
struct FamilyKernels {
    KernelList (*instances)(Precision p);
    std::unique_ptr<FamilyScratch> (*make_scratch)(int device, std::size_t n);  // null: none
    void (*prepare)(const KernelEntry& e);  // on the current device; null: nothing to set
};
const FamilyKernels& family_kernels(KernelVariant v);

// "k x u in {1x1, 2x1, ...}" for the messages that refuse an uncompiled combination.
std::string compiled_shapes(Precision p, KernelVariant v);

// One table per precision (kernel_table_<precision>.cu, compiled in parallel).
struct KernelList {
    const KernelEntry* begin;
    const KernelEntry* end;
};
KernelList fp32_kernels();
KernelList ds_kernels();
KernelList fp64_kernels();
// kernel_table_pairs.cu: k x u 2x1, 2x2, 4x1, 4x2, 4x4, 8x1, 8x2, 8x4 (fp32). A launch is the tile kernel and then
// the finish kernel (each body's partial sums and the leap-frog update), on the plan's grid, shared memory and scratch.
KernelList pairs_kernels(Precision p);  // empty but for fp32
void prepare_pairs(const KernelEntry& e);  // its shared memory past 48 KiB
// Each part's second stream and events, on which the bands of the second buffer run (launch_pairs).
std::unique_ptr<FamilyScratch> make_pairs_scratch(int device, std::size_t n);
// Several parts: after a part's launch (its groups, sums in a.group_out) and the other parts' group sums have
// arrived in `received` ([groups][own bodies]), each own body's groups in order and the leap-frog update.
void launch_pairs_combine(const StepArgs& a, const float4* received, cudaStream_t stream);
// tensor_force.cu: the tensor-core step (fp32, k = u = 1), launched after the Morton sort its scratch holds.
KernelList tensor_kernels(Precision p);  // empty but for fp32
std::unique_ptr<FamilyScratch> make_tensor_scratch(int device, std::size_t n);
void prepare_tensor(const KernelEntry& e);
// The scratch a family's capped_scratch (core/kernels/kernel_family.hpp) may take on `device`: a kPairsScratchShare-th
// of its memory.
long long scratch_cap(int device);

template <class P, int K, int U, bool ROLLED, bool STREAM>
void launch_step(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& args,
                 const FamilyScratch*) {
    if constexpr (bounded_step_kernel<P, K>())
        step_kernel_bounded<P, K, U, ROLLED, STREAM><<<grid, block, smem, stream>>>(args);
    else
        step_kernel<P, K, U, ROLLED, STREAM><<<grid, block, smem, stream>>>(args);
}

template <class P, int K, int U, bool ROLLED, bool STREAM>
const void* step_function() {  // only the entry point the instance uses is compiled
    if constexpr (bounded_step_kernel<P, K>())
        return reinterpret_cast<const void*>(&step_kernel_bounded<P, K, U, ROLLED, STREAM>);
    else
        return reinterpret_cast<const void*>(&step_kernel<P, K, U, ROLLED, STREAM>);
}

template <class P, int K, int U, bool ROLLED>
KernelEntry entry(Precision p, KernelVariant v) {
    KernelEntry e{p, v, K, U, step_function<P, K, U, ROLLED, false>(), &launch_step<P, K, U, ROLLED, false>,
                  16 * P::kSlots};
    if constexpr (kStreams<P>) {
        e.alt_function = step_function<P, K, U, ROLLED, true>();
        e.alt_launch = &launch_step<P, K, U, ROLLED, true>;
    }
    return e;
}

}  // namespace nbody::kernels
