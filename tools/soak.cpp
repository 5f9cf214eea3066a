// nbody-soak: the frame loop (off-screen EGL, the window's loop without the panels) for a given wall time,
// changing the scene, kernel variant, precision, integrator and force method every few seconds through the
// calls the panels make (Viewer::load_scene, Simulation::pending). Prints the host's resident memory at the
// start, every minute and at the end. A change the engine refuses (a family that does not run in that
// precision) is counted, not a failure; a step that fails, a NaN blow-up or an exception is.
//
// Usage: nbody-soak [SECONDS (1200)] [EVERY (3)] [SCENE_DIR (scenes)] [GPUS (1, or "all")]   exit 0: no failure
// With several GPUs every change runs on them: direct summation splits the bodies, the tree its walk.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/options.hpp"
#include "app/viewer.hpp"
#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/sim_params.hpp"
#include "render/gl_context.hpp"
#include "core/rows/integrator.hpp"

using namespace nbody;

namespace {

double resident_mib() {
    std::ifstream f("/proc/self/statm");
    long long pages = 0, resident = 0;
    f >> pages >> resident;
    return double(resident) * 4096.0 / (1024.0 * 1024.0);
}

std::vector<std::string> scene_files(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".toml") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// The k-th change: every fifth a new scene, the others one parameter each. Round r = k / 5 takes the r-th
// (method, integrator, precision) in mixed radix, the method the fastest digit: every combination in
// methods x integrators x precisions rounds, the ones the engines refuse included (counted), so no pair is
// skipped for its counts sharing a factor (six integrators and two methods made the tree meet only three of
// them, and then in a precision it refuses). Variants cycle on their own (they matter to direct summation).
std::string change(Viewer& v, const std::vector<std::string>& scenes, long long k) {
    SimParams& p = v.sim().pending();
    const auto& families = variant_table();
    const std::array<Precision, 3> precisions{Precision::Fp32, Precision::DS, Precision::Fp64};
    const auto& integrators = integrator_rows();
    const auto& methods = method_table();
    const long long r = k / 5;
    const std::size_t method = std::size_t(r) % methods.size(), above = std::size_t(r) / methods.size();
    switch (k % 5) {
        case 0: {
            const std::string& s = scenes[std::size_t(r) % scenes.size()];
            const std::string msg = v.load_scene(s, 1.0);
            return "scene " + s + (msg.empty() ? "" : ": " + msg);
        }
        case 1:
            p.variant = families[std::size_t(r) % families.size()].variant;
            return "variant " + std::string(variant_name(p.variant));
        case 2:
            p.precision = precisions[above / integrators.size() % precisions.size()];
            return "precision " + std::string(precision_name(p.precision));
        case 3:
            p.integrator = integrators[above % integrators.size()].id;
            return "integrator " + std::string(integrator_name(p.integrator));
        default:
            p.method = methods[method].value;
            return "method " + std::string(method_name(p.method));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 1200.0, every = argc > 2 ? std::atof(argv[2]) : 3.0;
    const std::string dir = argc > 3 ? argv[3] : "scenes";
    const std::string gpus = argc > 4 ? argv[4] : "1";
    if (gpus != "all" && (gpus.find_first_not_of("0123456789") != std::string::npos || gpus.empty() ||
                          std::atoi(gpus.c_str()) < 1 || std::atoi(gpus.c_str()) > kMaxGpus)) {
        std::fprintf(stderr, "nbody-soak: GPUS must be a count from 1 to %d or \"all\" (got \"%s\")\n", kMaxGpus,
                     gpus.c_str());
        return 2;
    }
    if (!(seconds > 0 && seconds <= 86400 && every > 0 && every <= seconds)) {
        std::fprintf(stderr, "nbody-soak: SECONDS must be in (0, 86400] and EVERY in (0, SECONDS]\n");
        return 2;
    }
    try {
        const std::vector<std::string> scenes = scene_files(dir);
        if (scenes.empty()) throw Error(dir + ": no .toml scene files");
        std::string why;
        auto ctx = create_headless_context(1280, 720, &why);
        if (!ctx) throw Error("no off-screen GL context: " + why);
        AppOptions o;
        o.scene_path = scenes.front();
        o.headless = true;
        o.gpus = gpus;
        Viewer v(o, *ctx);
        std::printf("soak: %s; %s\n", v.sim().backend_note().c_str(), ctx->description().c_str());
        std::printf("soak: start, host resident %.1f MiB\n", resident_mib());
        using Clock = std::chrono::steady_clock;
        const auto t0 = Clock::now();
        double next_change = every, next_report = 60;
        long long frames = 0, changes = 0, refusals = 0;
        for (;;) {
            const double now = std::chrono::duration<double>(Clock::now() - t0).count();
            if (now >= seconds) break;
            v.simulate_and_draw(now, v.simulation_budget());
            ctx->present();
            ++frames;
            if (v.sim().blew_up()) throw Error("blew up after change " + std::to_string(changes) + ": " + v.sim().error());
            if (!v.sim().error().empty()) {
                if (v.sim().error().rfind("step failed", 0) == 0) throw Error(v.sim().error());
                ++refusals;  // a parameter the engine does not run: the panels show the same message
                std::printf("soak: %7.1f s refused: %s\n", now, v.sim().error().c_str());
                v.sim().clear_error();
            }
            if (now >= next_change) {
                std::printf("soak: %7.1f s change %lld: %s\n", now, changes, change(v, scenes, changes).c_str());
                ++changes;
                next_change += every;
            }
            if (now >= next_report) {
                std::printf("soak: %7.1f s host resident %.1f MiB, %lld frames\n", now, resident_mib(), frames);
                next_report += 60;
            }
        }
        std::printf("soak: end after %.0f s: %lld frames, %lld changes, %lld refused; host resident %.1f MiB\n",
                    seconds, frames, changes, refusals, resident_mib());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nbody-soak: FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
