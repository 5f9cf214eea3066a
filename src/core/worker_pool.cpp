#include "core/worker_pool.hpp"

#include <algorithm>
#include <chrono>

namespace nbody {

namespace {

// Polls `ready` for up to WorkerPool::kPollSeconds (yielding the core between looks); whether it came true.
template <class Ready>
bool poll(Ready&& ready) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(WorkerPool::kPollSeconds);
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (ready()) return true;
            std::this_thread::yield();
        }
        if (std::chrono::steady_clock::now() >= until) return ready();
    }
}

}  // namespace

WorkerPool::WorkerPool(std::size_t size) {
    for (std::size_t k = 1; k < std::max<std::size_t>(1, size); ++k) m_threads.emplace_back([this, k] { serve(k); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_start.notify_all();
    for (std::thread& t : m_threads) t.join();
}

void WorkerPool::serve(std::size_t k) {
    long long seen = 0;
    for (;;) {
        auto moved = [&] { return m_stop.load() || m_generation.load() != seen; };
        if (!poll(moved)) {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_start.wait(lock, moved);
        }
        if (m_stop) return;
        seen = m_generation.load();
        const std::function<void(std::size_t)>* task = m_task;
        std::exception_ptr error;
        try {
            (*task)(k);
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(m_mutex);  // run() reads the error under it, and waits on m_done
        if (error && !m_error) m_error = error;
        if (--m_running == 0) m_done.notify_one();
    }
}

void WorkerPool::run(const std::function<void(std::size_t)>& fn) {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_task = &fn;
        m_error = nullptr;
        m_running = m_threads.size();
        ++m_generation;
    }
    m_start.notify_all();
    std::exception_ptr mine;
    try {
        fn(0);
    } catch (...) {
        mine = std::current_exception();
    }
    auto ended = [&] { return m_running.load() == 0; };
    poll(ended);
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, ended);
    m_task = nullptr;
    if (mine) std::rethrow_exception(mine);
    if (m_error) std::rethrow_exception(m_error);
}

}  // namespace nbody
