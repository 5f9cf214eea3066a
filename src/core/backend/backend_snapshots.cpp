// Backend's default rewind storage: whole states in host memory, saved with read_state and restored with
// reset (which re-evaluates the accelerations at the saved positions: the same values the run had there, so a
// leap-frog run restored this way goes on bit-identically). A block-step integrator restarts its block
// schedule from the saved (synchronised) state instead of the per-body times it had.
#include <algorithm>
#include <cstdint>
#include <string>

#include "core/backend/backend.hpp"
#include "core/errors.hpp"

namespace nbody {

namespace {
// Host memory the default ring may take: enough for the Cartwheel's 18,000 bodies x 256 slots (64 bytes
// per body per slot: position, mass and velocity in float64), few slots at 10^6 bodies.
constexpr std::uint64_t kHostSnapshotBudget = std::uint64_t(2) << 30;  // 2 GiB

void check_slot(int slot, std::size_t count) {
    if (slot < 0 || std::size_t(slot) >= count)
        throw Error("rewind slot " + std::to_string(slot) + " outside the " + std::to_string(count) +
                    " reserved (0 to " + std::to_string(count == 0 ? 0 : count - 1) + ")");
}
}  // namespace

int Backend::reserve_snapshots(int count, std::string* note) {
    m_host_snapshots.clear();
    m_host_snapshots.shrink_to_fit();
    if (count <= 0) return 0;
    const std::uint64_t per = std::max<std::uint64_t>(std::uint64_t(size()) * 2 * sizeof(Double4), 1);
    const int fit = int(std::min<std::uint64_t>(std::uint64_t(count), kHostSnapshotBudget / per));
    if (fit < count && note)
        *note = "rewind keeps " + std::to_string(fit) + " of " + std::to_string(count) +
                " states: " + std::to_string(per >> 20) + " MiB each in host memory, 2 GiB in all";
    m_host_snapshots.resize(std::size_t(fit));
    return fit;
}

void Backend::save_snapshot(int slot) {
    check_slot(slot, m_host_snapshots.size());
    HostSnapshot& h = m_host_snapshots[std::size_t(slot)];
    read_state(h.state);
    h.steps = steps_taken();
}

void Backend::restore_snapshot(int slot) {
    check_slot(slot, m_host_snapshots.size());
    const HostSnapshot& h = m_host_snapshots[std::size_t(slot)];
    if (h.steps < 0) throw Error("rewind slot " + std::to_string(slot) + " holds no saved state");
    reset(h.state, params());
    set_steps_taken(h.steps);
}

}  // namespace nbody

namespace nbody {

void Backend::throw_cannot_import(const IntegratorState& st) const {
    throw Error("the " + name() + " backend cannot import an integrator state (written by the '" + st.backend +
                "' backend): resume it on that backend");
}

}  // namespace nbody
