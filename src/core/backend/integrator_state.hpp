#pragma once
// A backend's integrator state exactly as it holds it, for checkpoints that continue bit for bit: named
// float64 arrays (float32 and double-single values are exact in float64) and named scalars. Which names a
// backend uses is its own business (cpu: x y z vx vy vz m ax ay az, and for Hermite jx jy jz t dt); the
// checkpoint file stores them as they are and hands them back to the same kind of backend.
#include <cstddef>
#include <cstdint>
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

// Reading a state back, each throwing Error that names the array (and the value) that is wrong: the body
// count (array "x" decides it); an array of n finite values; a scalar; the body groups ("group": whole numbers
// in uint32's range).
std::size_t need_body_count(const IntegratorState& st);
void need_backend(const IntegratorState& st, const std::string& backend);  // written by that kind of backend
const std::vector<double>& need_array(const IntegratorState& st, const std::string& name, std::size_t n);
double need_scalar(const IntegratorState& st, const std::string& name);
std::vector<uint32_t> need_groups(const IntegratorState& st, std::size_t n);
// The body groups as "group", n of them (0 past the end of `group`, which may be shorter).
void put_groups(IntegratorState& st, const std::vector<uint32_t>& group, std::size_t n);

// Integer counters past float64's 2^53 (the Hermite engines' time ticks), exact as two arrays or scalars:
// name_hi = v / 2^32 and name_lo = v mod 2^32. Values are at least 0; reading refuses anything else.
void put_counts(IntegratorState& st, const std::string& name, const std::vector<long long>& v);
std::vector<long long> need_counts(const IntegratorState& st, const std::string& name, std::size_t n);
void put_count(IntegratorState& st, const std::string& name, long long v);
long long need_count(const IntegratorState& st, const std::string& name);

}  // namespace nbody
