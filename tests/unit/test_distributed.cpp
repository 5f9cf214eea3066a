// The decomposition over ranks without MPI: the range split, and DistributedBackend driven by in-process
// "ranks" (threads sharing one buffer) against the CPU backend. tests/mpi runs the same over real MPI ranks.
#include <gtest/gtest.h>

#include <barrier>
#include <cstring>
#include <thread>

#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "multi/distributed_backend.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {

// Several ranks as threads of this process: each writes its range into a shared vector, then all copy the
// whole vector back, with a barrier after each half.
struct SharedBoard {
    explicit SharedBoard(int ranks) : sync(ranks), size(ranks) {}
    std::barrier<> sync;
    std::vector<Double4> data;
    int size;
};

class ThreadExchange final : public RankExchange {
  public:
    ThreadExchange(SharedBoard& b, int rank) : m_b(b), m_rank(rank) {}
    int rank() const override { return m_rank; }
    int size() const override { return m_b.size; }
    std::string name() const override { return "threads"; }
    void barrier() override { m_b.sync.arrive_and_wait(); }
    void all_gather(std::vector<Double4>& d, const std::vector<BodyRange>& ranges) override {
        if (m_rank == 0) m_b.data.resize(d.size());
        m_b.sync.arrive_and_wait();
        const BodyRange r = ranges[static_cast<std::size_t>(m_rank)];
        std::copy(d.begin() + long(r.begin), d.begin() + long(r.end), m_b.data.begin() + long(r.begin));
        m_b.sync.arrive_and_wait();
        std::copy(m_b.data.begin(), m_b.data.end(), d.begin());
        m_b.sync.arrive_and_wait();  // nobody writes the board again before all have read it
    }

  private:
    SharedBoard& m_b;
    int m_rank;
};

SimParams params() {
    SimParams p;
    p.eps = 0.02;
    p.dt = 0.005;
    p.G = 1.5;  // exercises the G scaling on a range
    p.cpu_threads = 1;
    return p;
}

bool same_bits(const State& a, const State& b) {
    return a.size() == b.size() &&
           std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Double4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Double4)) == 0;
}

State run_cpu(const State& s0, int steps) {
    CpuBackend b(1);
    b.reset(s0, params());
    b.step(steps);
    State s;
    b.read_state(s);
    return s;
}

// Runs `ranks` DistributedBackends on threads; returns rank 0's state and checks every rank agrees.
State run_ranks(const State& s0, int ranks, int steps) {
    SharedBoard board(ranks);
    std::vector<State> out(static_cast<std::size_t>(ranks));
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            DistributedBackend b(std::make_unique<ThreadExchange>(board, r), 1);
            b.reset(s0, params());
            b.step(steps / 2);
            b.step(steps - steps / 2);
            b.read_state(out[static_cast<std::size_t>(r)]);
        });
    for (auto& t : threads) t.join();
    for (int r = 1; r < ranks; ++r) EXPECT_TRUE(same_bits(out[0], out[static_cast<std::size_t>(r)])) << r;
    return out[0];
}

}  // namespace

TEST(RankSplit, ContiguousCoveringBalanced) {
    for (std::size_t n : {0u, 1u, 7u, 1000u, 1001u})
        for (std::size_t parts : {1u, 2u, 3u, 4u, 8u}) {
            const auto r = split_body_ranges(n, parts);
            ASSERT_EQ(r.size(), parts);
            EXPECT_EQ(r.front().begin, 0u);
            EXPECT_EQ(r.back().end, n);
            for (std::size_t k = 0; k < parts; ++k) {
                if (k > 0) EXPECT_EQ(r[k].begin, r[k - 1].end);
                EXPECT_LE(r[k].size(), n / parts + 1);
                EXPECT_GE(r[k].size(), n / parts);
            }
        }
}

// One rank (LocalExchange) is the CPU backend, bit for bit: same rows, same kicks and drifts.
TEST(DistributedBackend, OneRankMatchesCpuBackend) {
    const State s0 = test::plummer_state(1001);
    DistributedBackend b(std::make_unique<LocalExchange>(), 1);
    b.reset(s0, params());
    b.step(100);
    State s;
    b.read_state(s);
    EXPECT_TRUE(same_bits(s, run_cpu(s0, 100)));
    EXPECT_FALSE(same_bits(s, s0));
    EXPECT_EQ(b.steps_taken(), 100);
}

// 2, 3 and 4 ranks (odd N: unequal ranges) after 100 steps are bit-identical to one rank.
TEST(DistributedBackend, RankCountDoesNotChangeABit) {
    const State s0 = test::plummer_state(1001);
    const State ref = run_cpu(s0, 100);
    for (int ranks : {2, 3, 4}) EXPECT_TRUE(same_bits(ref, run_ranks(s0, ranks, 100))) << ranks << " ranks";
}

TEST(DistributedBackend, AccelerationsGatheredFromEveryRank) {
    const State s0 = test::plummer_state(301);
    CpuBackend cpu(1);
    cpu.reset(s0, params());
    std::vector<Double4> want, got0, got1;
    cpu.read_accelerations(want);
    SharedBoard board(2);
    std::thread t([&] {
        DistributedBackend b(std::make_unique<ThreadExchange>(board, 1), 1);
        b.reset(s0, params());
        b.read_accelerations(got1);
    });
    DistributedBackend b(std::make_unique<ThreadExchange>(board, 0), 1);
    b.reset(s0, params());
    b.read_accelerations(got0);
    t.join();
    ASSERT_EQ(got0.size(), want.size());
    EXPECT_EQ(std::memcmp(got0.data(), want.data(), want.size() * sizeof(Double4)), 0);
    EXPECT_EQ(std::memcmp(got1.data(), want.data(), want.size() * sizeof(Double4)), 0);
}

TEST(DistributedBackend, RefusesHermiteAndOtherPrecisions) {
    DistributedBackend b(std::make_unique<LocalExchange>(), 1);
    SimParams p = params();
    p.integrator = Integrator::Hermite;
    EXPECT_THROW(b.reset(test::plummer_state(64), p), ParamError);
    p = params();
    p.precision = Precision::Fp64;
    EXPECT_THROW(b.reset(test::plummer_state(64), p), ParamError);
}
