#pragma once
// Bodies between JavaScript's typed arrays and the core's State: 4 floats a body (x, y, z, m and vx, vy, vz, 0),
// the GPU buffers' layout, in and out.
#include <emscripten/val.h>

#include <vector>

#include "core/float4.hpp"
#include "core/physics/state.hpp"

namespace nbody::web {

// 4 floats a body (x, y, z, w) from a JS Float32Array, into float64 positions and masses (or velocities).
std::vector<Double4> to_double4(const emscripten::val& array);

// Copies into new JS arrays (the views on wasm memory die when it grows).
emscripten::val float32_copy(const std::vector<float>& v);
emscripten::val float64_copy(const std::vector<double>& v);

// x, y, z, w of each body as float32.
std::vector<float> packed(const std::vector<Double4>& v);

// A State from positions and masses and velocities (undefined: at rest), every body in group 0. Throws Error
// when the two differ in length.
State state_from(const emscripten::val& pos_mass, const emscripten::val& vel);

}  // namespace nbody::web
