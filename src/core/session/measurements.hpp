#pragma once
// The window's measuring tools without any drawing: which bodies are picked (one, and a second for the
// ruler), what was read of them this frame (position, velocity, acceleration), the first pick's trace and
// period, and the arrows' scales. Per frame it reads only the picked bodies, or every body of a scene of a few
// (kFewBodies), through Backend::read_bodies_of and read_accelerations_of: never all N.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "core/session/orbit_trace.hpp"
#include "core/physics/physical_units.hpp"

namespace nbody {

struct BodyReading {
    std::size_t index = 0;
    Double3 pos, vel, acc;  // length units, length/time, length/time^2 (G included)
    double mass = 0;
};

// How long the arrows are drawn, fixed while a pick lasts so that a longer arrow means a larger value: a
// velocity arrow is the distance the body covers in `velocity_time` at its present speed, an acceleration
// arrow one length unit long for each `accel_per_length` of acceleration.
struct ArrowScale {
    double velocity_time = 0;     // time units; 0: not chosen yet
    double accel_per_length = 0;  // (length/time^2) per length unit of arrow
};
// Round numbers (round_125) that draw the largest speed and acceleration as arrows about `length` long.
ArrowScale arrow_scale_for(double max_speed, double max_accel, double length);

class Measurements {
  public:
    // Up to this many bodies, every body's velocity and acceleration can be drawn (two-body, the figure-eight).
    static constexpr std::size_t kFewBodies = 16;

    // A new scene of n bodies framed in a sphere of `view_radius` (length units): the picks go, the arrows'
    // scale is chosen again at the next reading (the longest arrow about 0.4 of that radius).
    void new_scene(std::size_t n, double view_radius);
    // The bodies went back to the start (reset) or to a saved state: the trace starts again, the picks stay.
    void restart_trace() { m_trace.clear(); }

    // Picks body i (the trace starts); a pick past the scene's bodies is refused (Error naming both numbers).
    void pick(std::size_t i);
    // The ruler's second body; with no first pick it becomes the first.
    void pick_second(std::size_t i);
    void clear();  // both picks and the trace
    std::optional<std::size_t> picked() const { return m_first; }
    std::optional<std::size_t> second() const { return m_second; }
    std::size_t bodies() const { return m_n; }
    bool few_bodies() const { return m_n > 0 && m_n <= kFewBodies; }

    // The switches the Measure panel edits.
    bool follow = false;                   // the camera's target follows the first pick
    bool show_velocity = true, show_acceleration = true, show_trace = true;
    bool every_body = true;                // a few-body scene: every body's arrows (kFewBodies)

    // Reads the bodies it needs at simulated `time`, with the centre of mass at `centre`, when the time moved
    // or the picks changed since the last reading (paused: once). Call with no step under way.
    void update(Backend& backend, double time, Double3 centre);
    void rescale_arrows() { m_scale = {}; }  // chosen again from the next reading

    // This frame's readings: the picks' and, when every_body is on in a few-body scene, every body's.
    const std::vector<BodyReading>& readings() const { return m_readings; }
    const BodyReading* reading_of(std::size_t i) const;
    bool arrows_for_every_body() const { return every_body && few_bodies(); }
    const ArrowScale& arrow_scale() const { return m_scale; }
    const OrbitTrace& trace() const { return m_trace; }
    Double3 centre() const { return m_centre; }  // the centre of mass at the last reading
    double time() const { return m_time; }

    // Read-outs of the first pick (nullopt without one or before its first reading).
    std::optional<double> distance_from_centre() const;
    std::optional<double> ruler_length() const;  // between the two picks
    PeriodReading period() const { return period_from_trace(m_trace.samples()); }
    // The read-outs in one line, in the scene's units (the summary of a --frames run with --pick); empty
    // without a reading of the first pick.
    std::string summary(const PhysicalUnits& u) const;

  private:
    std::vector<std::size_t> rows_wanted() const;

    std::size_t m_n = 0;
    double m_view_radius = 1;
    std::optional<std::size_t> m_first, m_second;
    std::vector<BodyReading> m_readings;
    std::vector<std::size_t> m_rows_read;  // the rows of the last reading
    OrbitTrace m_trace;
    ArrowScale m_scale;
    Double3 m_centre;
    double m_time = 0;
    bool m_read_once = false;  // a reading exists for m_rows_read at m_time
    std::vector<Double4> m_pos, m_vel, m_acc;  // read buffers, kept between frames
};

}  // namespace nbody
