// The worker pool (core/worker_pool.hpp): every index runs once a run, the same thread each time for the same
// index, the caller runs index 0, an exception in any index comes back from run() and the pool runs on after.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/worker_pool.hpp"

using namespace nbody;

TEST(WorkerPool, EveryIndexOnceARunOnItsOwnThread) {
    WorkerPool pool(4);
    ASSERT_EQ(pool.size(), 4u);
    std::vector<std::thread::id> first(4);
    std::vector<int> count(4, 0);
    for (int run = 0; run < 2000; ++run) {
        std::vector<std::thread::id> ids(4);
        pool.run([&](std::size_t k) {
            ++count[k];  // each index writes its own slot
            ids[k] = std::this_thread::get_id();
        });
        if (run == 0) first = ids;
        ASSERT_EQ(ids, first) << "run " << run;
    }
    for (int c : count) EXPECT_EQ(c, 2000);
    EXPECT_EQ(first[0], std::this_thread::get_id());
    for (std::size_t k = 1; k < 4; ++k)
        for (std::size_t j = 0; j < k; ++j) EXPECT_NE(first[k], first[j]);
}

TEST(WorkerPool, OneIsTheCallerAlone) {
    WorkerPool pool(1), none(0);
    std::thread::id seen;
    pool.run([&](std::size_t k) {
        EXPECT_EQ(k, 0u);
        seen = std::this_thread::get_id();
    });
    EXPECT_EQ(seen, std::this_thread::get_id());
    EXPECT_EQ(none.size(), 1u);
}

TEST(WorkerPool, AnExceptionComesBackAndThePoolRunsOn) {
    WorkerPool pool(3);
    for (std::size_t thrower : {0u, 2u}) {
        std::atomic<int> ran{0};
        EXPECT_THROW(pool.run([&](std::size_t k) {
            ++ran;
            if (k == thrower) throw std::runtime_error("part " + std::to_string(k));
        }),
                     std::runtime_error);
        EXPECT_EQ(ran.load(), 3) << "every index ran, the thrower's too";
    }
    std::atomic<int> after{0};
    pool.run([&](std::size_t) { ++after; });
    EXPECT_EQ(after.load(), 3);
}

// Runs further apart than the threads poll for (WorkerPool::kPollSeconds): they have gone to sleep on the
// condition variable, and each run still wakes every one of them.
TEST(WorkerPool, RunsAfterTheThreadsHaveGoneToSleep) {
    WorkerPool pool(3);
    for (int run = 0; run < 5; ++run) {
        std::this_thread::sleep_for(std::chrono::duration<double>(10 * WorkerPool::kPollSeconds));
        std::atomic<int> ran{0};
        pool.run([&](std::size_t) { ++ran; });
        EXPECT_EQ(ran.load(), 3) << "run " << run;
    }
}
