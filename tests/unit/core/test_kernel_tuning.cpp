// The automatic kernel choice: lookup at and between measured N, the table's text form, cache files and
// the built-in H200 table.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "core/kernels/kernel_family.hpp"
#include "core/kernels/kernel_tuning.hpp"

using namespace nbody;
namespace fs = std::filesystem;

namespace {

constexpr KernelVariant IJ = KernelVariant::IJUnrolled;
constexpr Precision F32 = Precision::Fp32;

TuningRow row(std::size_t n, int k, int u, int block, double rate, int q = 0, Precision p = F32) {
    return {p, n, IJ, {k, u, block, q, 1}, rate, 0.01};
}

// Shape A is fast at small N and slow at large N, B the reverse, C second-best at both.
TuningTable crossing_table() {
    TuningTable t;
    t.key = {"Test GPU", 10, "1.2.3"};
    t.source = "test";
    t.rows = {row(1000, 2, 4, 512, 10e11),  row(1000, 8, 8, 512, 2e11),    row(1000, 4, 4, 256, 8e11),
              row(100000, 2, 4, 512, 2e11), row(100000, 8, 8, 512, 10e11), row(100000, 4, 4, 256, 8e11)};
    return t;
}

std::string choice_label(const KernelChoice& c) {
    return kernel_label(c.variant, c.shape);
}

// A fresh directory under the system's temporary one, removed at the end of the test.
struct TempDir {
    fs::path path =
        fs::temp_directory_path() / ("nbody-tuning-" + std::to_string(::getpid()) + "-" +
                                     testing::UnitTest::GetInstance()->current_test_info()->name());
    TempDir() { fs::remove_all(path), fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST(KernelTuning, MeasuredNGetsItsWinner) {
    const TuningTable t = crossing_table();
    const KernelChoice lo = choose_kernel(t, F32, 1000), hi = choose_kernel(t, F32, 100000);
    EXPECT_EQ(choice_label(lo), "ij-unrolled k 2 u 4 block 512 q auto");
    EXPECT_EQ(lo.n_below, 1000u);
    EXPECT_EQ(lo.n_above, 1000u);
    EXPECT_DOUBLE_EQ(lo.rate, 10e11);
    EXPECT_EQ(choice_label(hi), "ij-unrolled k 8 u 8 block 512 q auto");
    EXPECT_EQ(hi.source, "test");
}

TEST(KernelTuning, BetweenMeasuredNInterpolatesInLogN) {
    const TuningTable t = crossing_table();
    // Near 1,000 A's rate is nearly its measured 1e12; at the geometric mean A and B are both 6e11 and C's
    // steady 8e11 wins; near 100,000 B wins.
    const KernelChoice near_lo = choose_kernel(t, F32, 1100), mid = choose_kernel(t, F32, 10000),
                       near_hi = choose_kernel(t, F32, 90000);
    EXPECT_EQ(near_lo.shape, (KernelShape{2, 4, 512, 0, 1}));
    EXPECT_EQ(mid.shape, (KernelShape{4, 4, 256, 0, 1}));
    EXPECT_DOUBLE_EQ(mid.rate, 8e11);
    EXPECT_EQ(mid.n_below, 1000u);
    EXPECT_EQ(mid.n_above, 100000u);
    EXPECT_EQ(near_hi.shape, (KernelShape{8, 8, 512, 0, 1}));
    const double w = std::log(1.1) / std::log(100.0);
    EXPECT_NEAR(near_lo.rate, (1 - w) * 10e11 + w * 2e11, 1e3);
    EXPECT_NE(describe(mid).find("interpolated between N = 1,000 and 100,000"), std::string::npos)
        << describe(mid);
}

TEST(KernelTuning, OutsideTheMeasuredRangeTheNearestEnd) {
    const TuningTable t = crossing_table();
    for (std::size_t n : {0u, 1u, 999u})
        EXPECT_EQ(choose_kernel(t, F32, n).shape, (KernelShape{2, 4, 512, 0, 1})) << n;
    const KernelChoice big = choose_kernel(t, F32, std::size_t{1} << 26);
    EXPECT_EQ(big.shape, (KernelShape{8, 8, 512, 0, 1}));
    EXPECT_EQ(big.n_below, 100000u);
    EXPECT_NE(describe(big).find("measured at N = 100,000"), std::string::npos) << describe(big);
}

TEST(KernelTuning, WithoutCommonShapesTheNearerNeighbourInLogN) {
    TuningTable t;
    t.rows = {row(1000, 2, 4, 512, 1e12), row(1000, 4, 4, 512, 0.9e12, 32), row(100000, 8, 8, 512, 2e12)};
    EXPECT_EQ(choose_kernel(t, F32, 9000).shape, (KernelShape{2, 4, 512, 0, 1}));
    EXPECT_EQ(choose_kernel(t, F32, 11000).shape, (KernelShape{8, 8, 512, 0, 1}));
    EXPECT_EQ(choose_kernel(t, F32, 11000).n_below, 100000u);
}

TEST(KernelTuning, RefusedShapesAreSkippedAndNoneLeftGivesTheDefault) {
    const TuningTable t = crossing_table();
    const auto no_block_512 = [](KernelVariant, const KernelShape& s) { return s.block != 512; };
    EXPECT_EQ(choose_kernel(t, F32, 1000, no_block_512).shape, (KernelShape{4, 4, 256, 0, 1}));
    const KernelChoice none =
        choose_kernel(t, F32, 1000, [](KernelVariant, const KernelShape&) { return false; });
    EXPECT_EQ(none.shape, variant_info(IJ).default_shape);
    EXPECT_EQ(none.n_below, 0u);
    EXPECT_NE(describe(none).find("no usable row"), std::string::npos);
    EXPECT_EQ(choose_kernel(TuningTable{}, F32, 5000).shape, variant_info(IJ).default_shape);
    // Rows of another precision are not candidates: a table with fp32 rows only has nothing for ds.
    EXPECT_EQ(choose_kernel(t, Precision::DS, 1000).n_below, 0u);
    TuningTable mixed = t;
    mixed.rows.push_back(row(1000, 4, 4, 128, 5e11, 1, Precision::DS));
    EXPECT_EQ(choose_kernel(mixed, Precision::DS, 50000).shape, (KernelShape{4, 4, 128, 1, 1}));
    EXPECT_EQ(choose_kernel(mixed, F32, 1000).shape, (KernelShape{2, 4, 512, 0, 1}));
}

TEST(KernelTuning, TextRoundTrip) {
    TuningTable t = crossing_table();
    t.date = "2026-11-22T03:46:06Z";
    t.rows.push_back(
        {Precision::DS, 7500, KernelVariant::IUnrolled, {4, 1, 256, 32, 0}, 1.2345678e12, 0.0123});
    t.rows.push_back({Precision::Fp64, 7500, IJ, {2, 2, 128, 1, 16}, 2e11, 0});
    const std::string text = format_tuning_table(t);
    const TuningTable back = parse_tuning_table(text, "mem");
    EXPECT_EQ(back.key, t.key);
    EXPECT_EQ(back.date, t.date);
    EXPECT_EQ(back.source, "mem");
    ASSERT_EQ(back.rows.size(), t.rows.size());
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        EXPECT_EQ(back.rows[i].precision, t.rows[i].precision);
        EXPECT_EQ(back.rows[i].n, t.rows[i].n);
        EXPECT_EQ(back.rows[i].variant, t.rows[i].variant);
        EXPECT_EQ(back.rows[i].shape, t.rows[i].shape);
        EXPECT_NEAR(back.rows[i].rate / t.rows[i].rate, 1.0, 1e-6);
        EXPECT_NEAR(back.rows[i].spread, t.rows[i].spread, 1e-4);
    }
    EXPECT_EQ(format_tuning_table(back), text);
}

// Each broken table is refused with its file and line and what is wrong.
TEST(KernelTuning, CorruptTablesAreRefusedWithALocatedMessage) {
    const std::string head = "nbody-tuning 1\ngpu G\nsms 4\ndriver 1.0\n";
    const std::string good = head + "row fp32 1000 ij 2 4 256 0 1 1e12 0.01\n";
    ASSERT_NO_THROW(parse_tuning_table(good, "t"));
    const struct {
        std::string text, message;
    } cases[] = {
        {"", "t: empty: not a tuning table"},
        {"# only a comment\n\n", "t: empty: not a tuning table"},
        {"hello\n", "t:1: not an nbody-sandbox tuning table"},
        {"\n# c\nnbody-tuning 2\n", "t:3: format version 2; this program reads version 1"},
        {"nbody-tuning x\n", "t:1: not an nbody-sandbox"},
        {head, "t: no rows"},
        {"nbody-tuning 1\nsms 4\ndriver 1\nrow fp32 1 ij 2 4 256 0 1 1 0\n", "t: no 'gpu' line"},
        {"nbody-tuning 1\ngpu G\ndriver 1\nrow fp32 1 ij 2 4 256 0 1 1 0\n", "t: no 'sms' line"},
        {"nbody-tuning 1\ngpu G\nsms 4\nrow fp32 1 ij 2 4 256 0 1 1 0\n", "t: no 'driver' line"},
        {good + "gpu H\n", "t:6: second 'gpu' line"},
        {good + "sms 5\n", "t:6: second 'sms' line"},
        {"nbody-tuning 1\ngpu G\nsms\n",
         "t:3: sms: expected a multiprocessor count from 1 to 100000 (got '')"},
        {"nbody-tuning 1\nsms 0\n", "t:2: sms: expected a multiprocessor count"},
        {head + "gpu\n", "t:5: second 'gpu' line"},
        {"nbody-tuning 1\ngpu\n", "t:2: gpu: empty"},
        {good + "colour red\n", "t:6: unknown key 'colour'"},
        {head + "row fp32 1000 ij 2 4 256 0 1 1e12\n", "t:5: row: expected 10 fields (precision n variant"},
        {head + "row 1000 ij 2 4 256 0 1 1e12 0 0\n",
         "t:5: row: precision must be fp32, ds, fp64 (got '1000')"},
        {head + "row fp16 1000 ij 2 4 256 0 1 1e12 0\n", "t:5: row: precision must be"},
        {head + "row fp32 1000 ij 2 4 256 0 65 1e12 0\n", "t:5: row: s:"},
        {head + "row fp32 1000 ij 2 4 256 0 -1 1e12 0\n", "t:5: row: s:"},
        {head + "row fp32 1000 ij 2 4 256 0 s 1e12 0\n", "t:5: row: s must be a whole number (got 's')"},
        {head + "row fp32 0 ij 2 4 256 0 1 1e12 0\n",
         "t:5: row: n must be a whole number from 1 to 1073741824 (got '0')"},
        {head + "row fp32 -5 ij 2 4 256 0 1 1e12 0\n", "t:5: row: n must be"},
        {head + "row fp32 1e3 ij 2 4 256 0 1 1e12 0\n", "t:5: row: n must be"},
        {head + "row fp32 2147483648 ij 2 4 256 0 1 1e12 0\n", "t:5: row: n must be"},
        {head + "row fp32 99999999999999999999999 ij 2 4 256 0 1 1e12 0\n", "t:5: row: n must be"},
        {head + "row fp32 1000 warp 2 4 256 0 1 1e12 0\n", "t:5: row: unknown variant 'warp'"},
        {head + "row fp32 1000 tensor 1 1 128 0 1 1e12 0\n",
         "t:5: row: variant 'tensor' is not chosen automatically"},
        {head + "row fp32 1000 ij 3 4 256 0 1 1e12 0\n",
         "t:5: row: k: variant ij-unrolled allows k in {2, 4, 8} (got 3)"},
        {head + "row fp32 1000 ij 2 4 256 3 1 1e12 0\n", "t:5: row: q: threads per body must be"},
        {head + "row fp32 1000 ij 2 4 100 0 1 1e12 0\n", "t:5: row: block: must be a multiple of 32"},
        {head + "row fp32 1000 ij 2 4 256 x 1 1e12 0\n", "t:5: row: q must be a whole number (got 'x')"},
        {head + "row fp32 1000 ij 2 4 256 0 1 nan 0\n", "t:5: row: interactions/s must be"},
        {head + "row fp32 1000 ij 2 4 256 0 1 inf 0\n", "t:5: row: interactions/s must be"},
        {head + "row fp32 1000 ij 2 4 256 0 1 -1e12 0\n", "t:5: row: interactions/s must be"},
        {head + "row fp32 1000 ij 2 4 256 0 1 1e12 -0.5\n", "t:5: row: spread must be"},
        {head + "row fp32 1000 ij 2 4 256 0 1 1e12 0.01x\n", "t:5: row: spread must be"},
        {head + "row fp32 1000 ij 2 4 256 0 1 1e12 0\x01\n", "t:5: control character 1"},
        {head + std::string(1500, 'x') + "\n", "t:5: line longer than 1000 characters"},
        {std::string(kTuningFileMaxBytes + 1, '#'), "t: larger than 1048576 bytes"},
    };
    for (const auto& c : cases) {
        try {
            parse_tuning_table(c.text, "t");
            ADD_FAILURE() << "accepted: " << c.text.substr(0, 200);
        } catch (const TuningFileError& e) {
            EXPECT_EQ(std::string(e.what()).rfind(c.message, 0), 0u)
                << "got: " << e.what() << "\nwant: " << c.message;
            EXPECT_EQ(e.file, "t");
        }
    }
}

// Random byte edits of a good table (a bounded, deterministic stand-in for the fuzzer): each either parses
// into rows that validate or is refused with a TuningFileError, never anything else.
TEST(KernelTuning, MutatedTablesParseOrAreRefused) {
    const std::string good = format_tuning_table(builtin_tuning_table());
    std::mt19937 rng(12345);
    int parsed = 0, refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::string t = good;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % t.size();
            switch (rng() % 3) {
                case 0:
                    t[at] = static_cast<char>(rng() % 256);
                    break;
                case 1:
                    t.erase(at, 1 + rng() % 8);
                    break;
                default:
                    t.insert(at, 1, " \n0.e-x#9"[rng() % 9]);
            }
            if (t.empty()) t.assign(1, 'x');
        }
        try {
            const TuningTable r = parse_tuning_table(t, "m");
            for (const TuningRow& x : r.rows) EXPECT_NO_THROW(validate_shape(x.variant, x.shape));
            ++parsed;
        } catch (const TuningFileError&) {
            ++refused;
        }
    }
    EXPECT_GT(parsed, 0);
    EXPECT_GT(refused, 0);
}

TEST(KernelTuning, BuiltInTableCoversEveryNAndPrecision) {
    const TuningTable& t = builtin_tuning_table();
    EXPECT_EQ(t.key.gpu, "NVIDIA H200");
    EXPECT_EQ(t.key.sms, 132);
    EXPECT_NE(t.source.find("built-in"), std::string::npos);
    std::vector<std::size_t> ns = {1, 2, 3, 31, 33, 255, 257, 7499, 7500, 100003, std::size_t{1} << 26};
    for (double x = 0; x <= 26; x += 0.125) ns.push_back(static_cast<std::size_t>(std::exp2(x)));
    for (const auto& p : precision_table())
        for (std::size_t n : ns) {
            const KernelChoice c = choose_kernel(t, p.value, n);
            EXPECT_GT(c.n_below, 0u) << n;
            EXPECT_GT(c.rate, 1e11) << n;
            EXPECT_NO_THROW(plan_launch(c.variant, c.shape, n, t.key.sms)) << n << " " << choice_label(c);
        }
}

// The built-in table is an H200 --tune output (core/kernels/kernel_tuning_h200.txt): at every N it measured, auto takes
// that N's fastest row, and between two measured sizes a rate between theirs.
TEST(KernelTuning, BuiltInTableGivesTheMeasuredH200Winners) {
    const TuningTable& t = builtin_tuning_table();
    std::map<std::pair<int, std::size_t>, const TuningRow*> best;
    for (const TuningRow& r : t.rows) {
        const TuningRow*& b = best[{static_cast<int>(r.precision), r.n}];
        if (!b || r.rate > b->rate) b = &r;
    }
    ASSERT_GE(best.size(), 3u * 10u);  // 10 sizes in each precision
    for (const auto& [key, row] : best) {
        const KernelChoice c = choose_kernel(t, row->precision, row->n);
        EXPECT_EQ(c.n_below, row->n);
        EXPECT_EQ(c.variant, row->variant) << row->n;
        EXPECT_EQ(c.shape, row->shape) << row->n;
        EXPECT_DOUBLE_EQ(c.rate, row->rate) << row->n;
    }
    // What the H200 reaches (docs/performance.md): the table is a real measurement, not a placeholder.
    EXPECT_GT(choose_kernel(t, F32, 131072).rate, 2.7e12);  // the pairs family
    EXPECT_GT(choose_kernel(t, Precision::Fp64, 131072).rate, 0.85e12);
    const KernelChoice mid = choose_kernel(t, F32, 180000);
    EXPECT_EQ(mid.n_below, 131072u);
    EXPECT_EQ(mid.n_above, 262144u);
    const double lo = best[{static_cast<int>(F32), 131072}]->rate, hi = best[{static_cast<int>(F32), 262144}]->rate;
    EXPECT_GE(mid.rate, std::min(lo, hi) * 0.999);
    EXPECT_LE(mid.rate, std::max(lo, hi) * 1.001);
}

TEST(KernelTuning, CacheDirectoryFollowsXdg) {
    EXPECT_EQ(tuning_cache_dir("/x/cache", "/home/u"), fs::path("/x/cache/nbody-sandbox"));
    EXPECT_EQ(tuning_cache_dir("relative/cache", "/home/u"), fs::path("/home/u/.cache/nbody-sandbox"));
    EXPECT_EQ(tuning_cache_dir("", "/home/u"), fs::path("/home/u/.cache/nbody-sandbox"));
    EXPECT_EQ(tuning_cache_dir(nullptr, nullptr), fs::path());
    EXPECT_EQ(tuning_file_name({"NVIDIA H200", 132, "580.159.04"}), "tuning-NVIDIA-H200-580.159.04.txt");
    const std::string odd = tuning_file_name({"a/../b\\c d", 7, "cuda 13.0"});
    EXPECT_EQ(odd.find('/'), std::string::npos) << odd;
    EXPECT_EQ(odd, "tuning-a-..-b-c-d-cuda-13.0.txt");
}

TEST(KernelTuning, CacheFileForThisGpuIsUsed) {
    TempDir dir;
    TuningTable t = crossing_table();
    const fs::path file = dir.path / "sub" / tuning_file_name(t.key);
    save_tuning_table(t, file);  // creates sub/
    const LoadedTuning got = load_tuning_table(t.key, dir.path / "sub");
    EXPECT_EQ(got.note, "");
    EXPECT_EQ(got.table.source, file.string());
    EXPECT_EQ(got.table.rows.size(), t.rows.size());
    EXPECT_EQ(choose_kernel(got.table, F32, 1000).source, file.string());
    EXPECT_FALSE(fs::exists(file.string() + ".tmp-" + std::to_string(::getpid())));
}

TEST(KernelTuning, BadOrForeignCacheFilesFallBackToTheBuiltInWithANote) {
    TempDir dir;
    const TuningKey key{"Test GPU", 10, "1.2.3"};
    const fs::path file = dir.path / tuning_file_name(key);
    const std::string builtin = builtin_tuning_table().source;

    const LoadedTuning missing = load_tuning_table(key, dir.path);
    EXPECT_EQ(missing.table.source, builtin);
    EXPECT_NE(missing.note.find("no tuning table for Test GPU"), std::string::npos) << missing.note;
    EXPECT_EQ(load_tuning_table(builtin_tuning_table().key, dir.path).note, "");  // the H200 itself: quiet

    write(file, "nbody-tuning 1\ngpu Test GPU\nsms 10\ndriver 1.2.3\nrow fp32 10 ij 2 4 256 0 1 bad 0\n");
    LoadedTuning bad = load_tuning_table(key, dir.path);
    EXPECT_EQ(bad.table.source, builtin);
    EXPECT_NE(bad.note.find(file.string() + ":5: row: interactions/s"), std::string::npos) << bad.note;
    EXPECT_EQ(bad.note.find('\n'), std::string::npos);

    write(file, "nbody-tuning 7\n");
    EXPECT_NE(load_tuning_table(key, dir.path).note.find(":1: format version 7"), std::string::npos);

    TuningTable other = crossing_table();
    other.key.driver = "9.9.9";  // measured under another driver, copied over this GPU's name
    save_tuning_table(other, file);
    bad = load_tuning_table(key, dir.path);
    EXPECT_EQ(bad.table.source, builtin);
    EXPECT_NE(bad.note.find(
                  "measured on Test GPU, 10 SMs, driver 9.9.9, not on this Test GPU, 10 SMs, driver 1.2.3"),
              std::string::npos)
        << bad.note;

    fs::remove(file);
    fs::create_directories(file);  // a directory where the file should be
    EXPECT_NE(load_tuning_table(key, dir.path).note.find("ignoring tuning table"), std::string::npos);
    EXPECT_EQ(load_tuning_table(key, fs::path()).table.source, builtin);  // no cache directory at all
}

TEST(KernelTuning, SaveFailureNamesThePath) {
    TempDir dir;
    write(dir.path / "file", "x");
    try {
        save_tuning_table(crossing_table(), dir.path / "file" / "t.tune");  // a file as the parent directory
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find((dir.path / "file").string()), std::string::npos) << e.what();
    }
}

TEST(KernelTuning, DriverReleaseFromProcText) {
    EXPECT_EQ(nvidia_driver_release("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Jul 24 "
                                    "2025\nGCC version: gcc 12.2.0\n"),
              "580.159.04");
    EXPECT_EQ(
        nvidia_driver_release("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release "
                              "Build  (dvs-builder@U16)"),
        "550.54.15");
    EXPECT_EQ(nvidia_driver_release("GCC version 12.2.0 on the second line\n"), "12.2.0");
    EXPECT_EQ(nvidia_driver_release("no numbers .5. 1.. here\n3.4"), "");
    EXPECT_EQ(nvidia_driver_release(""), "");
    const TuningKey k = device_tuning_key("G", 3, 13000);
    EXPECT_EQ(k.gpu, "G");
    EXPECT_EQ(k.sms, 3);
    if (!fs::exists("/proc/driver/nvidia/version")) {
        EXPECT_EQ(k.driver, "cuda 13.0");
    }
    EXPECT_EQ(device_tuning_key("G", 3, 0).driver.empty(), false);
}
