// nbody-bench --tune on the CUDA backend (the factory's row, seen through Backend only): the ShapeTimer that
// measures a kernel by switching the backend's shape in place (set_params keeps the bodies: no re-upload, no
// re-priming force evaluation), and the files the table goes to, named by the device's tuning key.
#include <cstdio>
#include <filesystem>

#include "bench/bench_cli.hpp"
#include "bench/bench_output.hpp"
#include "bench/paper_mode.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "engine/backend_rows.hpp"

namespace nbody {

namespace {

class BackendShapeTimer final : public ShapeTimer {
  public:
    BackendShapeTimer(Backend& gpu, const BenchOptions& o) : m_gpu(gpu), m_o(o) {}

    void load(std::size_t n, Precision prec) override {
        SimParams p;
        p.precision = prec;
        p.eps = m_o.eps;
        p.dt = 1e-4;  // small: the state barely moves while being timed, so every repeat does the same work
        p.kernel_auto = false;
        m_gpu.reset(bench_state(n, m_o.scene), p);
    }

    std::optional<ShapeSample> time(const TuneCandidate& c, int repeats) override {
        SimParams p = m_gpu.params();
        p.variant = c.variant;
        p.shape = c.shape;
        try {
            m_gpu.set_params(p);
        } catch (const ParamError& e) {  // the block does not fit this kernel's registers here
            std::fprintf(stderr, "skipped %s: %s\n", kernel_label(c.variant, c.shape).c_str(), e.what());
            return std::nullopt;
        }
        BenchTiming t = m_o.timing;
        t.repeats = repeats;
        ShapeSample s;
        s.rates = time_repeats(m_gpu, backend_clock_ms, t, s.row);  // its launch shape columns too
        s.q = s.row.q;
        s.row.backend = "cuda", s.row.variant = std::string(variant_name(c.variant));
        s.row.error.max_rel = -1;
        return s;
    }

  private:
    Backend& m_gpu;
    const BenchOptions& m_o;
};

}  // namespace

void run_tune_mode(const BenchOptions& o, const std::string& command) {
    const BackendRow& cuda = *find_backend_row(backend_rows(), BackendKind::Cuda);
    if (!cuda.unavailable().empty())
        throw Error("--tune measures CUDA kernels: this build has no CUDA backend");
    std::string why;
    auto gpu =
        try_make_backend(backend_rows(), BackendKind::Cuda, {}, &why);  // one GPU: the table is per GPU model
    if (!gpu) throw Error("--tune needs a CUDA device: " + why);
    const std::optional<TuningKey> tuned = gpu->readouts().tuning_key;
    if (!tuned) throw Error("--tune: the " + gpu->name() + " backend has no tuning key");
    const TuningKey key = *tuned;
    // Where the table goes, checked before a minute of measuring.
    std::vector<std::filesystem::path> files;
    const std::filesystem::path dir = tuning_cache_dir();
    if (!dir.empty()) files.push_back(dir / tuning_file_name(key));
    if (!o.tune_out.empty()) files.emplace_back(o.tune_out);
    if (files.empty())
        throw Error("no cache directory ($XDG_CACHE_HOME and $HOME are unset): give --tune-out FILE");
    for (const auto& f : files) {
        std::error_code ec;
        if (f.has_parent_path()) std::filesystem::create_directories(f.parent_path(), ec);
        if (ec)
            throw Error("cannot create " + f.parent_path().string() +
                        " for the tuning table: " + ec.message());
    }

    const TunePlan plan = tune_plan(o);
    const TuneGrids grids = tune_grids(o);
    std::printf("# tune: %s; %zu sizes; shapes per N:", describe(key).c_str(), plan.sizes.size());
    for (Precision p : plan.precisions)
        std::printf(" %s %zu", std::string(precision_name(p)).c_str(), grids(p).size());
    std::printf(" (+ q variants; fewer where a step is long); %d repeats of %.3g s; estimate %.0f s\n",
                plan.repeats, plan.seconds_per_repeat, tune_estimate_seconds(plan, grids));
    std::fflush(stdout);
    BackendShapeTimer timer(*gpu, o);
    TuneResult r = run_tune(plan, timer, stdout, grids);
    if (r.table.rows.empty()) throw Error("--tune: no kernel ran at any N");
    r.table.key = key;
    r.table.date = utc_now();
    for (const auto& f : files) {
        save_tuning_table(r.table, f);
        std::printf("wrote %s (%zu rows)\n", f.string().c_str(), r.table.rows.size());
    }
    if (!o.json.empty()) write_bench_json(o.json, {gpu->name(), r.table.date, command}, r.rows);

    r.table.source = files.front().string();
    std::printf("auto now picks:\n");
    for (Precision p : plan.precisions)
        for (std::size_t n :
             {std::size_t{1000}, std::size_t{7500}, std::size_t{10000}, std::size_t{18000},
              std::size_t{30000}, std::size_t{100000}, std::size_t{131072}, std::size_t{1} << 20}) {
            const KernelChoice c = choose_kernel(r.table, p, n);
            std::printf("  %-4s N = %9zu  %-44s %s\n", std::string(precision_name(p)).c_str(), n,
                        kernel_label(c.variant, c.shape).c_str(), describe(c).c_str());
        }
}

}  // namespace nbody
