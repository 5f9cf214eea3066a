#pragma once
// A 16-byte float quadruple laid out like CUDA's float4, so host arrays of it can be copied to the device
// and into a GL vertex buffer unchanged. Positions use w for the mass; velocities leave w unused (0).

namespace nbody {

struct alignas(16) Float4 {
    float x = 0, y = 0, z = 0, w = 0;
};
static_assert(sizeof(Float4) == 16, "Float4 must match CUDA's float4");

// The host state's precision: positions (w = mass) and velocities in float64, so the double-single and
// fp64 force modes and the Hermite integrator keep every bit between steps, snapshots and backend switches.
struct Double4 {
    double x = 0, y = 0, z = 0, w = 0;
};

// Rounded to float32 for drawing and the float32 force paths.
inline Float4 to_float4(const Double4& d) {
    return {static_cast<float>(d.x), static_cast<float>(d.y), static_cast<float>(d.z), static_cast<float>(d.w)};
}
inline Double4 to_double4(const Float4& f) { return {f.x, f.y, f.z, f.w}; }

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
