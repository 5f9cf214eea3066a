#pragma once
// The rewind timeline's bookkeeping: which backend snapshot slot holds which step and time, oldest
// first. The states themselves live in the backend (Backend::save_snapshot: device memory on a GPU); this
// ring only hands out slots, overwriting the oldest when full, and forgets the "future" when the run branches
// off.
#include <deque>
#include <vector>

namespace nbody {

// What the Simulation records: a state every `interval` time units (rounded to whole steps of dt), up to
// `capacity` of them. 0.05 x 256 spans 12.8 time units: the Cartwheel's whole passage (t = 0 to 5) fits.
struct RewindSettings {
    bool enabled = true;
    double interval = 0.05;  // time units between saved states
    int capacity = 256;      // asked for; the backend may grant fewer (memory)
};

// Steps between saved states: interval / dt rounded, at least 1.
int rewind_stride(double interval, double dt);

class RewindRing {
  public:
    struct Entry {
        int slot = 0;        // the backend's snapshot slot
        long long step = 0;  // steps_taken() when saved
        double time = 0;     // simulated time when saved
    };

    // Empties the ring and makes `capacity` slots (0: rewind off).
    void reset(int capacity);
    int capacity() const { return int(m_free.size() + m_entries.size()); }
    int size() const { return int(m_entries.size()); }
    bool empty() const { return m_entries.empty(); }
    // Chronological: 0 is the oldest. Throws std::out_of_range outside [0, size()).
    const Entry& at(int i) const { return m_entries.at(std::size_t(i)); }

    // The slot for a state saved at (step, time): a free one, else the oldest entry's (dropped). -1 when the
    // capacity is 0. Steps must grow: an entry at or after `step` is dropped first (the run branched off).
    int push(long long step, double time);
    // The entry whose time is nearest `t` (the earlier one on a tie); -1 when empty.
    int nearest(double t) const;
    // Forgets entries saved after `step` (restored to it, then stepped on: they are another future now).
    void drop_after(long long step);

  private:
    std::deque<Entry> m_entries;
    std::vector<int> m_free;  // slots not holding an entry
};

}  // namespace nbody
