// nbody-bench --tune: its command line, and the search run against a model of a GPU (rates per shape and
// N, with noise) so what it measures, prunes and picks can be checked without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <variant>

#include "bench/bench_cli.hpp"
#include "bench/bench_output.hpp"
#include "bench/tune.hpp"
#include "core/kernels/kernel_family.hpp"

using namespace nbody;

namespace {

std::variant<BenchOptions, int> parse(std::vector<std::string> args) {
    args.insert(args.begin(), "nbody-bench");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return parse_bench_command_line(static_cast<int>(argv.size()), argv.data());
}

// Rates shaped like the H200's (docs/bench/performance-log.md): k = 2 best at small N, k = 8 at large N, block 512
// best at 7,500 and 131,072 (256 between them, other blocks 4% slower); a fixed q one step below the automatic one 1% faster from 100,000 up; below
// 30,000 the split over blocks (s automatic) 2% faster, 4% with q = 4; ds and fp64 at 0.55 and 0.45 of fp32.
// Shapes with block 512 and k = 8, u = 8 do not fit at all (as on a GPU with fewer registers), and ds and
// fp64 have no k or u of 8 (as compiled). Each repeat gets `noise` relative Gaussian noise. Time is
// simulated: every call adds what it would take on the GPU.
class ModelGpu final : public ShapeTimer {
  public:
    explicit ModelGpu(double noise, const TunePlan& plan) : m_noise(noise), m_plan(plan) {}

    static int auto_q(std::size_t n) { return n < 40000 ? 32 : n < 200000 ? 8 : n < 500000 ? 4 : 1; }

    static double rate(Precision p, std::size_t n, const KernelShape& s) {
        const double x = std::log2(static_cast<double>(n));  // 10 .. 20
        const double small = s.k == 2 ? 1.0 : s.k == 4 ? 0.95 : 0.8;
        const double large = s.k == 2 ? 0.93 : s.k == 4 ? 0.96 : 1.0;
        const double w = std::clamp((x - 13) / 4, 0.0, 1.0);
        double r = 2e12 * ((1 - w) * small + w * large) * (s.u == 4 ? 1.0 : 0.98);
        const bool big_blocks = n < 9000 || n > 120000;
        r *= s.block == 512 ? (big_blocks ? 1.0 : 0.97) : s.block == 256 ? (big_blocks ? 0.97 : 1.0) : 0.96;
        if (s.s == 0)
            r *= n < 30000 ? (s.q == 4 ? 1.04 : s.q == 1 ? 1.02 : 1.0) : 0.99;
        else if (s.q != 0)
            r *= (n >= 100000 && s.q == auto_q(n) / 2) ? 1.01 : 0.95;
        r *= p == Precision::Fp32 ? 1.0 : p == Precision::DS ? 0.55 : 0.45;
        return r * std::min(1.0, 0.4 + x / 25);
    }

    static bool runs(Precision p, const KernelShape& s) {
        if (s.k == 8 && s.u == 8 && s.block == 512) return false;
        return p == Precision::Fp32 || (s.k <= 4 && s.u <= 4);
    }

    // Each (precision, N) draws its own noise, so the kernels measured at one do not move the draws at another.
    void load(std::size_t n, Precision p) override {
        m_n = n, m_p = p;
        m_rng.seed(static_cast<unsigned>(2026 + 7 * n + static_cast<int>(p)));
    }

    std::optional<ShapeSample> time(const TuneCandidate& c, int repeats) override {
        ++calls[{m_p, m_n}];
        if (!runs(m_p, c.shape)) return std::nullopt;
        ShapeSample s;
        s.q = c.shape.q ? c.shape.q : auto_q(m_n);
        const double truth = rate(m_p, m_n, c.shape);
        std::normal_distribution<double> noise(1.0, m_noise);
        for (int r = 0; r < repeats; ++r) s.rates.push_back(truth * noise(m_rng));
        s.row.n = m_n;
        s.row.rate.interactions_per_s = truth;
        const double step = static_cast<double>(m_n) * static_cast<double>(m_n) / truth;
        seconds += (1 + repeats) * std::max(m_plan.seconds_per_repeat, step);
        return s;
    }

    std::map<std::pair<Precision, std::size_t>, int> calls;
    double seconds = 0;

  private:
    double m_noise;
    const TunePlan& m_plan;
    std::size_t m_n = 0;
    Precision m_p = Precision::Fp32;
    std::mt19937 m_rng{2026};
};

// The model's fastest runnable kernel at n among those the tuner measured.
KernelShape model_best(const TuningTable& t, Precision p, std::size_t n) {
    KernelShape best{};
    double r = 0;
    for (const TuningRow& x : t.rows)
        if (x.precision == p && x.n == n && ModelGpu::rate(p, n, x.shape) > r)
            best = x.shape, r = ModelGpu::rate(p, n, x.shape);
    return best;
}

TunePlan default_plan() {
    TunePlan p;
    p.sizes = default_tune_sizes();
    return p;
}

struct Captured {
    std::FILE* f = std::tmpfile();
    ~Captured() { std::fclose(f); }
    std::string text() const {
        std::rewind(f);
        std::string s;
        for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
        return s;
    }
};

}  // namespace

TEST(TuneCommandLine, TuneTakesItsOwnSizesAndTiming) {
    auto r = parse({"--tune"});
    ASSERT_TRUE(std::holds_alternative<BenchOptions>(r));
    const BenchOptions& o = std::get<BenchOptions>(r);
    EXPECT_TRUE(o.tune);
    const TunePlan p = tune_plan(o);
    EXPECT_EQ(p.sizes, default_tune_sizes());
    EXPECT_DOUBLE_EQ(p.seconds_per_repeat, 0.005);
    EXPECT_EQ(p.repeats, 3);
    EXPECT_LE(o.timing.warmup_seconds, 0.0025);
    EXPECT_EQ(p.precisions, (std::vector<Precision>{Precision::Fp32, Precision::DS, Precision::Fp64}));
    const TuneGrids grids = tune_grids(o);
    const auto fp32 = grids(Precision::Fp32);
    ASSERT_EQ(fp32.size(), 36u);  // 24 ij-unrolled shapes and 12 of the pairs family
    EXPECT_EQ(std::count_if(fp32.begin(), fp32.end(),
                            [](const TuneCandidate& c) { return c.variant == KernelVariant::Pairs; }),
              12);
    EXPECT_EQ(grids(Precision::DS).size(), 16u);
    EXPECT_EQ(grids(Precision::Fp64).size(), 16u);
    // The whole default tune: well under a minute on the H200's rates (~1e12 interactions/s in fp64).
    EXPECT_LT(tune_estimate_seconds(p, grids), 60.0);
    EXPECT_GT(tune_estimate_seconds(p, grids), 10.0);
    for (std::size_t n : {std::size_t{7500}, std::size_t{10000}, std::size_t{18000}, std::size_t{100000},
                          std::size_t{131072}})
        EXPECT_NE(std::find(p.sizes.begin(), p.sizes.end(), n), p.sizes.end()) << n;
    EXPECT_LE(p.sizes.front(), 1000u);
    EXPECT_GE(p.sizes.back(), 262144u);

    // Without --tune the benchmark keeps its defaults.
    const BenchOptions plain = std::get<BenchOptions>(parse({}));
    EXPECT_FALSE(plain.tune);
    EXPECT_EQ(plain.sizes, (std::vector<long long>{7500, 10000, 18000, 100000, 131072}));
    EXPECT_DOUBLE_EQ(plain.timing.seconds_per_repeat, 0.25);
}

TEST(TuneCommandLine, GivenSizesTimingAndGridAreUsed) {
    auto r = parse({"--tune", "--sizes", "5000,1000,5000", "--seconds", "0.05", "--repeats", "5", "--k", "8",
                    "--u", "4,8", "--block", "512", "--tune-out", "/tmp/t.tune", "--json", "/tmp/t.json",
                    "--precisions", "ds,fp32,ds"});
    ASSERT_TRUE(std::holds_alternative<BenchOptions>(r));
    const BenchOptions& o = std::get<BenchOptions>(r);
    const TunePlan p = tune_plan(o);
    EXPECT_EQ(p.sizes, (std::vector<std::size_t>{1000, 5000}));
    EXPECT_DOUBLE_EQ(p.seconds_per_repeat, 0.05);
    EXPECT_EQ(p.repeats, 5);
    EXPECT_EQ(o.tune_out, "/tmp/t.tune");
    EXPECT_EQ(p.precisions, (std::vector<Precision>{Precision::DS, Precision::Fp32}));
    const auto grid = tune_grids(o)(Precision::DS);
    ASSERT_EQ(grid.size(), 4u);
    EXPECT_EQ(grid[0].shape, (KernelShape{8, 4, 512, 0, 1}));
    EXPECT_EQ(grid[1].shape, (KernelShape{8, 4, 512, 1, 0}));
    EXPECT_EQ(grid[3].shape, (KernelShape{8, 8, 512, 1, 0}));
}

TEST(TuneCommandLine, ConflictsAndBadGridValuesAreRefused) {
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const auto out_alone = parse({"--tune-out", "x.tune"});
    const auto with_paper = parse({"--tune", "--paper"});
    const auto with_variants = parse({"--tune", "--variants", "ij"});
    const auto with_q = parse({"--tune", "--q", "4"});
    const auto with_cpu = parse({"--cpu", "--tune"});
    const auto with_s = parse({"--tune", "--s", "0"});
    const auto with_parts = parse({"--tune", "--parts-per-gpu", "2"});
    const auto parts_13 = parse({"--parts-per-gpu", "13"});
    const auto parts_0 = parse({"--parts-per-gpu", "0"});
    const std::string text = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
    for (const auto* r : {&out_alone, &with_paper, &with_variants, &with_q, &with_cpu, &with_s, &with_parts, &parts_13,
                          &parts_0}) {
        ASSERT_TRUE(std::holds_alternative<int>(*r));
        EXPECT_NE(std::get<int>(*r), 0);
    }
    EXPECT_NE(text.find("--tune-out requires --tune"), std::string::npos) << text;
    EXPECT_NE(text.find("--parts-per-gpu: Value 13 not in range 1 to 12"), std::string::npos) << text;
    EXPECT_EQ(std::get<BenchOptions>(parse({"--parts-per-gpu", "3"})).parts_per_gpu, 3);
    EXPECT_NE(text.find("excludes"), std::string::npos) << text;

    const BenchOptions bad_k = std::get<BenchOptions>(parse({"--tune", "--k", "3"}));
    try {
        tune_grids(bad_k);
        FAIL();
    } catch (const ParamError& e) {
        EXPECT_STREQ(e.what(), "--k: variant ij-unrolled allows k in {2, 4, 8} (got 3)");
    }
    EXPECT_THROW(tune_grids(std::get<BenchOptions>(parse({"--tune", "--block", "100"}))), ParamError);
    EXPECT_THROW(tune_grids(std::get<BenchOptions>(parse({"--tune", "--u", "1"}))), ParamError);
}

// Here (no GPU, or no cache directory and no --tune-out) --tune stops with a reason before measuring.
TEST(TuneCommandLine, TuneWithoutADeviceOrDestinationIsAnError) {
    const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const std::string xdg_saved = xdg ? xdg : "";
    ::unsetenv("HOME");
    ::unsetenv("XDG_CACHE_HOME");
    const BenchOptions o = std::get<BenchOptions>(parse({"--tune", "--sizes", "1000"}));
    EXPECT_THROW(run_tune_mode(o, "nbody-bench --tune"), Error);
    if (!home.empty()) ::setenv("HOME", home.c_str(), 1);
    if (xdg) ::setenv("XDG_CACHE_HOME", xdg_saved.c_str(), 1);
}

TEST(Tune, PicksTheFastestKernelAtEveryN) {
    const TunePlan plan = default_plan();
    ModelGpu gpu(0.003, plan);
    Captured out;
    const TuneResult r = run_tune(plan, gpu, out.f);
    for (Precision p : plan.precisions)
        for (std::size_t n : plan.sizes) {
            const KernelChoice c = choose_kernel(r.table, p, n);
            EXPECT_EQ(c.shape, model_best(r.table, p, n)) << precision_name(p) << " N " << n << "\n"
                                                          << out.text();
            EXPECT_EQ(c.n_below, n);
        }
    constexpr Precision F32 = Precision::Fp32;
    // The model's crossovers: k = 2 in blocks of 512 split over blocks with q 4 (a q variant) at 1,000,
    // blocks of 256 at 10,000, k = 8 with a fixed q at 131,072; ds and fp64 only what they compile.
    EXPECT_EQ(choose_kernel(r.table, F32, 1000).shape, (KernelShape{2, 4, 512, 4, 0}));
    EXPECT_EQ(choose_kernel(r.table, F32, 10000).shape, (KernelShape{2, 4, 256, 4, 0}));
    EXPECT_EQ(choose_kernel(r.table, F32, 131072).shape, (KernelShape{8, 4, 512, 4, 1}));
    EXPECT_EQ(choose_kernel(r.table, Precision::DS, 131072).shape.k, 4);
    const KernelShape f64 = choose_kernel(r.table, Precision::Fp64, 1000).shape;  // blocks 128 and 256 tie
    EXPECT_EQ((KernelShape{f64.k, f64.u, 256, f64.q, f64.s}), (KernelShape{2, 4, 256, 4, 0}));
    // Kernels that cannot run are not in the table; rows of each (precision, N) are best first.
    for (const TuningRow& x : r.table.rows)
        EXPECT_TRUE(ModelGpu::runs(x.precision, x.shape)) << kernel_label(x.variant, x.shape);
    for (std::size_t i = 1; i < r.table.rows.size(); ++i)
        if (r.table.rows[i].n == r.table.rows[i - 1].n &&
            r.table.rows[i].precision == r.table.rows[i - 1].precision) {
            EXPECT_LE(r.table.rows[i].rate, r.table.rows[i - 1].rate);
        }
    EXPECT_EQ(r.rows.size(), r.table.rows.size());
    const std::string text = out.text();
    EXPECT_NE(text.find("fp32 N =     7,500  ij-unrolled k 2 u 4 block 512 q 4 s auto"), std::string::npos)
        << text;
    EXPECT_NE(text.find("fp64 N =   262,144  "), std::string::npos) << text;
    EXPECT_NE(text.find("next: "), std::string::npos);
    // What it wrote reads back as the table auto uses.
    TuningTable keyed = r.table;
    keyed.key = {"Model GPU", 132, "1.0"};
    const TuningTable back = parse_tuning_table(format_tuning_table(keyed), "tuned");
    EXPECT_EQ(choose_kernel(back, F32, 131072).shape, (KernelShape{8, 4, 512, 4, 1}));
}

// On the H200's rates the default plan costs well under a minute of GPU time: the full grid and q
// variants at every N, cut to the previous N's best where a step takes long. The estimate nbody-bench
// prints beforehand is within a factor of 1.5 of it.
TEST(Tune, DefaultPlanFitsTheTimeBudget) {
    const TunePlan plan = default_plan();
    ModelGpu gpu(0.003, plan);
    Captured out;
    run_tune(plan, gpu, out.f);
    EXPECT_LT(gpu.seconds, 45.0) << out.text();
    const double estimate = tune_estimate_seconds(
        plan, [](Precision p) { return tune_grid(p); }, 1e12);
    EXPECT_LT(estimate, 1.5 * gpu.seconds);
    EXPECT_GT(estimate, gpu.seconds / 1.5);
    const int grid = static_cast<int>(tune_grid(Precision::Fp32).size());
    EXPECT_GE((gpu.calls[{Precision::Fp32, 7500}]), grid + 3);  // grid, q variants and confirmation repeats
    EXPECT_GE((gpu.calls[{Precision::Fp32, 131072}]), grid + 3);
    // fp64 at 262,144: ~80 ms a step, the list cut to what fits the 2 s per N and no q variants.
    EXPECT_LT((gpu.calls[{Precision::Fp64, 262144}]), (gpu.calls[{Precision::Fp64, 7500}] - 9));
}

// With noise of the order of the gaps between kernels, the pooled repeats still pick a kernel within the
// noise of the best, and the report says when the winner's lead is inside the spread.
TEST(Tune, NoisyMeasurementsPickWithinTheNoiseAndSaySo) {
    TunePlan plan = default_plan();
    plan.sizes = {7500, 100000};
    plan.precisions = {Precision::Fp32};
    ModelGpu gpu(0.02, plan);
    Captured out;
    const TuneResult r = run_tune(plan, gpu, out.f);
    for (std::size_t n : plan.sizes) {
        const KernelChoice c = choose_kernel(r.table, Precision::Fp32, n);
        EXPECT_GT(ModelGpu::rate(Precision::Fp32, n, c.shape),
                  0.95 * ModelGpu::rate(Precision::Fp32, n, model_best(r.table, Precision::Fp32, n)))
            << n;
    }
    // The leaders got the confirmation repeats (3 + 4), the rest only the first pass.
    std::size_t pooled = 0;
    for (const BenchRow& row : r.rows) pooled += row.repeats == 7;
    EXPECT_EQ(pooled, 6u);
    for (const TuningRow& x : r.table.rows) EXPECT_GT(x.spread, 0.0);
    EXPECT_NE(out.text().find("(within the spread)"), std::string::npos) << out.text();
}

TEST(Tune, NothingRunsGivesAnEmptyTableAndSaysSo) {
    struct Refuses final : ShapeTimer {
        void load(std::size_t, Precision) override {}
        std::optional<ShapeSample> time(const TuneCandidate&, int) override { return std::nullopt; }
    } none;
    TunePlan plan;
    plan.sizes = {1000};
    Captured out;
    EXPECT_TRUE(run_tune(plan, none, out.f).table.rows.empty());
    EXPECT_NE(out.text().find("fp32 N = 1,000: no kernel ran"), std::string::npos) << out.text();
    EXPECT_NE(out.text().find("fp64 N = 1,000: no kernel ran"), std::string::npos) << out.text();
}

// A GPU with a given rate per shape that resolves an automatic q and s to fixed values (what the planner would
// choose) and records every shape it was asked to time.
class ScriptedGpu final : public ShapeTimer {
  public:
    ScriptedGpu(int auto_q, int auto_s, std::function<double(const KernelShape&)> rate)
        : m_q(auto_q), m_s(auto_s), m_rate(std::move(rate)) {}
    void load(std::size_t, Precision) override {}
    std::optional<ShapeSample> time(const TuneCandidate& c, int repeats) override {
        ShapeSample s;
        s.q = c.shape.q ? c.shape.q : m_q;
        s.row.s = c.shape.s ? c.shape.s : m_s;
        s.rates.assign(static_cast<std::size_t>(repeats), m_rate(c.shape));
        measured.push_back(c.shape);
        return s;
    }
    bool was_measured(const KernelShape& x) const {
        return std::find(measured.begin(), measured.end(), x) != measured.end();
    }
    std::vector<KernelShape> measured;

  private:
    int m_q, m_s;
    std::function<double(const KernelShape&)> m_rate;
};

// Tunes fp32 at one N over a grid of ij shapes.
TuneResult tune_fp32_at(std::size_t n, ScriptedGpu& gpu, const std::vector<KernelShape>& grid, Captured& out) {
    TunePlan plan;
    plan.precisions = {Precision::Fp32};
    plan.sizes = {n};
    return run_tune(plan, gpu, out.f, [&](Precision) {
        std::vector<TuneCandidate> g;
        for (const KernelShape& x : grid) g.push_back({KernelVariant::IJUnrolled, x});
        return g;
    });
}

// The planner's automatic s is a guess from a time model: beside the best automatic-s kernels the tuner also
// measures the split count it resolved one less, one more and doubled (at the q it ran with), so a GPU on
// which 9 splits beat the planner's 8 gets 9 in its table.
TEST(Tune, ExplicitSplitsBesideTheResolvedOne) {
    ScriptedGpu gpu(4, 8, [](const KernelShape& x) {
        return (x.s == 0 ? 1.0e12 : x.s == 9 ? 1.05e12 : 0.9e12) * (x.k == 2 ? 1.0 : 0.8);
    });
    Captured out;
    const TuneResult r = tune_fp32_at(18000, gpu, {{2, 4, 256, 0, 0}, {4, 4, 256, 0, 0}}, out);
    EXPECT_EQ(choose_kernel(r.table, Precision::Fp32, 18000).shape, (KernelShape{2, 4, 256, 4, 9})) << out.text();
    EXPECT_TRUE(gpu.was_measured({2, 4, 256, 4, 7}));
    EXPECT_TRUE(gpu.was_measured({2, 4, 256, 4, 16}));
}

// At small N a block a warp or two smaller can fill SMs that blocks of 512 leave idle (N = 7,500, q = 32: 118
// blocks of 512 on 132 SMs, 125 of 480). Beside the best kernels the tuner measures their blocks one to three
// warps smaller, and an automatic q of 32 split over 2 to 4 blocks; a GPU on which 480 wins gets 480.
TEST(Tune, SmallerBlocksAndSplitsOfALargeQBesideTheBest) {
    ScriptedGpu gpu(32, 1, [](const KernelShape& x) {
        return (x.block == 480 ? 1.06e12 : 1.0e12) * (x.k == 4 ? 1.0 : 0.9) * (x.s == 1 ? 1.0 : 0.95);
    });
    Captured out;
    const TuneResult r = tune_fp32_at(7500, gpu, {{4, 4, 512, 0, 1}, {2, 4, 512, 0, 1}}, out);
    EXPECT_EQ(choose_kernel(r.table, Precision::Fp32, 7500).shape, (KernelShape{4, 4, 480, 0, 1})) << out.text();
    for (int block : {480, 448, 416}) EXPECT_TRUE(gpu.was_measured({4, 4, block, 0, 1})) << block;
    for (int splits : {2, 3, 4}) EXPECT_TRUE(gpu.was_measured({4, 4, 512, 32, splits})) << splits;
}
