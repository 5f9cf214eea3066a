#pragma once
// A 16-byte float quadruple laid out like CUDA's float4, so host arrays of it can be copied to the device
// and into a GL vertex buffer unchanged. Positions use w for the mass; velocities leave w unused (0).

namespace nbody {

struct alignas(16) Float4 {
    float x = 0, y = 0, z = 0, w = 0;
};
static_assert(sizeof(Float4) == 16, "Float4 must match CUDA's float4");

struct Double3 {
    double x = 0, y = 0, z = 0;
};

inline Double3 operator+(Double3 a, Double3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Double3 operator-(Double3 a, Double3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Double3 operator*(double s, Double3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(Double3 a, Double3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Double3 cross(Double3 a, Double3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

}  // namespace nbody
