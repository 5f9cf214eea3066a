// The WGSL kernels' shape, chosen by the desktop GL backend's own rules (gl_backend/gl_shape.cpp): a WebGPU
// adapter's compute limits read as a GL context's, so the page and the desktop pick workgroup size, i-bodies an
// invocation (k), j-bodies an inner iteration (u), invocations sharing one i-body's j range (q) and the tile's
// loads from one source. Errors come back as the desktop's words ("block: this GL allows work groups of at
// most 256 invocations (got 1024)").
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "core/errors.hpp"
#include "core/kernels/gpu_limits.hpp"
#include "core/kernels/kernel_config.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/sim_params.hpp"
#include "gl_backend/gl_shape.hpp"

namespace nbody::web {
namespace {

using emscripten::val;

int limit(const val& limits, const char* name) {
    const val v = limits[name];
    if (!v.isNumber()) throw Error(std::string("adapter limit '") + name + "' missing");
    return static_cast<int>(std::min(v.as<double>(), 2147483647.0));
}

GlComputeLimits gl_limits_of(const val& limits) {
    GlComputeLimits l;
    l.major = 4, l.minor = 3;  // WebGPU compute is what GL 4.3 compute offers the kernel
    l.max_shared_bytes = limit(limits, "maxComputeWorkgroupStorageSize");
    l.max_invocations = limit(limits, "maxComputeInvocationsPerWorkgroup");
    l.max_size_x = limit(limits, "maxComputeWorkgroupSizeX");
    l.max_groups_x = limit(limits, "maxComputeWorkgroupsPerDimension");
    l.units = limits["units"].isNumber() ? limits["units"].as<int>() : 0;
    return l;
}

// Lower case, every run of other characters one '-': "NVIDIA H200" reads as Dawn's "nvidia-h200".
std::string normalised(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c)) out += char(std::tolower(c));
        else if (out.empty() || out.back() != '-') out += '-';
    }
    return out;
}

}  // namespace

// The shape for `n` bodies of `variant` ("none", "i", "ij"). k = 0 takes the variant's default k, u and block
// with q chosen from n and the units; otherwise k, u, block and q (0: chosen) as given, checked as the GL
// backend checks them. `limits`: the adapter's, plus `units` (compute units where known, else 0).
val kernel_shape_js(const std::string& variant, double n, const val& limits, int k, int u, int block, int q) {
    val r = val::object();
    try {
        const auto v = parse_variant(variant);
        if (!v || (*v != KernelVariant::None && *v != KernelVariant::IUnrolled && *v != KernelVariant::IJUnrolled))
            throw ParamError("variant", "the WGSL kernels run none, i and ij (got '" + variant + "')");
        if (!(n >= 1 && n <= 1e9)) throw ParamError("n", "must be from 1 to 1e9 (got " + std::to_string(n) + ")");
        SimParams p;
        p.kernel_auto = false;
        p.variant = *v;
        p.shape = variant_info(*v).default_shape;
        if (k > 0) p.shape.k = k, p.shape.u = u, p.shape.block = block, p.shape.q = q;
        const GlShape s = resolve_gl_shape(p, static_cast<std::size_t>(n), gl_limits_of(limits));
        r.set("ok", true);
        r.set("k", s.k);
        r.set("u", s.u);
        r.set("block", s.block);
        r.set("q", s.q);
        r.set("tileLoads", s.tile_loads);
        r.set("label", gl_shape_label(s));
    } catch (const std::exception& e) {
        r.set("ok", false);
        r.set("error", std::string(e.what()));
    }
    return r;
}

// Multiprocessors of a GPU the core knows by name (core/kernels/gpu_limits.cpp's classes) found in `description`
// (an adapter's vendor, architecture, device and description strings); 0 when none is named there.
int gpu_units_js(const std::string& description) {
    const std::string d = "-" + normalised(description) + "-";
    int best = 0;
    std::size_t longest = 0;  // the longest name found: "RTX 4090" is not "RTX 40"
    for (const GpuLimits& g : gpu_classes()) {
        const std::string name = "-" + normalised(g.name) + "-";  // whole words: "H200" is not "H2000"
        if (d.find(name) != std::string::npos && name.size() > longest) best = g.sms, longest = name.size();
    }
    return best;
}

}  // namespace nbody::web

EMSCRIPTEN_BINDINGS(nbody_shape) {
    emscripten::function("kernelShape", &nbody::web::kernel_shape_js);
    emscripten::function("gpuUnits", &nbody::web::gpu_units_js);
}
