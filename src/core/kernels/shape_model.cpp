#include "core/kernels/shape_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/kernels/kernel_family.hpp"

namespace nbody {

double model_peak(const GpuLimits& g, Precision p) {
    const double fp32 = double(g.sms) * 128.0 * g.clock_ghz;
    return p == Precision::Fp64 ? fp32 / std::max(1, g.fp32_per_fp64) : fp32;
}

double model_slots(const GpuLimits& g) { return double(g.sms) * double(g.max_threads_per_sm); }

const GpuLimits& model_reference() {
    const std::string& name = builtin_tuning_table().key.gpu;
    for (const GpuLimits& g : gpu_classes())
        if (g.name == name) return g;
    return gpu_classes().back();  // a built-in table of a GPU outside the list: a unit test fails on it
}

TuningTable model_tuning_table(const GpuLimits& g) {
    TuningTable out;
    out.key = {g.name, g.sms, "model"};
    out.date = "";
    char src[200];
    std::snprintf(src, sizeof src, "model of %s (%d SMs, %d threads an SM, %d KiB shared a block, %.2f GHz)",
                  g.name.c_str(), g.sms, g.max_threads_per_sm, g.shared_per_block_optin >> 10, g.clock_ghz);
    out.source = src;
    const GpuLimits& ref = model_reference();
    TuningTable measured;
    try {
        measured = builtin_tuning_table();
    } catch (const Error&) {
        return out;  // no rows: auto takes the default shape
    }
    if (g.sms <= 0 || g.max_threads_per_sm <= 0 || g.clock_ghz <= 0) return out;
    const double load = model_slots(g) / model_slots(ref);  // the same relative load at N x load
    for (const TuningRow& r : measured.rows) {
        const FamilyInfo& f = variant_info(r.variant);
        if (!gpu_refusal(f, r.shape, g).empty()) continue;
        TuningRow m = r;
        m.n = std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(double(r.n) * load)));
        m.rate = r.rate * model_peak(g, r.precision) / model_peak(ref, r.precision);
        m.spread = 0;
        out.rows.push_back(m);
    }
    return out;
}

std::string model_note(const GpuLimits& g) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "no tuning table for %s yet: auto's kernel shapes come from a model of its %d SMs (%d threads "
                  "an SM, %d KiB of shared memory a block, %.2f GHz, fp64 at 1/%d of fp32); `nbody-bench --tune` "
                  "measures this GPU in a few minutes and auto uses the measurements from then on",
                  g.name.c_str(), g.sms, g.max_threads_per_sm, g.shared_per_block_optin >> 10, g.clock_ghz,
                  g.fp32_per_fp64);
    return buf;
}

LoadedTuning load_tuning_for(const TuningKey& key, const std::filesystem::path& dir, const GpuLimits& gpu) {
    LoadedTuning got = load_tuning_table(key, dir);
    if (got.table.key == key) return got;  // this GPU's own measurements
    const TuningKey& builtin = got.table.key;
    if (builtin.gpu == key.gpu && builtin.sms == key.sms) return got;  // measured on this model (any note stays)
    std::string why;  // a cache file that was ignored, and why
    if (got.note.rfind("ignoring tuning table", 0) == 0) why = got.note.substr(0, got.note.find("; auto uses"));
    got.table = model_tuning_table(gpu);
    got.note = (why.empty() ? std::string() : why + "; ") + model_note(gpu);
    return got;
}

}  // namespace nbody
