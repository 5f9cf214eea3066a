#pragma once
// Running a backend towards a goal (a step count, a simulated end time or both) in chunks, each checked for
// a blow-up: the one loop the headless runs and the library's step()/evolve() share. The window steps a
// frame's worth at a time instead (core/session/simulation.cpp) and shares the check and its words (blow_up).
#include <cstddef>
#include <limits>
#include <optional>
#include <string>

#include "core/backend/backend.hpp"
#include "core/rows/sim_params.hpp"

namespace nbody {

// Simulated time t has reached t_end, allowing for the round-off of a sum of shared steps (1e-9 relative).
bool reached_time(double t, double t_end);

// How many steps may be taken towards t_end from t without passing it: shared steps, the whole steps that
// remain (at least 1); block steps, one at a time, since a block step advances the clock by a varying amount
// (the O(N) read and check after each is small beside its force sum).
long long steps_towards(double t_end, double t, const SimParams& p);

// The words of a blow-up, the same from every face: "the state became NaN or infinite at step 12 (body 3):
// dt 0.1 is too large for eps 0.001; lower dt or raise eps".
std::string blow_up_message(long long step, std::size_t body, double dt, double eps);

// The blow-up message when a position of `b` is NaN or infinite (looked for on the device where the backend
// can), else nullopt.
std::optional<std::string> blow_up(Backend& b);

struct RunGoal {
    long long steps = std::numeric_limits<long long>::max();  // at most this many steps
    std::optional<double> t_end;  // and no further than the first step boundary at or after t_end
};

class RunDriver {
  public:
    // `first_chunk`: the steps of the first chunk; adapt() grows it. The default takes the goal in one chunk.
    RunDriver(Backend& b, RunGoal goal, long long first_chunk = std::numeric_limits<long long>::max());

    // The goal is met: its steps taken, its end time reached, or the clock stopped (block steps whose
    // smallest step underflows; the check after the chunk has already said why when the state blew up).
    bool finished() const;
    bool reached_end_time() const;

    // The steps of the next chunk: the chunk size, cut to what the goal leaves and to `land_on` (a time to
    // stop at on the way, such as a checkpoint's; ignored once reached), at least 1.
    long long next_chunk(std::optional<double> land_on = std::nullopt) const;

    // Takes k steps, then checks the positions: throws Error(blow_up_message) when one is NaN or infinite.
    void advance(long long k);

    // Chunks that took under 0.1 s double (up to 2^20 steps), so a chunk lasts about 0.2 s once grown: the
    // check and the caller's progress line cost nothing beside the steps.
    void adapt(double chunk_seconds);

    // advance(next_chunk()) until finished().
    void run();

    long long steps_done() const { return m_done; }

  private:
    Backend& m_backend;
    RunGoal m_goal;
    long long m_chunk;
    long long m_done = 0;
    bool m_stalled = false;
};

}  // namespace nbody
