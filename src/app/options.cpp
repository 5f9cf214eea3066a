#include "app/options.hpp"

#include <cctype>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <set>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli_checks.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"

#include "app/checkpoint_options.hpp"
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/rows/param_registry.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "io/snapshot_file.hpp"
#include "render/colour_scale.hpp"
#include "scene/group_labels.hpp"
#include "scene/scene_file.hpp"
#include "scene/scene_names.hpp"
#include "scene/toml_reader.hpp"  // did_you_mean

namespace nbody {

namespace fs = std::filesystem;

std::string scenes_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    for (const fs::path& dir :
         {exe.parent_path() / "scenes", exe.parent_path() / "../share/nbody-sandbox/scenes",
          fs::path(NBODY_SOURCE_DIR) / "scenes"}) {
        if (fs::exists(dir / "plummer.toml", ec)) return dir.string();
    }
    return (fs::path(NBODY_SOURCE_DIR) / "scenes").string();
}

std::string default_scene_path() {
    std::error_code ec;
    const fs::path dir = scenes_dir();
    if (fs::exists(dir / "figure8-3.toml", ec)) return (dir / "figure8-3.toml").string();
    return (dir / "plummer.toml").string();
}

namespace {
// "3" or "3,7": one or two different body numbers, each a whole number from 0.
std::vector<std::size_t> parse_pick(const std::string& text) {
    std::vector<std::size_t> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        const std::string part =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        std::size_t v = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size())
            throw CLI::ValidationError("--pick", "'" + text + "' is not N or N,M (body numbers from 0)");
        out.push_back(v);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (out.size() > 2 || (out.size() == 2 && out[0] == out[1]))
        throw CLI::ValidationError("--pick", "'" + text + "': one body, or two different ones for the ruler");
    return out;
}

// The window and off-screen rendering flags.
void add_render_options(CLI::App& app, AppOptions& o) {
    app.add_option("--frames", o.frames, "Quit after this many frames (window or headless rendering)")
        ->transform(integer_in(1, 100000000));
    app.add_option(
        "--screenshot", o.screenshot_path,
        "Save the last frame as this PNG (headless; or with a window and --frames, panels included)");
    app.add_option("--record", o.record_path,
                   "With --headless: record every frame to this video (needs ffmpeg)");
    app.add_option("--width", o.width, "Window width (screen units) or image width (pixels)")
        ->transform(integer_in(16, 16384));
    app.add_option("--height", o.height, "Window height (screen units) or image height (pixels)")
        ->transform(integer_in(16, 16384));
    app.add_flag("!--no-vsync", o.vsync, "Do not wait for the display's refresh");
    app.add_flag("!--no-interop", o.interop,
                 "Copy positions through the host even where CUDA-GL interop works");
    app.add_option("--ui-scale", o.ui_scale,
                   "Scale of the panels' text (projectors: 2); default from the monitor")
        ->check(real_in(0.5, 4.0));
    app.add_flag("--presentation", o.presentation,
                 "Start in the presentation layout: Scene and Physics panels and big read-outs (P toggles)");
    app.add_option("--color,--colour", o.color,
                   "Colour bodies by " + color_mode_choices() +
                       " (component: the scene's groups; density: local mass density, log scale; potential: "
                       "each body's gravitational potential: exact up to 16,384 bodies, the CPU tree's "
                       "estimate up to 2,097,152)")
        ->check(CLI::Validator(
            [](std::string& given) {  // CLI11 puts "--color: " before the words
                return parse_color_mode(given)
                           ? std::string()
                           : "'" + given + "' is not a colour mode; expected " + color_mode_choices();
            },
            "MODE"));
    app.add_flag("--auto-steps", o.auto_steps,
                 "As many steps per frame as fit in a 60 Hz frame ('as fast as possible')");
    app.add_flag("--paused", o.paused, "Start paused (headless: render the initial state)");
    app.add_option("--steps-per-frame", o.steps_per_frame, "Steps per drawn frame (1 to 10000)")
        ->transform(integer_in(1, 10000));
    app.add_option("--trails", o.trails,
                   "Fading trails of L past positions per body (2 to 4096; L defaults to 128)")
        ->expected(0, 1)
        ->default_str("128")
        ->transform(integer_in(limits::kMinTrailLength, limits::kMaxTrailLength));
    app.add_option("--tree-cells", o.tree_cells,
                   "Draw the tree's cells down to depth D over the bodies (0 to 8; with --method tree)")
        ->transform(integer_in(0, 8));
    app.add_option("--exposure", o.exposure,
                   "A fixed exposure (light times X into the tone map); default: measured from each frame")
        ->check(real_in(1e-4, 1e6));
    app.add_option("--exposure-ev", o.exposure_ev,
                   "Automatic exposure S stops brighter (+) or darker (-) than measured (-10 to 10)")
        ->check(real_in(-10, 10));
    app.add_option("--dark-matter", o.dark_matter,
                   "Dark-matter halos: dim (a faint haze, the default), show (full light) or hide")
        ->check(CLI::IsMember({"dim", "show", "hide"}));
    app.add_option("--glow", o.glow, "Bloom around dense regions (0 to 4; 0: none; default 0.3)")
        ->check(real_in(0, 4));
    app.add_option_function<std::string>(
        "--pick", [&o](const std::string& text) { o.pick = parse_pick(text); },
        "Pick body N for the measuring tools (its arrows, trace, period), and M for the ruler: N or N,M");
}

// One flag for each method's or integrator's own parameter in the registry (--theta, --eta, ...), with its
// range, unit, scope and default from its row.
void add_method_param_options(CLI::App& app, AppOptions& o) {
    const SimParams defaults;
    for (const ParamSpec& spec : param_registry()) {
        if ((spec.methods | spec.integrators) == 0) continue;
        const std::string name(spec.name);
        CLI::Option* opt = app.add_option_function<std::string>(
            "--" + name,
            [&o, name](const std::string& text) { o.method_params[name] = *cli_detail::parse_real(text); },
            param_help_text(spec) + ", default " + limits::format_number(spec.get(defaults)));
        if (spec.whole)
            opt->transform(integer_in((long long)spec.lo, (long long)spec.hi));
        else
            opt->check(real_in(spec.lo, spec.hi, !spec.zero.empty()));
    }
}

// "unknown flag '--stepz' (did you mean '--steps'?)" for the first argument that looks like a long flag and
// is none of `app`'s, else "". Everything after a bare "--" is positional.
std::string unknown_flag_message(const CLI::App& app, const std::vector<char*>& args) {
    std::set<std::string, std::less<>> known;
    for (const CLI::Option* opt : app.get_options())
        for (const std::string& name : opt->get_lnames()) known.insert("--" + name);
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string_view a(args[i]);
        if (a == "--") break;
        if (a.size() < 3 || a.substr(0, 2) != "--") continue;
        const std::string flag(a.substr(0, a.find('=')));
        if (known.count(flag)) continue;
        std::string text = "unknown flag '" + flag + "'";
        if (const std::string close = did_you_mean(flag, known); !close.empty())
            text += " (did you mean '" + close + "'?)";
        return text;
    }
    return "";
}
}  // namespace

std::variant<AppOptions, int> parse_command_line(int argc, char** argv, std::ostream* out,
                                                 std::ostream* err) {
    AppOptions o;
    std::string dt_text;
    CLI::App app{
        "nbody-sandbox: gravity by direct summation or a Barnes-Hut tree (Plummer softening, G = 1 N-body "
        "units)"};
    app.add_option("scene", o.scene_path,
                   "Scene file (TOML) or a shipped scene's name (cartwheel, plummer, ...); default: "
                   "scenes/figure8-3.toml (figure-eight galaxies), else scenes/plummer.toml")
        ->transform(CLI::Validator(
            [](std::string& given) {
                const std::optional<std::string> path = find_scene(given, scenes_dir());
                std::error_code ec;
                if (!path) return unknown_scene_message(given, scenes_dir());
                if (!fs::is_regular_file(*path, ec)) return "scene file does not exist: " + given;
                given = *path;
                return std::string();
            },
            "SCENE"));
    app.add_flag("--headless", o.headless,
                 "No window: with --frames/--screenshot/--record render off-screen (EGL), else simulate and "
                 "print a summary");
    using namespace limits;  // the physical ranges, shared with scene files: core/limits.hpp
    app.add_option("--steps", o.steps, "Steps to run headless (1 to 1e9)")
        ->transform(integer_in(1, 1000000000));
    app.add_option(
           "--t-end", o.t_end,
           "Headless: run until this simulated time, 1e-12 to 1e9 (block steps take as many as it needs; "
           "--steps then caps the count)")
        ->check(real_in(kMinDt, 1e9));
    app.add_option("--bodies", o.bodies,
                   "Override the scene's particle count (components scale in proportion)")
        ->transform(integer_in(1, 1LL << 26));
    app.add_option(
           "--dt", dt_text,
           "Time step (1e-12 to 1e6), or auto: the power of two below the smallest eta sqrt(eps / |a_i|) "
           "at the start (block steps: their largest step, a number)")
        ->check(CLI::Validator(
            [step = real_in(kMinDt, kMaxDt)](std::string& text) {
                if (text == "auto") return std::string();
                // Not a number at all: say auto is the other choice ("expected auto or a number from ...").
                std::string why = step(text);
                if (const std::size_t at = why.find("expected a number "); at == 0) why.insert(9, "auto or ");
                return why;
            },
            "auto or a number"));
    app.add_option("--eps", o.eps, "Plummer softening length (0, or 1e-9 to 1e4)")
        ->check(real_in(kMinEps, kMaxLength, true));
    app.add_option("--G", o.G, "Gravitational constant (1e-12 to 1e12)")->check(real_in(kMinG, kMaxG));
    app.add_option("--seed", o.seed, "Override the scene's random seed (0 to 2^62)")
        ->transform(integer_in(0, 1LL << 62));
    const BackendRows backends = backend_rows_with_gl();
    app.add_option("--backend", o.backend, backend_flag_help(backends))
        ->check(CLI::IsMember(backend_flag_choices(backends)));
    app.add_option("--variant", o.variant,
                   "CUDA kernel: auto (chosen per N and GPU, the default), " + families_help())
        ->check(CLI::IsMember(variant_choices()));
    app.add_option("--method", o.method, "Force method: " + joined_names(method_table()))
        ->check(CLI::IsMember(names_of(method_table())));
    app.add_option("--precision", o.precision, "Force arithmetic: " + joined_names(precision_table()))
        ->check(CLI::IsMember(names_of(precision_table())));
    app.add_option("--integrator", o.integrator, "Time integration: " + joined_names(integrator_table()))
        ->check(CLI::IsMember(names_of(integrator_table())));
    add_method_param_options(app, o);
    app.add_option("--gpus", o.gpus, "GPUs to spread the bodies over: a count or 'all' (default 1)")
        ->check(gpu_count_check());
    app.add_option(
           "--rank-timeout", o.rank_timeout,
           "Under mpirun: seconds to wait for the other ranks before giving up (1 to 86400, default 60)")
        ->check(real_in(1, 86400));
    // the shape flags' own rules (per variant) are checked by validate_shape; these only bound the numbers
    app.add_option("--k", o.k, "i-bodies per thread (variant-dependent: 1 or 2, 4, 8)")
        ->transform(integer_in(1, 1024));
    app.add_option("--u", o.u, "j-bodies per inner iteration (ij-unrolled: 2, 4, 8; pairs: 1, 2, 4)")
        ->transform(integer_in(1, 1024));
    app.add_option("--block", o.block, "CUDA threads per block (64 to 1024, multiple of 32)")
        ->transform(integer_in(1, 1024));
    app.add_option("--q", o.q,
                   "threads per body, j-split (0 = automatic, else 1 to 32, a power of two; pairs: "
                   "warps per i-set, 1, 2 or 4)")
        ->transform(integer_in(0, 1024));
    app.add_option("--threads", o.threads, "CPU threads (0 = all)")->transform(integer_in(0, 1024));
    app.add_option("--json", o.json_path, "Write the run summary as JSON to this file");
    add_render_options(app, o);
    app.add_flag("!--no-diagnostics", o.diagnostics, "Skip the O(N^2) float64 energy at start and end");
    app.add_flag("--quiet", o.quiet, "No progress line");
    const std::string hdf5_note = hdf5_supported() ? "" : " (HDF5 support is not built)";
    app.add_option("--save", o.save_path,
                   "Headless: write the final state to this snapshot, by its name: " +
                       snapshot_formats_text() + hdf5_note);
    app.add_option("--load-snapshot", o.snapshot_path,
                   "Resume from a snapshot, by its name: " + snapshot_formats_text() +
                       " (its dt, eps, G unless given)")
        ->check(CLI::ExistingFile);
    add_checkpoint_options(app, o, hdf5_note);
    // "--trails scene.toml": the scene is not a length. A bare --trails followed by anything but a number is
    // read as --trails=128, so the optional value never swallows the scene file.
    std::vector<char*> args(argv, argv + argc);
    std::string bare_trails = "--trails=128";
    for (std::size_t i = 1; i < args.size(); ++i)
        if (std::string_view(args[i]) == "--trails" &&
            (i + 1 == args.size() || !std::isdigit(static_cast<unsigned char>(args[i + 1][0]))))
            args[i] = bare_trails.data();
    // An unknown flag is named as one: otherwise its value ("--stepz 5") is taken for the scene ("no scene
    // '5'").
    if (std::string bad = unknown_flag_message(app, args); !bad.empty()) {
        (err ? *err : std::cerr) << "nbody-sandbox: " << bad << "\nRun with --help for more information.\n";
        return 2;
    }
    try {
        app.parse(int(args.size()), args.data());
    } catch (const CLI::ParseError& e) {
        return app.exit(e, out ? *out : std::cout, err ? *err : std::cerr);
    }
    if (dt_text == "auto")
        o.dt_auto = true;
    else if (!dt_text.empty())
        o.dt = cli_detail::parse_real(dt_text);
    if (o.t_end && app.count("--steps") == 0) o.steps = 1000000000LL;  // the time decides, not a count
    return o;
}

namespace {
// The scene a snapshot stands for: its name and the dt, eps and G it was saved with.
void adopt_snapshot(RunSetup& r, const AppOptions& o) {
    Snapshot snap = read_snapshot(o.snapshot_path);
    if (o.bodies) throw ParamError("--bodies", "cannot change the number of bodies of a snapshot");
    adopt_saved_scene(r.scene, snap.info.scene);
    if (snap.info.dt) r.scene.dt = *snap.info.dt, r.scene.dt_auto = false;
    r.scene.eps = snap.info.eps.value_or(r.scene.eps);
    r.scene.G = snap.info.G.value_or(r.scene.G);
    r.snapshot = std::move(snap.state);
}
}  // namespace

void adopt_saved_scene(SceneSpec& scene, const std::string& saved) {
    if (saved.empty() || saved == scene.name) return;
    if (std::optional<SceneSpec> own = shipped_scene_titled(saved, scenes_dir())) {
        scene = std::move(*own);
        return;
    }
    scene.name = saved;
    scene.source.clear();  // the Scene panel selects no file: loading one is the user's choice
    scene.description.clear();
    scene.watch.clear();
    scene.camera.reset();
    scene.units = {};
    scene.components.clear();  // the bodies come from the file; their groups are not the loaded scene's
}

std::vector<std::string> run_group_labels(const RunSetup& setup) {
    return setup.saved_group_labels.empty() ? group_labels(setup.scene) : setup.saved_group_labels;
}

State initial_state(const RunSetup& setup) {
    return setup.snapshot ? *setup.snapshot : build_scene(setup.scene);
}

RunSetup prepare_run(const AppOptions& o) {
    RunSetup r;
    r.scene = load_scene_file(o.scene_path.empty() ? default_scene_path() : o.scene_path);
    if (!o.snapshot_path.empty()) adopt_snapshot(r, o);
    if (o.bodies) rescale_bodies(r.scene, static_cast<std::size_t>(*o.bodies));
    if (o.dt) r.scene.dt = *o.dt, r.scene.dt_auto = false;
    if (o.dt_auto) r.scene.dt_auto = true;
    if (o.eps) r.scene.eps = *o.eps;
    if (o.G) r.scene.G = *o.G;
    if (o.seed) r.scene.seed = *o.seed;
    SimParams p = r.scene.apply_to({});
    p.backend = *parse_backend_kind(o.backend);
    if (o.variant == "auto") {
        p.kernel_auto = true;
    } else if (!o.variant.empty()) {
        p.kernel_auto = false;
        p.variant = *parse_variant(o.variant);
        p.shape = variant_info(p.variant).default_shape;
    }
    // A shape flag without --variant means a hand-picked shape of the default variant.
    if (o.variant.empty() && (o.k || o.u || o.block || o.q)) p.kernel_auto = false;
    if (!o.method.empty()) p.method = *parse_method(o.method);
    if (!o.precision.empty()) p.precision = *parse_precision(o.precision);
    if (!o.integrator.empty()) p.integrator = *parse_integrator(o.integrator);
    for (const auto& [name, value] : o.method_params)
        find_param(name)->set(p, value);  // names from the registry
    if (!o.gpus.empty()) p.gpus = o.gpus == "all" ? 0 : std::stoi(o.gpus);
    if (o.k) p.shape.k = *o.k;
    if (o.u) p.shape.u = *o.u;
    if (o.block) p.shape.block = *o.block;
    if (o.q) p.shape.q = *o.q;
    p.cpu_threads = o.threads;
    if (o.steps_per_frame) p.steps_per_frame = *o.steps_per_frame;
    try {
        validate(p);
    } catch (const ParamError& e) {
        throw ParamError("--" + e.field, std::string(e.what()).substr(e.field.size() + 2));
    }
    if (r.scene.dt_auto && integrator_info(p.integrator).block_steps)
        throw ParamError("--dt", "block steps (" + std::string(integrator_name(p.integrator)) +
                                     ") take dt as their largest step: give --dt a number; auto chooses one "
                                     "shared step");
    r.params = p;
    if (!o.resume_path.empty()) adopt_checkpoint(r, o);
    return r;
}

}  // namespace nbody
