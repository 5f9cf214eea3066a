#pragma once
// A minimal fork-join loop over std::thread: enough for O(N^2) force sums, where one step of a few
// thousand bodies already outweighs starting threads, and simple enough to reason about determinism.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace nbody {

// Number of worker threads for a request of `requested` (0 = all hardware threads).
inline int resolve_threads(int requested) {
    if (requested > 0) return requested;
    return std::max(1u, std::thread::hardware_concurrency());
}

// Calls fn(begin, end) on contiguous chunks of [0, n) across `threads` threads; runs inline when there is
// one thread or the work is small. Each index is handled by exactly one call.
template <class Fn>
void parallel_for(std::size_t n, int threads, Fn&& fn, std::size_t min_per_thread = 64) {
    std::size_t t = static_cast<std::size_t>(std::max(1, threads));
    t = std::min(t, std::max<std::size_t>(1, n / std::max<std::size_t>(1, min_per_thread)));
    if (t <= 1) {
        fn(std::size_t{0}, n);
        return;
    }
    std::vector<std::thread> pool;
    pool.reserve(t - 1);
    const std::size_t chunk = (n + t - 1) / t;
    for (std::size_t w = 1; w < t; ++w) {
        std::size_t b = w * chunk, e = std::min(n, b + chunk);
        if (b < e) pool.emplace_back([&fn, b, e] { fn(b, e); });
    }
    fn(std::size_t{0}, std::min(n, chunk));
    for (auto& th : pool) th.join();
}

}  // namespace nbody
