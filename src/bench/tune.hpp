#pragma once
// nbody-bench --tune: measures a chosen set of kernel shapes per precision at log-spaced N and makes the
// tuning table the CUDA backend's automatic choice reads (core/kernels/kernel_tuning.hpp). The search is written
// against a ShapeTimer so the unit tests can drive it with a model of a GPU.
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>

#include "bench/bench_runner.hpp"
#include "core/kernels/kernel_tuning.hpp"

namespace nbody {

struct TuneCandidate {
    KernelVariant variant = KernelVariant::IJUnrolled;
    KernelShape shape;  // q = 0, s = 0: automatic
};

// One measurement of one kernel at the loaded N.
struct ShapeSample {
    std::vector<double> rates;  // interactions/s of each timed repeat
    int q = 0;                  // threads per body it ran with (an automatic q resolved)
    BenchRow row;               // the usual benchmark row, for --json
};

// What --tune measures with: the CUDA backend in nbody-bench, a model of one in the unit tests.
class ShapeTimer {
  public:
    virtual ~ShapeTimer() = default;
    // A fresh state of n bodies in precision p.
    virtual void load(std::size_t n, Precision p) = 0;
    // `repeats` timed repeats of the kernel at the loaded N after a warm-up; nullopt when it cannot run
    // on this device (a block too large for its registers).
    virtual std::optional<ShapeSample> time(const TuneCandidate& c, int repeats) = 0;
};

struct TunePlan {
    std::vector<Precision> precisions{Precision::Fp32, Precision::DS, Precision::Fp64};
    std::vector<std::size_t> sizes;     // measured in ascending order
    double seconds_per_repeat = 0.005;  // the ShapeTimer's repeat length; used here to estimate costs
    double warmup_seconds = 0.0025;     // the ShapeTimer's warm-up per measurement; for the estimate
    int repeats = 3;                    // first pass, per kernel
    int confirm_top = 3;                // then the best few at each N ...
    int confirm_repeats = 4;            // ... get this many more repeats, interleaved between them
    // Up to this N, the best few kernels are also measured with other q: an automatic q halved and doubled, and
    // q 2, 4, 8 beside an automatic s, since a fixed q has beaten the automatic one and q with an automatic s has
    // won at small N (docs/bench/performance-log.md, measurements once in code comments).
    std::size_t q_variants_up_to = 131072;
    double seconds_per_n = 2.0;  // a shape list expected to cost more is cut to the previous N's best
};

// 1,000 to 262,144: the N of the goals and the papers (7,500, 10,000, 18,000, 100,000, 131,072) and
// between them where the winners change (4,000, 50,000), and the ends (1,000, 262,144), beyond which the
// table's nearest row holds (the large-N winner changes little: docs/bench/performance-log.md).
std::vector<std::size_t> default_tune_sizes();

// The shapes measured at every N in precision p: ij-unrolled k x u x block, each with two ways of filling
// the GPU at small N: q automatic and no split over blocks (s 1), and q 1 with s automatic (s 0). By
// default fp32 k {2, 4, 8} x u {4, 8} x block {256, 512} (24 shapes); ds and fp64, whose compiled
// ij-unrolled instances are k, u in {2, 4}, k {2, 4} x u {2, 4} x block {128, 256} (16 shapes). Pruned by the
// sweeps: none and i-unrolled, fp32 ij with u = 2 and blocks of 128 never led (docs/bench/performance-log.md,
// measurements once in code comments); blocks of 1024 halve the resident warps. `--k/--u/--block` with --tune
// replace these lists.
std::vector<TuneCandidate> tune_grid(Precision p, const std::vector<int>& ks = {},
                                     const std::vector<int>& us = {}, const std::vector<int>& blocks = {});
using TuneGrids = std::function<std::vector<TuneCandidate>(Precision)>;

// The expected wall time of a tune, from the candidate counts: every (precision, N) measures its grid (cut
// to what fits seconds_per_n where a step is long), the q variants of the best 3 and the confirmation
// repeats; each measurement is a warm-up and the repeats, a repeat at least one step of N^2 / `rate`
// seconds, plus ~2 ms to switch the shape.
double tune_estimate_seconds(const TunePlan& plan, const TuneGrids& grids, double rate = 1e12);

struct TuneResult {
    TuningTable table;           // every measured kernel, rows of each N best first
    std::vector<BenchRow> rows;  // the same measurements as benchmark rows
    std::size_t measurements = 0;
};

// Measures every N of the plan and prints one line per N (the winner, its spread, the runner-up and the
// margin) to `out`. The table's key and date are the caller's.
TuneResult run_tune(
    const TunePlan& plan, ShapeTimer& timer, std::FILE* out,
    const TuneGrids& grids = [](Precision p) { return tune_grid(p); });

}  // namespace nbody
