// The decomposition over ranks, in one process (ranks as threads on a ThreadHub): range splitting, the
// gather's order, the timeout on a missing rank, and a distributed CPU run bit-identical to one rank.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "multi/distributed_backend.hpp"
#include "test_util.hpp"

namespace nbody {
namespace {

TEST(SplitRanges, CoverEveryIndexOnceWithSizesWithinOne) {
    for (std::size_t n : {0u, 1u, 3u, 1000u, 1001u}) {
        for (int parts : {1, 2, 3, 4, 7}) {
            const auto r = split_ranges(n, parts);
            ASSERT_EQ(r.size(), static_cast<std::size_t>(parts));
            std::size_t next = 0, lo = n, hi = 0;
            for (const IndexRange& g : r) {
                EXPECT_EQ(g.begin, next);
                next = g.end;
                lo = std::min(lo, g.size()), hi = std::max(hi, g.size());
            }
            EXPECT_EQ(next, n);
            EXPECT_LE(hi - std::min(lo, hi), 1u) << "n " << n << " parts " << parts;
        }
    }
    EXPECT_THROW(split_ranges(10, 0), ParamError);
}

// Runs fn(that rank's exchange) on `ranks` threads and rethrows the first failure.
template <class Fn>
void on_ranks(int ranks, Fn fn) {
    ThreadHub hub(ranks);
    std::vector<std::thread> threads;
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            try {
                fn(hub.join(r));
            } catch (...) {
                errors[static_cast<std::size_t>(r)] = std::current_exception();
            }
        });
    for (auto& t : threads) t.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

TEST(ThreadExchange, GatherPutsEveryRangeFromItsOwner) {
    const std::size_t n = 103;
    on_ranks(4, [&](std::unique_ptr<Exchange> exp) {
        Exchange& ex = *exp;
        const auto ranges = split_ranges(n, ex.size());
        std::vector<Double4> all(n, Double4{-1, -1, -1, -1});
        for (int round = 0; round < 3; ++round) {  // repeated gathers: no rank reads a range being rewritten
            const IndexRange own = ranges[static_cast<std::size_t>(ex.rank())];
            for (std::size_t i = own.begin; i < own.end; ++i)
                all[i] = {double(ex.rank()), double(i), double(round), 0};
            ex.all_gather(all, ranges);
            for (int r = 0; r < ex.size(); ++r)
                for (std::size_t i = ranges[r].begin; i < ranges[r].end; ++i) {
                    ASSERT_EQ(all[i].x, r);
                    ASSERT_EQ(all[i].y, double(i));
                    ASSERT_EQ(all[i].z, round);
                }
        }
    });
}

// The tree's gathers: float4 runs of any sizes (an empty one included), and every rank's list of values.
TEST(ThreadExchange, RunsAndValuesComeFromTheirOwners) {
    const std::size_t n = 50;
    const std::vector<IndexRange> runs = {{0, 17}, {17, 17}, {17, 44}, {44, 50}};
    on_ranks(4, [&](std::unique_ptr<Exchange> exp) {
        Exchange& ex = *exp;
        std::vector<Float4> all(n, Float4{-1, -1, -1, -1});
        const IndexRange own = runs[static_cast<std::size_t>(ex.rank())];
        for (std::size_t i = own.begin; i < own.end; ++i) all[i] = {float(ex.rank()), float(i), 0, 0};
        ex.all_gather_runs(all, runs);
        for (int r = 0; r < ex.size(); ++r)
            for (std::size_t i = runs[r].begin; i < runs[r].end; ++i) {
                ASSERT_EQ(all[i].x, float(r));
                ASSERT_EQ(all[i].y, float(i));
            }
        // Five values a rank: two Double4 slots each, the second half used.
        const std::vector<double> mine = {double(ex.rank()), 1.5, -2.0, 1e12 + ex.rank(), 7.0};
        const std::vector<double> got = ex.all_values(mine);
        ASSERT_EQ(got.size(), 5u * 4u);
        for (std::size_t r = 0; r < 4; ++r) {
            EXPECT_EQ(got[5 * r], double(r));
            EXPECT_EQ(got[5 * r + 3], 1e12 + double(r));
            EXPECT_EQ(got[5 * r + 4], 7.0);
        }
    });
}

TEST(ThreadExchange, MissingRankTimesOutWithAMessage) {
    ThreadHub hub(2);
    auto ex = hub.join(0);  // rank 1 never arrives: a dead rank
    ex->timeout = std::chrono::milliseconds(50);
    try {
        ex->barrier();
        FAIL() << "barrier returned without rank 1";
    } catch (const BackendError& e) {
        EXPECT_NE(std::string(e.what()).find("1 of 2 ranks"), std::string::npos) << e.what();
    }
}

bool same_bits(const State& a, const State& b) {
    return a.size() == b.size() &&
           std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Double4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Double4)) == 0;
}

TEST(DistributedBackend, CpuOverRanksIsBitIdenticalToOneRank) {
    const State s0 = test::plummer_state(601);  // odd N: unequal ranges
    SimParams p;
    p.dt = 0.002;
    CpuBackend single(1);
    single.reset(s0, p);
    single.step(60);
    State want;
    single.read_state(want);
    for (int ranks : {2, 3, 4}) {
        std::vector<State> got(static_cast<std::size_t>(ranks));
        on_ranks(ranks, [&](std::unique_ptr<Exchange> ex) {
            const auto r = static_cast<std::size_t>(ex->rank());
            DistributedBackend d(std::make_unique<CpuBackend>(1), std::move(ex));
            d.reset(s0, p);
            d.step(60);
            d.read_state(got[r]);
        });
        for (const State& g : got) EXPECT_TRUE(same_bits(g, want)) << ranks << " ranks";
    }
}

}  // namespace
}  // namespace nbody
