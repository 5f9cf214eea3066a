#pragma once
// A backend's integrator state exactly as it holds it, for checkpoints that continue bit for bit: named
// float64 arrays (float32 and double-single values are exact in float64) and named scalars. Which names a
// backend uses is its own business (cpu: x y z vx vy vz m ax ay az, and for Hermite jx jy jz t dt); the
// checkpoint file stores them as they are and hands them back to the same kind of backend.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace nbody {

struct IntegratorState {
    std::string backend;  // who wrote it ("cpu"); only that kind of backend may import it
    std::vector<std::pair<std::string, std::vector<double>>> arrays;  // each N long
    std::vector<std::pair<std::string, double>> scalars;

    const std::vector<double>* array(const std::string& name) const {
        for (const auto& [k, v] : arrays)
            if (k == name) return &v;
        return nullptr;
    }
    const double* scalar(const std::string& name) const {
        for (const auto& [k, v] : scalars)
            if (k == name) return &v;
        return nullptr;
    }
};

}  // namespace nbody
