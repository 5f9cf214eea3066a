#pragma once
// The CPU backend's particle state: float64 structure of arrays (positions, velocities, masses and the
// accelerations at the positions, G included), whatever the precision of the force sums.
#include <cstddef>
#include <vector>

#include "cpu/force_modes.hpp"

namespace nbody {

struct Bodies {
    std::vector<double> x, y, z, vx, vy, vz, m, ax, ay, az;

    std::size_t size() const { return x.size(); }
    void resize(std::size_t n) {
        for (auto* v : {&x, &y, &z, &vx, &vy, &vz, &m, &ax, &ay, &az}) v->assign(n, 0.0);
    }
    SourcesF64 sources() const {
        return {x.data(), y.data(), z.data(), vx.data(), vy.data(), vz.data(), m.data(), size()};
    }
    hermite::D3 pos(std::size_t i) const { return {x[i], y[i], z[i]}; }
    hermite::D3 vel(std::size_t i) const { return {vx[i], vy[i], vz[i]}; }
    hermite::D3 acc(std::size_t i) const { return {ax[i], ay[i], az[i]}; }
    void set_pos(std::size_t i, hermite::D3 p) { x[i] = p.x, y[i] = p.y, z[i] = p.z; }
    void set_vel(std::size_t i, hermite::D3 v) { vx[i] = v.x, vy[i] = v.y, vz[i] = v.z; }
    void set_acc(std::size_t i, hermite::D3 a) { ax[i] = a.x, ay[i] = a.y, az[i] = a.z; }
};

}  // namespace nbody
