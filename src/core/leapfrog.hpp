#pragma once
// Kick-drift-kick leap-frog on host arrays (structure of arrays). One step of size dt is
//     v += a dt/2;  x += v dt;  a = a(x);  v += a dt/2
// and needs one force evaluation because the accelerations are kept between steps. Each kick and drift
// conserves linear and angular momentum exactly (round-off only); energy error stays bounded.
#include <cstddef>

namespace nbody {

// v += a * h for n bodies (3 flops per component).
inline void kick(std::size_t n, float* vx, float* vy, float* vz, const float* ax, const float* ay,
                 const float* az, float h) {
    for (std::size_t i = 0; i < n; ++i) {
        vx[i] += ax[i] * h;
        vy[i] += ay[i] * h;
        vz[i] += az[i] * h;
    }
}

// x += v * dt for n bodies.
inline void drift(std::size_t n, float* x, float* y, float* z, const float* vx, const float* vy,
                  const float* vz, float dt) {
    for (std::size_t i = 0; i < n; ++i) {
        x[i] += vx[i] * dt;
        y[i] += vy[i] * dt;
        z[i] += vz[i] * dt;
    }
}

}  // namespace nbody
