#include "js_arrays.hpp"

#include <emscripten/bind.h>

#include "core/errors.hpp"

namespace nbody::web {

using emscripten::val;

std::vector<Double4> to_double4(const val& array) {
    const std::vector<float> f = emscripten::convertJSArrayToNumberVector<float>(array);
    std::vector<Double4> out(f.size() / 4);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = {f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]};
    return out;
}

val float32_copy(const std::vector<float>& v) {
    return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data())).call<val>("slice");
}

val float64_copy(const std::vector<double>& v) {
    return val::global("Float64Array").new_(emscripten::typed_memory_view(v.size(), v.data())).call<val>("slice");
}

std::vector<float> packed(const std::vector<Double4>& v) {
    std::vector<float> out(4 * v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        out[4 * i] = float(v[i].x), out[4 * i + 1] = float(v[i].y);
        out[4 * i + 2] = float(v[i].z), out[4 * i + 3] = float(v[i].w);
    }
    return out;
}

State state_from(const val& pos_mass, const val& vel) {
    State s;
    s.pos_mass = to_double4(pos_mass);
    s.vel = vel.isUndefined() ? std::vector<Double4>(s.pos_mass.size()) : to_double4(vel);
    s.group.assign(s.pos_mass.size(), 0);
    if (s.vel.size() != s.pos_mass.size()) throw Error("positions and velocities differ in length");
    return s;
}

}  // namespace nbody::web
