#pragma once
// Kick-drift-kick leap-frog on host arrays (structure of arrays, float or double). One step of size dt is
//     v += a dt/2;  x += v dt;  a = a(x);  v += a dt/2
// and needs one force evaluation because the accelerations are kept between steps. Each kick and drift
// conserves linear and angular momentum exactly (round-off only); energy error stays bounded.
#include <cstddef>

namespace nbody {

// v += a * h for n bodies (3 flops per component).
template <class T>
inline void kick(std::size_t n, T* vx, T* vy, T* vz, const T* ax, const T* ay, const T* az, T h) {
    for (std::size_t i = 0; i < n; ++i) {
        vx[i] += ax[i] * h;
        vy[i] += ay[i] * h;
        vz[i] += az[i] * h;
    }
}

// x += v * dt for n bodies.
template <class T>
inline void drift(std::size_t n, T* x, T* y, T* z, const T* vx, const T* vy, const T* vz, T dt) {
    for (std::size_t i = 0; i < n; ++i) {
        x[i] += vx[i] * dt;
        y[i] += vy[i] * dt;
        z[i] += vz[i] * dt;
    }
}

}  // namespace nbody
