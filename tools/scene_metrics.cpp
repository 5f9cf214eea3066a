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
//   mapdiff A --with B   two surface density maps written by --map: the fraction of mass in other pixels and
//                    the rms of log10 of their ratio where either holds 1e-5 of the mass
//   compare SCENE    block steps against the shared step of equal accuracy (energy error within 20%, map and
//                    Lagrangian radii as close to the automatic step's as the block run's), from the automatic
//                    step (or --start) down by halving or up by doubling (step_compare.cpp)
// --map FILE writes the last state's surface density (projected along z about the centre of mass, --map-half,
// --map-bins) for mapdiff. --integrator, --eta and --dt replace the scene's (--dt auto: core/session/auto_step.hpp's
// step, as a scene without dt gets); block steps run by time.
// Every row also carries the relative energy error (float64 diagnostics) since the start; on a GPU backend the
// potential is the backend's exact O(N^2) sum on the device (Backend::potential_energy), at any N.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "core/session/auto_step.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "engine/backend_factory.hpp"
#include "scene/analysis.hpp"
#include "scene/ring_kinematics.hpp"
#include "scene/scene_checks.hpp"
#include "scene/scene_file.hpp"
#include "step_compare.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/param_checks.hpp"

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
    int gpus = 1;                         // --backend cuda: GPUs the run is split over
    bool own_centre = false;              // isolation: each group's radii about its own density centre
    std::string integrator;               // the scene's unless given
    double eta = 0, dt = 0;               // 0: the scene's
    std::string dt_text;                  // --dt as given: a number or "auto"
    CompareArgs compare;
    std::string map, with;                // --map: write the last state's; mapdiff: the second map
    double map_half = 30;
    int map_bins = 120;
};

// The scene's parameters with the command line's backend, method and opening angle.
SimParams params_for(const Args& a, const SceneSpec& scene) {
    SimParams p = scene.apply_to({});
    p.backend = *parse_backend_kind(a.backend);
    if (!a.method.empty()) p.method = *parse_method(a.method);
    if (a.theta > 0) p.tree.theta = static_cast<float>(a.theta);
    if (a.alpha >= 0) p.tree.alpha = static_cast<float>(a.alpha);
    p.gpus = a.gpus;
    if (!a.integrator.empty()) {
        const std::optional<Integrator> in = parse_integrator(a.integrator);
        if (!in) throw Error("--integrator " + a.integrator + ": not an integrator's name");
        p.integrator = *in;
    }
    if (a.eta > 0) p.eta = a.eta;
    if (a.dt > 0) p.dt = a.dt;
    validate(p);
    return p;
}

// Energy of s, with the backend's own potential where it has one (a GPU: the O(N^2) sum on the device).
Diagnostics energy_of(Backend& b, const State& s, const SimParams& p) {
    return compute_diagnostics(s, p.eps, p.G, 0, b.potential_energy());
}

using Clock = std::chrono::steady_clock;

// Steps of b until its clock reaches t (a shared step's count at once; block steps one at a time, their
// length varies); returns the seconds spent stepping.
double step_to(Backend& b, double t, double dt, bool block) {
    const auto t0 = Clock::now();
    if (block)
        while (b.time() < t - 1e-12 * dt) b.step(1);
    else if (const long k = std::lround((t - b.time()) / dt); k > 0)
        b.step(static_cast<int>(k));
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The block-step levels: count on each step dt_max / 2^k, and the last step's active bodies.
void print_levels(Backend& b) {
    const std::optional<BlockLevels> l = b.readouts(ReadoutAsk::levels()).block_levels;
    if (!l) return;
    std::printf("# levels (dt_max %g):", l->dt_max);
    for (std::size_t k = 0; k < l->count.size(); ++k) std::printf(" 1/%g: %zu", 1 / (l->dt_max / double(1ull << k)), l->count[k]);
    std::printf("; last step %zu active\n", l->last_active);
}

void write_map(const std::string& path, const SurfaceMap& m) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw Error(path + ": cannot write the map");
    std::fprintf(f, "%d %.17g\n", m.bins, m.half);
    for (std::size_t k = 0; k < m.mass.size(); ++k) std::fprintf(f, "%.9g%c", m.mass[k], (k + 1) % std::size_t(m.bins) ? ' ' : '\n');
    std::fclose(f);
}

SurfaceMap read_map(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f) throw Error(path + ": cannot read the map");
    SurfaceMap m;
    bool ok = std::fscanf(f, "%d %lf", &m.bins, &m.half) == 2 && m.bins > 0 && m.bins <= 4096 && m.half > 0;
    if (ok) m.mass.resize(std::size_t(m.bins) * std::size_t(m.bins));
    for (std::size_t k = 0; ok && k < m.mass.size(); ++k) ok = std::fscanf(f, "%lf", &m.mass[k]) == 1;
    std::fclose(f);
    if (!ok) throw Error(path + ": not a surface map (a line 'BINS HALF', then BINS x BINS masses)");
    return m;
}

template <class Row>
void run(const Args& a, const SceneSpec& scene, double until, Row&& row) {
    SimParams p = params_for(a, scene);
    const bool block = integrator_info(p.integrator).block_steps;
    const std::unique_ptr<Backend> b = make_backend(p);
    State s = build_scene(scene);
    b->reset(s, p);
    if (scene.dt_auto && !block) {
        std::printf("# %s\n", auto_step_words(settle_auto_step(*b)).c_str());
        p = b->params();
    }
    std::printf("# %s: %s, %s, dt %g%s\n", b->name().c_str(), b->kernel_label().c_str(),
                std::string(integrator_name(p.integrator)).c_str(), p.dt,
                block ? (", eta " + std::to_string(p.eta)).c_str() : "");
    print_levels(*b);
    const Diagnostics d0 = energy_of(*b, s, p);
    const double t_start = b->time(), row_dt = double(a.every) * p.dt;
    double stepping = 0;
    const auto t0 = Clock::now();
    for (long row_k = 1;; ++row_k) {
        b->read_state(s);
        std::printf("%9.4f  %s  dE/E %.2e\n", s.time, row(s).c_str(), relative_energy_error(d0, energy_of(*b, s, p)));
        std::fflush(stdout);
        if (b->time() >= t_start + until - 1e-12 * p.dt) break;
        stepping += step_to(*b, std::min(t_start + until, t_start + double(row_k) * row_dt), p.dt, block);
    }
    print_levels(*b);
    if (const std::string stages = b->readouts().stage_times; !stages.empty()) std::printf("# %s\n", stages.c_str());
    std::printf("# %lld steps to t = %g in %.1f s of wall time, %.2f s of it stepping\n", b->steps_taken(),
                b->time(), std::chrono::duration<double>(Clock::now() - t0).count(), stepping);
    if (!a.map.empty()) {
        std::vector<std::size_t> all(s.size());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        write_map(a.map, surface_map(s, center_of_mass(s, all), a.map_half, a.map_bins));
    }
}

void mapdiff_mode(const Args& a) {
    const SurfaceMap m1 = read_map(a.scene), m2 = read_map(a.with);
    const MapDifference d = compare_maps(m1, m2, 1e-5);
    std::printf("mapdiff %s %s: %d x %d pixels of %g, mass in other pixels %.4f, rms log10 ratio %.4f over %zu "
                "pixels\n", a.scene.c_str(), a.with.c_str(), m1.bins, m1.bins, 2 * m1.half / m1.bins, d.l1,
                d.log_rms, d.pixels);
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
    app.add_option("mode", a.mode, "ring | eight | isolation | tails | rotation | kinematic | mapdiff | compare")
        ->required()
        ->check(CLI::IsMember({"ring", "eight", "isolation", "tails", "rotation", "kinematic", "mapdiff", "compare"}));
    app.add_option("scene", a.scene, "Scene file (mapdiff: the first map)")->required()->check(CLI::ExistingFile);
    app.add_option("--with", a.with, "mapdiff: the second map")->check(CLI::ExistingFile);
    app.add_option("--map", a.map, "Write the last state's surface density map (along z) to this file");
    app.add_option("--map-half", a.map_half, "--map: half the side of the square, about the centre of mass")
        ->check(CLI::Range(1e-6, 1e6));
    app.add_option("--map-bins", a.map_bins, "--map: pixels a side")->check(CLI::Range(1, 4096));
    app.add_option("--integrator", a.integrator, joined_names(integrator_table()) + " (default: the scene's)");
    app.add_option("--eta", a.eta, "block steps' accuracy parameter (default: the scene's)")->check(CLI::Range(1e-6, 1.0));
    app.add_option("--dt", a.dt_text, "time step, or auto; block steps: the largest (default: the scene's)")
        ->check(CLI::IsMember({"auto"}) | CLI::Range(1e-12, 1e9));
    app.add_option("--energy-slack", a.compare.energy_slack, "compare: a shared run's |dE/E| may be this times the block run's")
        ->check(CLI::Range(1.0, 1e6));
    app.add_option("--map-tol", a.compare.map_tol, "compare: the largest map difference (mapdiff's mass in other pixels; 2: off)")
        ->check(CLI::Range(0.0, 2.0));
    app.add_option("--start", a.compare.start, "compare: the first shared step tried (default: the automatic step)")
        ->check(CLI::Range(1e-12, 1e9));
    app.add_option("--max-tries", a.compare.max_tries, "compare: shared runs at most, the reference apart")
        ->check(CLI::Range(1, 20));
    app.add_option("--radii-tol", a.compare.radii_tol, "compare: the largest relative difference of the 10/50/90% Lagrangian radii")
        ->check(CLI::Range(0.0, 10.0));
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
    app.add_option("--gpus", a.gpus, "backend cuda: GPUs to split the run over (default 1)")
        ->check(CLI::Range(1, kMaxGpus));
    app.add_option("--theta", a.theta, "method tree: Barnes opening angle (default: the scene's)")->check(CLI::Range(1e-6, 1.5));
    app.add_option("--alpha", a.alpha, "method tree: acceleration criterion, 0 = off (default: the scene's)")
        ->check(CLI::Range(0.0, 1.0));
    CLI11_PARSE(app, argc, argv);
    try {
        if (a.mode == "mapdiff") {
            if (a.with.empty()) throw Error("mapdiff: give the second map with --with");
            mapdiff_mode(a);
            return 0;
        }
        SceneSpec scene = load_scene_file(a.scene);
        if (a.bodies > 0) rescale_bodies(scene, static_cast<std::size_t>(a.bodies));
        if (a.dt_text == "auto") scene.dt_auto = true;
        else if (!a.dt_text.empty()) a.dt = std::stod(a.dt_text), scene.dt_auto = false;
        std::printf("# %s: N = %zu, dt = %g, eps = %g\n", a.scene.c_str(), scene.total_bodies(), scene.dt, scene.eps);
        if (a.mode == "ring") ring_mode(a, scene);
        else if (a.mode == "eight") eight_mode(a, scene);
        else if (a.mode == "tails") tails_mode(a, scene);
        else if (a.mode == "rotation")
            rotation_mode(a, scene);
        else if (a.mode == "kinematic")
            kinematic_mode(a, scene);
        else if (a.mode == "compare") {
            a.compare.until = a.until;
            a.compare.map_half = a.map_half, a.compare.map_bins = a.map_bins;
            compare_steps(scene, params_for(a, scene), a.compare);
        }
        else isolation_mode(a, scene);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
