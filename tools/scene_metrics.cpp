// nbody-scene-metrics: runs a scene on the CPU backend and prints the numbers docs/scenes.md records.
//   ring SCENE       the Cartwheel's ring: radius and contrast of Sigma(R, t) / Sigma(R, 0) against time
//   eight SCENE      figure-eight galaxies: density-centre deviation from the ideal orbit / orbit size
//   isolation SCENE  per colour group: virial ratio and 10/50/90% Lagrangian radii against time
//   tails SCENE      fraction of a disk's bodies (--group) beyond --radius from the density centre of its
//                    halo (--around): stars pulled out into tidal tails and bridges
// Every row also carries the relative energy error (float64 diagnostics) since the start.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "core/diagnostics.hpp"
#include "cpu/cpu_backend.hpp"
#include "scene/scene_checks.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {

struct Args {
    std::string mode, scene;
    long long bodies = 0;
    double until = 0;  // simulated time; 0: mode default
    long every = 64;   // steps between rows
    unsigned group = 0, around = 1;
    double radius = 2.5;
    double r_max = 1.5, r_min = 0.2;
    int bins = 30;
};

template <class Row>
void run(const Args& a, const SceneSpec& scene, double until, Row&& row) {
    CpuBackend b;
    const SimParams p = scene.apply_to({});
    State s = build_scene(scene);
    b.reset(s, p);
    const Diagnostics d0 = compute_diagnostics(s, p.eps, p.G);
    const long steps = std::lround(until / p.dt);
    for (long done = 0;; done += a.every) {
        b.read_state(s);
        std::printf("%9.4f  %s  dE/E %.2e\n", s.time, row(s).c_str(),
                    relative_energy_error(d0, compute_diagnostics(s, p.eps, p.G)));
        std::fflush(stdout);
        if (done >= steps) break;
        b.step(static_cast<int>(std::min<long>(a.every, steps - done)));
    }
}

std::string fmt(const char* f, double x, double y = 0, double z = 0, double w = 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, f, x, y, z, w);
    return buf;
}

void ring_mode(const Args& a, const SceneSpec& scene) {
    const RingTracker ring(build_scene(scene), a.group, {0, 0, 1}, a.r_max, a.bins, a.r_min);
    run(a, scene, a.until > 0 ? a.until : 4.0, [&](const State& s) {
        const RingSample r = ring.measure(s);
        return fmt("peak R %.3f contrast %.2f  excess R %.3f", r.radius, r.contrast, r.excess_radius);
    });
}

void eight_mode(const Args& a, const SceneSpec& scene) {
    ChoreographyTracker eight(scene, 0);
    std::printf("# period %.4f, orbit size %.4f\n", eight.period(), eight.size());
    double worst = 0, worst_path = 0;
    run(a, scene, a.until > 0 ? a.until : eight.period(), [&](const State& s) {
        const double d = eight.deviation(s), dp = eight.path_deviation(s);
        worst = std::max(worst, d), worst_path = std::max(worst_path, dp);
        return fmt("same-time %.4f (max %.4f)  path %.4f (max %.4f)", d, worst, dp, worst_path);
    });
}

void tails_mode(const Args& a, const SceneSpec& scene) {
    run(a, scene, a.until > 0 ? a.until : 12.5, [&](const State& s) {
        const auto disk = bodies_in_group(s, a.group), halo = bodies_in_group(s, a.around);
        const Double3 c = density_center(s, halo);
        std::size_t far = 0;
        for (std::size_t i : disk) {
            const Double3 d = Double3{s.pos_mass[i].x, s.pos_mass[i].y, s.pos_mass[i].z} - c;
            far += dot(d, d) > a.radius * a.radius;
        }
        return fmt("beyond R %.2f: %.3f of the disk", a.radius,
                   double(far) / double(std::max<std::size_t>(1, disk.size())));
    });
}

// Radii around the centre of mass of everything: the scene is meant to be one galaxy alone.
void isolation_mode(const Args& a, const SceneSpec& scene) {
    const State s0 = build_scene(scene);
    run(a, scene, a.until > 0 ? a.until : 5.0, [&](const State& s) {
        std::vector<std::size_t> all(s.size());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        std::string out = fmt("Q %.3f  ", virial_ratio(s, all, scene.eps, scene.G));
        const double f[] = {0.1, 0.5, 0.9};
        for (uint32_t g = 0; g < 256; ++g) {
            const auto idx = bodies_in_group(s, g);
            if (idx.size() < 2) continue;
            const auto r = lagrangian_radii(s, idx, center_of_mass(s, all), f);
            const auto idx0 = bodies_in_group(s0, g);
            const auto r0 = lagrangian_radii(s0, idx0, center_of_mass(s0, all), f);
            out += fmt("g%.0f r10 %+.3f r50 %+.3f r90 %+.3f  ", g, r[0] / r0[0] - 1, r[1] / r0[1] - 1,
                       r[2] / r0[2] - 1);
        }
        return out;
    });
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    CLI::App app{"Measure a shipped scene (CPU backend) for docs/scenes.md"};
    app.add_option("mode", a.mode, "ring | eight | isolation | tails")
        ->required()
        ->check(CLI::IsMember({"ring", "eight", "isolation", "tails"}));
    app.add_option("scene", a.scene, "Scene file")->required()->check(CLI::ExistingFile);
    app.add_option("--bodies", a.bodies, "Total N (components scale in proportion)");
    app.add_option("--until", a.until, "Simulated time to run to (default ring 4, eight one period, isolation 5, tails 12.5)");
    app.add_option("--every", a.every, "Steps between rows")->check(CLI::PositiveNumber);
    app.add_option("--group", a.group, "ring, tails: colour group of the disk");
    app.add_option("--around", a.around, "tails: colour group whose density centre is the galaxy's centre");
    app.add_option("--radius", a.radius, "tails: count disk bodies farther than this from that centre");
    app.add_option("--rmax", a.r_max, "ring: outer radius of the annuli");
    app.add_option("--rmin", a.r_min, "ring: ignore annuli inside this radius");
    app.add_option("--bins", a.bins, "ring: number of annuli");
    CLI11_PARSE(app, argc, argv);
    try {
        SceneSpec scene = load_scene_file(a.scene);
        if (a.bodies > 0) rescale_bodies(scene, static_cast<std::size_t>(a.bodies));
        std::printf("# %s: N = %zu, dt = %g, eps = %g\n", a.scene.c_str(), scene.total_bodies(), scene.dt, scene.eps);
        if (a.mode == "ring") ring_mode(a, scene);
        else if (a.mode == "eight") eight_mode(a, scene);
        else if (a.mode == "tails") tails_mode(a, scene);
        else isolation_mode(a, scene);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
