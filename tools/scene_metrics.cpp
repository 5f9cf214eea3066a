// nbody-scene-metrics: runs a scene (on the CPU backend unless --backend says otherwise) and prints the numbers
// docs/scenes.md records.
//   ring SCENE       the Cartwheel's ring: radius and contrast of Sigma(R, t) / Sigma(R, 0) against time
//   eight SCENE      figure-eight galaxies: density-centre deviation from the ideal orbit / orbit size
//   isolation SCENE  per colour group: virial ratio and 10/50/90% Lagrangian radii against time
//   tails SCENE      fraction of a disk's bodies (--group) beyond --radius from the density centre of its
//                    halo (--around): stars pulled out into tidal tails and bridges
//   rotation SCENE   the first disk galaxy's rotation curve and epicyclic frequency, measured from its bodies
//                    against the analytic model the generator uses, and what its disk bodies do
//   kinematic SCENE  the Cartwheel: the N-body ring against the kinematic (test-ring) ring in the same
//   passage
//                    of the intruder (group --intruder), both measured with the same ring tracker
// Every row also carries the relative energy error (float64 diagnostics) since the start; on a GPU backend the
// potential is the backend's exact O(N^2) sum on the device (Backend::potential_energy), at any N.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "core/diagnostics.hpp"
#include "core/errors.hpp"
#include "engine/backend_factory.hpp"
#include "scene/ring_kinematics.hpp"
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
    unsigned intruder = 2;
    std::string backend = "cpu", method;  // method: the scene's unless given
    double theta = 0;                     // 0: the scene's
    double alpha = -1;                    // < 0: the scene's
    bool own_centre = false;              // isolation: each group's radii about its own density centre
};

// The scene's parameters with the command line's backend, method and opening angle.
SimParams params_for(const Args& a, const SceneSpec& scene) {
    SimParams p = scene.apply_to({});
    p.backend = *parse_backend_kind(a.backend);
    if (!a.method.empty()) p.method = *parse_method(a.method);
    if (a.theta > 0) p.tree.theta = static_cast<float>(a.theta);
    if (a.alpha >= 0) p.tree.alpha = static_cast<float>(a.alpha);
    validate(p);
    return p;
}

// Energy of s, with the backend's own potential where it has one (a GPU: the O(N^2) sum on the device).
Diagnostics energy_of(Backend& b, const State& s, const SimParams& p) {
    return compute_diagnostics(s, p.eps, p.G, 0, b.potential_energy());
}

template <class Row>
void run(const Args& a, const SceneSpec& scene, double until, Row&& row) {
    const SimParams p = params_for(a, scene);
    const std::unique_ptr<Backend> b = make_backend(p);
    State s = build_scene(scene);
    b->reset(s, p);
    std::printf("# %s: %s\n", b->name().c_str(), b->kernel_label().c_str());
    const Diagnostics d0 = energy_of(*b, s, p);
    const long steps = std::lround(until / p.dt);
    const auto t0 = std::chrono::steady_clock::now();
    for (long done = 0;; done += a.every) {
        b->read_state(s);
        std::printf("%9.4f  %s  dE/E %.2e\n", s.time, row(s).c_str(), relative_energy_error(d0, energy_of(*b, s, p)));
        std::fflush(stdout);
        if (done >= steps) break;
        b->step(static_cast<int>(std::min<long>(a.every, steps - done)));
    }
    std::printf("# %ld steps in %.1f s of wall time, diagnostics included\n", steps,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
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

// Radii around the centre of mass of everything: the scene is meant to be one galaxy alone. --own-centre:
// each group's around its own density centre (a bulge's inner tenth is smaller than the galaxy's centre
// wanders).
void isolation_mode(const Args& a, const SceneSpec& scene) {
    const State s0 = build_scene(scene);
    std::vector<std::size_t> all(s0.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const double f[] = {0.1, 0.5, 0.9};
    auto radii = [&](const State& x, const std::vector<std::size_t>& members) {
        return lagrangian_radii(x, members, a.own_centre ? density_center(x, members) : center_of_mass(x, all), f);
    };
    // The groups and their radii at the start, measured once (each row finds the members again: a backend's
    // state need not keep the bodies in the order they started in).
    struct Group {
        uint32_t id;
        std::vector<double> r0;
    };
    std::vector<Group> groups;
    for (uint32_t g = 0; g < 256; ++g)
        if (const auto idx = bodies_in_group(s0, g); idx.size() >= 2) groups.push_back({g, radii(s0, idx)});
    run(a, scene, a.until > 0 ? a.until : 5.0, [&](const State& s) {
        std::string out = fmt("Q %.3f  ", virial_ratio(s, all, scene.eps, scene.G));
        for (const Group& g : groups) {
            const auto r = radii(s, bodies_in_group(s, g.id));
            out += fmt("g%.0f r10 %+.3f r50 %+.3f r90 %+.3f  ", g.id, r[0] / g.r0[0] - 1, r[1] / g.r0[1] - 1,
                       r[2] / g.r0[2] - 1);
        }
        return out;
    });
}

// The scene's first disk galaxy as the generator saw it.
const ComponentSpec& first_disk_galaxy(const SceneSpec& scene) {
    for (const ComponentSpec& c : scene.components)
        if (c.type == ComponentType::DiskGalaxy) return c;
    throw Error(scene.source + ": has no disk_galaxy component");
}

DiskGalaxyParams galaxy_params(const ComponentSpec& c, const SceneSpec& scene) {
    return {c.n, c.mass, c.disk, c.halo, scene.eps, scene.G, c.bulge};
}

void rotation_mode(const Args& a, const SceneSpec& scene) {
    const ComponentSpec& g = first_disk_galaxy(scene);
    const State s = build_scene(scene);
    std::vector<std::size_t> galaxy = bodies_in_group(s, g.disk.group);
    const auto disk = galaxy;
    if (g.halo.group != g.disk.group)
        for (std::size_t i : bodies_in_group(s, g.halo.group)) galaxy.push_back(i);
    const Double3 c = density_center(s, disk);
    const double w = a.r_max / a.bins;
    const auto radii = radius_grid(0.5 * w, a.r_max - 0.5 * w, w);  // the annuli's centres
    const RotationCurve meas = measured_rotation(s, galaxy, c, radii, scene.eps, scene.G, 64);
    const RotationCurve model = model_rotation(galaxy_params(g, scene), radii);
    const DiskKinematics k = measured_disk_kinematics(s, disk, c, a.r_max, a.bins);
    const double h = g.disk.scale_length, cut = g.disk.cutoff / h;
    const double sigma0 =
        g.mass * g.disk.mass_fraction / (2 * 3.141592653589793 * h * h * (1 - (1 + cut) * std::exp(-cut)));
    std::printf(
        "#     R  vc_meas vc_model  kappa_meas kappa_model  vphi_disk  sigR_disk sigR_model  bodies\n");
    for (std::size_t i = 0; i < radii.size(); ++i) {
        const double R = radii[i];
        const std::size_t b = i;
        const double sig_model =
            g.disk.toomre_q * 3.36 * scene.G * sigma0 * std::exp(-R / h) / std::sqrt(model.kappa2[i]);
        std::printf("%7.3f  %7.4f  %7.4f   %9.4f   %9.4f    %7.4f    %7.4f    %7.4f  %6zu\n", R,
                    std::sqrt(meas.vc2[i]), std::sqrt(model.vc2[i]), std::sqrt(std::max(0.0, meas.kappa2[i])),
                    std::sqrt(model.kappa2[i]), k.vphi_mean[b], k.sigma_R[b], sig_model, k.count[b]);
    }
}

// kappa^2 of a curve at R, linear between grid points.
double model_kappa2_at(const RotationCurve& c, double R) {
    RotationCurve k{c.R, c.kappa2, {}};
    return k.vc2_at(R);
}

// The intruder component (the one coloured --intruder) and its Plummer scale.
const ComponentSpec& component_in_group(const SceneSpec& scene, unsigned group) {
    for (const ComponentSpec& c : scene.components)
        if (c.type != ComponentType::DiskGalaxy && c.group == group) return c;
    throw Error(scene.source + ": no component has group " + std::to_string(group));
}

void kinematic_mode(const Args& a, const SceneSpec& scene) {
    const ComponentSpec& g = first_disk_galaxy(scene);
    const ComponentSpec& intruder = component_in_group(scene, a.intruder);
    const SimParams p = params_for(a, scene);
    State s = build_scene(scene);
    const RingTracker ring(s, g.disk.group, {0, 0, 1}, a.r_max, a.bins, a.r_min);
    const std::unique_ptr<Backend> backend = make_backend(p);
    Backend& b = *backend;
    b.reset(s, p);
    IntruderPassage path{{}, {}, intruder.mass, intruder.scale, scene.G};
    std::vector<RingSample> nbody;
    const long steps = std::lround((a.until > 0 ? a.until : 5.0) / p.dt), record = 4;
    for (long done = 0;; done += record) {
        b.read_state(s);
        const auto disk = bodies_in_group(s, g.disk.group);
        const Double3 cd = density_center(s, disk), ci = density_center(s, bodies_in_group(s, a.intruder));
        path.t.push_back(s.time);
        path.z.push_back(ci.z - cd.z);
        if (done % a.every == 0) nbody.push_back(ring.measure(s));
        if (done >= steps) break;
        b.step(static_cast<int>(std::min<long>(record, steps - done)));
    }
    std::size_t cross = 0;
    while (cross + 1 < path.z.size() && path.z[cross + 1] > 0) ++cross;
    const std::size_t after = std::min(cross + 1, path.t.size() - 1);
    // linear interpolation to z = 0, and the relative speed there
    const double t_cross = path.t[cross] + path.z[cross] / std::max(1e-12, path.z[cross] - path.z[after]) *
                                               (path.t[after] - path.t[cross]);
    std::printf("# intruder crosses the disk plane at t = %.3f at relative speed %.3f\n", t_cross,
                (path.z[cross] - path.z[after]) / std::max(1e-12, path.t[after] - path.t[cross]));
    const RotationCurve curve = model_rotation(galaxy_params(g, scene), radius_grid(0.01, 4.0, 0.01));
    double z0 = path.z.front(), v0 = 1.5;
    for (const OrbitSpec& o : scene.orbits)
        if (o.type == OrbitType::HeadOn) z0 = o.distance, v0 = o.speed;
    const IntruderPassage model =
        computed_passage(curve, g.mass, intruder.mass, intruder.scale, z0, v0, path.t.back(), scene.G);
    for (std::size_t i = 1; i < model.z.size(); ++i)
        if (model.z[i] <= 0 && model.z[i - 1] > 0) {
            std::printf("# the passage computed from the model alone crosses at t = %.3f at speed %.3f\n",
                        model.t[i], (model.z[i - 1] - model.z[i]) / (model.t[i] - model.t[i - 1]));
            break;
        }
    KinematicDisk kin(curve, g.disk, g.mass * g.disk.mass_fraction, path);
    const RingTracker kin_ring(kin.state(), 0, {0, 0, 1}, a.r_max, a.bins, a.r_min);
    std::printf(
        "#     t   z_intr | N-body peak R contrast excess R | kinematic peak R contrast excess R |"
        " kappa tau  dR/dt\n");
    for (const RingSample& n : nbody) {
        kin.advance_to(n.time);
        const RingSample k = kin_ring.measure(kin.state());
        // the epicyclic phase kappa(R) tau at the N-body ring, and the speed linear theory gives it there
        const double tau = n.time - t_cross,
                     kap = std::sqrt(std::max(0.0, model_kappa2_at(curve, n.excess_radius)));
        std::printf("%7.3f  %7.3f |  %6.3f  %6.2f  %6.3f  |  %6.3f  %6.2f  %6.3f  |  %5.2f  %5.3f\n", n.time,
                    path.z_at(n.time), n.radius, n.contrast, n.excess_radius, k.radius, k.contrast,
                    k.excess_radius, tau > 0 ? kap * tau : 0.0,
                    epicyclic_ring_speed(curve, n.excess_radius, tau));
    }
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    CLI::App app{"Measure a shipped scene (CPU backend) for docs/scenes.md"};
    app.add_option("mode", a.mode, "ring | eight | isolation | tails | rotation | kinematic")
        ->required()
        ->check(CLI::IsMember({"ring", "eight", "isolation", "tails", "rotation", "kinematic"}));
    app.add_option("scene", a.scene, "Scene file")->required()->check(CLI::ExistingFile);
    app.add_option("--bodies", a.bodies, "Total N (components scale in proportion)");
    app.add_option("--until", a.until, "Simulated time to run to (default ring 4, eight one period, isolation 5, tails 12.5)");
    app.add_option("--every", a.every, "Steps between rows")->check(CLI::PositiveNumber);
    app.add_option("--group", a.group, "ring, tails: colour group of the disk");
    app.add_option("--around", a.around, "tails: colour group whose density centre is the galaxy's centre");
    app.add_option("--radius", a.radius, "tails: count disk bodies farther than this from that centre");
    app.add_option("--rmax", a.r_max, "ring: outer radius of the annuli");
    app.add_option("--rmin", a.r_min, "ring: ignore annuli inside this radius");
    app.add_option("--bins", a.bins, "ring, rotation, kinematic: number of annuli");
    app.add_option("--intruder", a.intruder, "kinematic: colour group of the intruder");
    app.add_option("--backend", a.backend, "auto, cpu (default) or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    app.add_option("--method", a.method, "direct or tree (default: the scene's)")
        ->check(CLI::IsMember({"direct", "tree"}));
    app.add_flag("--own-centre", a.own_centre, "isolation: each group's radii about its own density centre");
    app.add_option("--theta", a.theta, "method tree: Barnes opening angle (default: the scene's)")->check(CLI::Range(1e-6, 1.5));
    app.add_option("--alpha", a.alpha, "method tree: acceleration criterion, 0 = off (default: the scene's)")
        ->check(CLI::Range(0.0, 1.0));
    CLI11_PARSE(app, argc, argv);
    try {
        SceneSpec scene = load_scene_file(a.scene);
        if (a.bodies > 0) rescale_bodies(scene, static_cast<std::size_t>(a.bodies));
        std::printf("# %s: N = %zu, dt = %g, eps = %g\n", a.scene.c_str(), scene.total_bodies(), scene.dt, scene.eps);
        if (a.mode == "ring") ring_mode(a, scene);
        else if (a.mode == "eight") eight_mode(a, scene);
        else if (a.mode == "tails") tails_mode(a, scene);
        else if (a.mode == "rotation")
            rotation_mode(a, scene);
        else if (a.mode == "kinematic")
            kinematic_mode(a, scene);
        else isolation_mode(a, scene);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
