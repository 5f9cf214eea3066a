#pragma once
// The sandbox's kernel race between frames: the Kernel panel starts it, the app calls tick() instead of
// stepping the simulation while it runs (one slice per frame: the reference, then one entry, so the window
// keeps drawing), and the panel shows its progress and results. No ImGui here, so the unit tests drive it.
#include <cstdint>
#include <memory>
#include <string>

#include "bench/race.hpp"
#include "bench/race_output.hpp"
#include "core/session/simulation.hpp"

namespace nbody {

class RaceDriver {
  public:
    // The panel's settings: seconds per entry (shorter than nbody-bench's 1 s: the window waits for each
    // entry) and where Export writes (empty: a timestamped name in the working directory).
    double seconds = 0.5;
    std::string export_path;
    bool show_results = false;  // the results window (opens when a race ends with results)

    // A race is under way: the app must not step, reset or switch the backend (tick() abandons a race whose
    // backend changed behind it, see Simulation::generation).
    bool running() const { return m_race && !m_race->finished(); }
    // Pauses the simulation and races sim.backend() from its current state, about `seconds_each` per entry.
    void start(Simulation& sim, double seconds_each);
    // One slice. When the race ends (done, cancelled, failed) the backend holds the state it started from
    // and the simulation's pause is what it was before start().
    void tick(Simulation& sim);
    void cancel(Simulation& sim);  // restores now

    RaceProgress progress() const { return m_race ? m_race->progress() : RaceProgress{}; }
    const RaceReport& report() const { return m_report; }  // the last finished or cancelled race's entries
    const std::string& status() const { return m_status; }
    // Writes the report as CSV or JSON to `path` (empty: a timestamped name in the working directory);
    // returns the status line with the absolute path, or the error.
    std::string export_report(const std::string& path, bool json);

  private:
    void end(Simulation& sim, const std::string& status);

    std::unique_ptr<Race> m_race;
    uint64_t m_generation = 0;
    bool m_was_paused = false;
    RaceReport m_report;
    std::string m_status;
};

}  // namespace nbody
