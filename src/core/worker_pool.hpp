#pragma once
// Threads kept for repeated fork-joins: run(fn) calls fn(k) for k = 0 .. size - 1, k = 0 on the calling thread
// and the others each on a thread of its own that lives as long as the pool, and returns when all have ended,
// rethrowing the first exception. For work repeated every step of a few milliseconds (the tree engine's GPU
// parts, each waiting on its own GPU), where starting threads each time would cost tens of microseconds.
// Between runs a thread polls for the next one for up to kPollSeconds before it sleeps, and run() polls for
// the end as long: the engine hands its parts work one to three times a step, and each wake-up through a
// condition variable cost tens of microseconds (Milky Way-Andromeda's small block steps on two H200s: 0.883 ms
// a step with the threads asleep between hand-offs, 0.850 with them polling; one GPU's 0.841).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nbody {

class WorkerPool {
  public:
    explicit WorkerPool(std::size_t size);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    std::size_t size() const { return m_threads.size() + 1; }
    // Not reentrant: one run at a time, from one thread.
    void run(const std::function<void(std::size_t)>& fn);

    static constexpr double kPollSeconds = 200e-6;

  private:
    void serve(std::size_t k);

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_start, m_done;
    // Written under m_mutex before m_generation moves on; read by the threads after they see it move.
    const std::function<void(std::size_t)>* m_task = nullptr;
    std::atomic<long long> m_generation{0};  // one a run: a thread starts a run once
    std::atomic<std::size_t> m_running{0};   // threads still in this run's task
    std::atomic<bool> m_stop{false};
    std::exception_ptr m_error;  // under m_mutex
};

}  // namespace nbody
