#pragma once
// A picked body's path since it was picked, and its orbital period measured from that path. The period is the
// time between two successive passages of the same angle around the centre of mass (the angle the body had
// when the trace began), measured in the orbit's own plane (normal to the path's angular momentum about the
// centre): it needs no guess of the orbit's shape, so it reads an ellipse, a star in a cluster or a body of a
// galaxy alike. A path that runs through the centre (the figure-eight's crossing) has no such angle there; its
// period is the time between returns to where the trace began, moving the same way. Pure arithmetic on the
// samples, so it is unit-tested.
#include <cstddef>
#include <optional>
#include <vector>

#include "core/float4.hpp"

namespace nbody {

struct TraceSample {
    double t = 0;    // simulated time (time units)
    Double3 pos;     // the body's position (length units)
    Double3 centre;  // the centre of mass at t
};

enum class PeriodMethod {
    SameAngle,  // successive passages of the same angle around the centre of mass
    Return,     // successive returns to the starting place, moving the same way (a path through the centre)
};

// How a period was timed, in words: "same angle around the centre of mass", "return to where it was picked".
const char* period_method_words(PeriodMethod m);

struct PeriodReading {
    PeriodMethod method = PeriodMethod::SameAngle;
    std::optional<double> period;  // the last full turn's (or return's) duration (time units); none before one
    int turns = 0;                 // full turns around the centre since the trace began
    double angle = 0;              // radians turned since the trace began (the orbit's own sense: >= 0 mostly)
};

// The period from `trace` (oldest first). Samples must be less than half a turn apart (the angle between two
// is taken as the shorter way round). A path with no turning (falling straight in or out) has no plane and
// gives no period.
PeriodReading period_from_trace(const std::vector<TraceSample>& trace);

// The samples of one body, oldest first, at most `capacity`: when full, every second sample is dropped and
// from then on one sample in two is kept (then four, ...), so the trace always reaches back to the pick at an
// even spacing and its memory stays fixed.
class OrbitTrace {
  public:
    explicit OrbitTrace(std::size_t capacity = 2048);
    // A sample at the same time as the newest is ignored; one earlier than the newest (the run went back: a
    // reset or a rewind) starts the trace again from it.
    void add(const TraceSample& s);
    void clear();
    const std::vector<TraceSample>& samples() const { return m_samples; }

  private:
    std::vector<TraceSample> m_samples;
    std::size_t m_capacity;
    std::size_t m_stride = 1;  // keep one sample of this many offered
    std::size_t m_offered = 0;  // offered since the last kept one
};

}  // namespace nbody
