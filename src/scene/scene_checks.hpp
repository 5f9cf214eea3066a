#pragma once
// Measurements that follow a scene while it runs: the Cartwheel's ring and the figure-eight galaxies'
// centres. The unit tests assert on them at reduced N; tools/scene_metrics.cpp records them at full N for
// docs/scenes.md.
#include <cstdint>
#include <vector>

#include "core/physics/state.hpp"
#include "scene/analysis.hpp"
#include "scene/scene.hpp"

namespace nbody {

struct RingSample {
    double time = 0;
    double radius = 0;    // centre of the annulus where Sigma(R, t) / Sigma(R, 0) peaks (length units)
    double contrast = 0;  // that ratio
    bool local_max = false;  // Sigma(R, t) itself has a local maximum in R there (a bump on the profile)
    // Mass-weighted mean radius of the excess mass, sum R max(0, M(R, t) - M(R, 0)) / sum max(0, ...) over
    // the annuli considered: follows the ring as a whole, so it moves smoothly where the peak annulus jumps.
    double excess_radius = 0;
};

// Surface density of one disk (a colour group) in annuli around the disk's density centre, compared with
// the disk's own initial profile. Annuli inside `r_min` are ignored (the intruder's passage piles stars
// in the centre, which is not the ring), and so are annuli that start with fewer than 16 bodies (noise).
class RingTracker {
public:
    RingTracker(const State& initial, uint32_t disk_group, Double3 axis, double r_max, int bins, double r_min);
    RingSample measure(const State& s) const;

private:
    uint32_t m_group;
    Double3 m_axis;
    double m_r_max, m_r_min;
    int m_bins;
    std::vector<double> m_sigma0;
    std::vector<std::size_t> m_count0;
};

// Where the ideal point-mass choreography of one orbit helper is at any time (float64, eps = 0), and how
// far the real galaxies' density centres are from it, relative to the orbit's size.
class ChoreographyTracker {
public:
    ChoreographyTracker(const SceneSpec& scene, std::size_t orbit_index);
    // Largest |density centre - ideal position at the same time| over the member components, divided by
    // size(): shape and phase together. Advances the reference to s.time (call with non-decreasing times).
    double deviation(const State& s);
    // Largest distance of a member's density centre from the ideal orbit's path (any time), over size():
    // the shape alone, blind to a galaxy running ahead or behind along the eight.
    double path_deviation(const State& s) const;
    double size() const { return m_size; }  // the orbit's largest extent along x or y over one period
    double period() const { return m_period; }

private:
    std::vector<PointOrbitState> m_ideal;
    std::vector<double> m_mass;
    std::vector<uint32_t> m_groups;
    std::vector<Double3> m_path;  // the ideal positions of all members over one period, densely sampled
    double m_G, m_time = 0, m_period = 0, m_size = 0, m_dt = 0;
};

}  // namespace nbody
