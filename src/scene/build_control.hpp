#pragma once
// Building a scene can take seconds to minutes (tens of millions of bodies), so it runs off the frame loop:
// the builder reports progress through a BuildControl and stops, cooperatively, when another thread asks it
// to. Generators call tick() in their per-body loops; everything else may read progress() and cancel().
// Also the one bounded rejection-sampling loop every generator uses, so no loop's trip count is left to
// the input.
#include <atomic>
#include <cstddef>
#include <optional>
#include <string>

#include "core/errors.hpp"

namespace nbody {

// Thrown out of build_scene when cancel() was called; the scene being built is dropped.
struct BuildCancelled : Error {
    BuildCancelled() : Error("scene generation cancelled") {}
};

class BuildControl {
  public:
    // Any thread.
    void cancel() { m_cancel.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancel.load(std::memory_order_relaxed); }
    double progress() const {  // 0 to 1, bodies generated over bodies to generate
        const std::size_t total = m_total.load(std::memory_order_relaxed);
        return total ? double(m_done.load(std::memory_order_relaxed)) / double(total) : 0.0;
    }

    // The builder's thread.
    void begin(std::size_t total) { m_total.store(total, std::memory_order_relaxed), m_done.store(0); }
    // Every body is done (the per-body ticks count in whole 1024s).
    void finish() { m_done.store(m_total.load(std::memory_order_relaxed), std::memory_order_relaxed); }
    // `bodies` more are done; throws BuildCancelled once cancel() was called.
    void advance(std::size_t bodies) {
        m_done.fetch_add(bodies, std::memory_order_relaxed);
        if (cancelled()) throw BuildCancelled();
    }

  private:
    std::atomic<bool> m_cancel{false};
    std::atomic<std::size_t> m_done{0}, m_total{0};
};

// Per-body loops call this with the loop index: progress and the cancel check every 1024 bodies, so the
// atomic traffic is negligible and a cancel is honoured within microseconds. `control` may be null.
inline void tick(BuildControl* control, std::size_t i) {
    constexpr std::size_t kEvery = 1024;
    if (control && (i + 1) % kEvery == 0) control->advance(kEvery);
}

// Draws until draw() returns a value, at most kMaxDraws times. Every loop in the generators has an
// acceptance probability fixed by its parameters; those are validated so that it is at least a few per cent,
// and then 10,000 failures in a row have a probability below 1e-100. If it happens anyway the parameter
// named by `parameter` made acceptance too rare, and the error says so instead of the program hanging.
inline constexpr int kMaxDraws = 10000;
template <class Draw>
auto draw_until(Draw&& draw, const std::string& parameter, const std::string& why) {
    for (int i = 0; i < kMaxDraws; ++i)
        if (auto v = draw()) return *v;
    throw ParamError(parameter, "no acceptable sample in " + std::to_string(kMaxDraws) + " draws: " + why);
}

}  // namespace nbody
