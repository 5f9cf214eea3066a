#pragma once
// The slot arithmetic of the trail ring (no GL, unit-tested): L slots of N positions each, written in turn;
// the newest sample is at `head` and the one `age` samples older at (head - age) mod L, so the ring is never
// re-ordered: the shader finds a body's past from the head alone.
#include <algorithm>

namespace nbody {

class TrailRing {
  public:
    // Empties the ring and gives it `length` slots (at least 0).
    void reset(int length) {
        m_length = std::max(length, 0);
        clear();
    }
    void clear() {
        m_head = -1;
        m_count = 0;
        m_updates = 0;
    }
    int length() const { return m_length; }
    int count() const { return m_count; }  // samples held (at most length())
    int head() const { return m_head; }    // slot of the newest sample; -1 when empty

    // Called once per position update (a frame in which the bodies moved): true every `stride`-th one, when a
    // sample is due (the first update after a clear always samples).
    bool due(int stride) {
        const bool d = m_updates % std::max(stride, 1) == 0;
        ++m_updates;
        return d && m_length > 0;
    }
    // Advances the head to the slot the next sample goes to (the oldest one's when full) and returns it.
    int push() {
        if (m_length == 0) return -1;
        m_head = (m_head + 1) % m_length;
        m_count = std::min(m_count + 1, m_length);
        return m_head;
    }
    // The slot of the sample `age` pushes before the newest (0: the newest); -1 outside [0, count()).
    int slot_of_age(int age) const {
        if (age < 0 || age >= m_count) return -1;
        return ((m_head - age) % m_length + m_length) % m_length;
    }

  private:
    int m_length = 0, m_head = -1, m_count = 0;
    long long m_updates = 0;
};

}  // namespace nbody
