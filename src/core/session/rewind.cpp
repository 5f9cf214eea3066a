#include "core/session/rewind.hpp"

#include <algorithm>
#include <cmath>

namespace nbody {

int rewind_stride(double interval, double dt) {
    if (!(dt > 0) || !(interval > 0) || !std::isfinite(interval / dt)) return 1;
    return int(std::clamp(std::round(interval / dt), 1.0, 1e9));
}

void RewindRing::reset(int capacity) {
    m_entries.clear();
    m_free.clear();
    // Handed out lowest first (popped from the back).
    for (int s = std::max(capacity, 0) - 1; s >= 0; --s) m_free.push_back(s);
}

int RewindRing::push(long long step, double time) {
    while (!m_entries.empty() && m_entries.back().step >= step) {
        m_free.push_back(m_entries.back().slot);
        m_entries.pop_back();
    }
    int slot = -1;
    if (!m_free.empty()) {
        slot = m_free.back();
        m_free.pop_back();
    } else if (!m_entries.empty()) {
        slot = m_entries.front().slot;  // full: the oldest state goes
        m_entries.pop_front();
    } else {
        return -1;
    }
    m_entries.push_back({slot, step, time});
    return slot;
}

int RewindRing::nearest(double t) const {
    int best = -1;
    double best_d = 0;
    for (int i = 0; i < size(); ++i) {
        const double d = std::fabs(m_entries[std::size_t(i)].time - t);
        if (best < 0 || d < best_d) best = i, best_d = d;
    }
    return best;
}

void RewindRing::drop_after(long long step) {
    while (!m_entries.empty() && m_entries.back().step > step) {
        m_free.push_back(m_entries.back().slot);
        m_entries.pop_back();
    }
}

}  // namespace nbody
