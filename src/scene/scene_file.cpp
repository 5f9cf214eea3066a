#include "scene/scene_file.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_registry.hpp"
#include "scene/component_reader.hpp"
#include "scene/orbits.hpp"
#include "scene/toml_reader.hpp"

namespace nbody {

namespace {

CameraSpec read_camera(const toml::table& t, const std::string& file) {
    TomlReader r(t, file, "camera.");
    CameraSpec c;
    c.distance = r.number("distance", c.distance, limits::kMinLength, 1e9);
    const auto box = r.size2("frame", {0, 0}, limits::kMinLength, 1e9);
    if (box[0] > 0 && r.has("distance"))
        r.fail(r.where("frame"), "frame", "give 'distance' or 'frame', not both");
    c.frame_width = box[0], c.frame_height = box[1];
    c.target = r.vec3("target", {}, limits::kMaxPosition);
    c.yaw_deg = r.number("yaw", c.yaw_deg, -360.0, 360.0);
    c.pitch_deg = r.number("pitch", c.pitch_deg, -89.0, 89.0);
    c.trails = int(r.integer("trails", 0, limits::kMinTrailLength, limits::kMaxTrailLength));
    r.finish();
    return c;
}

// [units]: length = 10, length_unit = "kpc", time = 14.9, time_unit = "Myr"; each number with its unit.
PhysicalUnits read_units(const toml::table& t, const std::string& file) {
    TomlReader r(t, file, "units.");
    PhysicalUnits u;
    if (r.has("length") || r.has("length_unit")) {
        u.length = r.number("length", 0.0, 1e-30, 1e30);
        if (!r.has("length")) r.fail(r.where("length_unit"), "length", "give 'length' with 'length_unit'");
        u.length_unit = r.required_choice("length_unit", length_unit_names(), "length unit");
    }
    if (r.has("time") || r.has("time_unit")) {
        u.time = r.number("time", 0.0, 1e-30, 1e30);
        if (!r.has("time")) r.fail(r.where("time_unit"), "time", "give 'time' with 'time_unit'");
        u.time_unit = r.required_choice("time_unit", time_unit_names(), "time unit");
    }
    r.finish();
    return u;
}

// 0 (no softening) or a length from kMinEps to kMaxLength.
double read_softening(TomlReader& r) {
    const toml::node* n = r.node("eps");
    const double raw = n ? n->value<double>().value_or(0.0) : 0.0;
    const double eps = limits::is_subnormal(raw) ? raw : r.number("eps", 0.01, 0.0, limits::kMaxLength);
    if (eps == 0 || eps >= limits::kMinEps) return eps;
    r.fail(r.where("eps"), "eps",
           "must be 0 or from 1e-9 to " + TomlReader::format(limits::kMaxLength) + " (got " +
               TomlReader::format(eps) + (limits::is_subnormal(eps) ? ", a subnormal number)" : ")"));
}

// dt: a number, or "auto" (also what no dt means) for the step core/session/auto_step.hpp chooses at the start. Block
// steps take dt as their largest step and need it given: "auto" picks one shared step.
void read_step(TomlReader& r, SceneSpec& s) {
    const toml::node* n = r.node("dt");
    const bool block = s.integrator && integrator_info(*s.integrator).block_steps;
    const std::string block_words =
        "block steps (" + std::string(integrator_name(s.integrator.value_or(Integrator::LeapFrog))) +
        ") take dt as their largest step: give it a number from " + TomlReader::format(limits::kMinDt) + " to " +
        TomlReader::format(limits::kMaxDt) + "; \"auto\" chooses one shared step";
    if (n && n->is_string()) {
        if (n->value<std::string>().value_or("") != "auto")
            r.fail(n->source(), "dt",
                   "must be a number from " + TomlReader::format(limits::kMinDt) + " to " +
                       TomlReader::format(limits::kMaxDt) + " or \"auto\" (got \"" +
                       n->value<std::string>().value_or("") + "\")");
        if (block) r.fail(n->source(), "dt", block_words);
        s.dt_auto = true;
        return;
    }
    if (!n) {
        if (block) r.fail_table("missing field 'dt': " + block_words);
        s.dt_auto = true;
        return;
    }
    s.dt = r.number("dt", 0.01, limits::kMinDt, limits::kMaxDt);
}

// Orbit helpers name their components; these are what an orbit needs to check and resolve the names.
struct ComponentIndex {
    std::map<std::string, std::size_t, std::less<>> by_name;
    std::vector<ParsedComponent> parsed;
    std::vector<int> placed_by;  // orbit index that moves each component, or -1
};

std::vector<std::size_t> read_members(TomlReader& r, const toml::table& t, OrbitType type,
                                      ComponentIndex& idx, int orbit) {
    const std::vector<std::string> names = r.strings("components");
    const toml::node* node = t.get("components");
    if (names.size() != orbit_member_count(type))
        r.fail(node->source(), "components",
               "this orbit places exactly " + std::to_string(orbit_member_count(type)) + " components (got " +
                   std::to_string(names.size()) + ")");
    std::set<std::string, std::less<>> known;
    for (const auto& [k, v] : idx.by_name) known.insert(k);
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < names.size(); ++k) {
        if (std::count(names.begin(), names.begin() + static_cast<long>(k), names[k]))
            r.fail(node->source(), "components", "names component '" + names[k] + "' twice");
        const auto it = idx.by_name.find(names[k]);
        if (it == idx.by_name.end()) {
            std::string why = "no component named '" + names[k] + "'";
            if (auto s = did_you_mean(names[k], known); !s.empty()) why += " (did you mean '" + s + "'?)";
            r.fail(node->source(), "components", why + "; give components a 'name' to refer to them");
        }
        out.push_back(it->second);
        // head_on reads its target (the first) without moving it
        if (type == OrbitType::HeadOn && k == 0) continue;
        ParsedComponent& pc = idx.parsed[it->second];
        if (idx.placed_by[it->second] >= 0)
            r.fail(node->source(), "components",
                   "component '" + names[k] + "' is already placed by orbit[" +
                       std::to_string(idx.placed_by[it->second]) + "]");
        if (pc.position || pc.velocity)
            r.fail((pc.position ? pc.position : pc.velocity)->source(), "components",
                   "component '" + names[k] + "' is placed by this orbit; remove its position and velocity");
        idx.placed_by[it->second] = orbit;
        pc.spec.placed_by_orbit = true;
    }
    return out;
}

OrbitSpec read_orbit(const toml::table& t, const std::string& file, int index, ComponentIndex& idx) {
    TomlReader r(t, file, "orbit[" + std::to_string(index) + "].");
    OrbitSpec o;
    const std::string type =
        r.required_choice("type", {"figure8", "figure8_4", "head_on", "parabolic"}, "orbit type");
    o.type = type == "figure8"     ? OrbitType::Figure8
             : type == "figure8_4" ? OrbitType::Figure8Four
             : type == "head_on"   ? OrbitType::HeadOn
                                   : OrbitType::Parabolic;
    o.members = read_members(r, t, o.type, idx, index);
    using namespace limits;
    if (o.type == OrbitType::HeadOn) {
        o.distance = r.number("distance", o.distance, kMinLength, kMaxLength);
        o.speed = r.number("speed", o.speed, 0.0, kMaxSpeed);
        o.tilt_deg = r.number("tilt", 0.0, -180.0, 180.0);
        o.offset = r.number("offset", 0.0, 0.0, kMaxLength);
    } else {
        o.position = r.vec3("position", {}, kMaxPosition);
        o.velocity = r.vec3("velocity", {}, kMaxSpeed);
        o.axis = r.direction("axis", {0, 0, 1});
    }
    if (o.type == OrbitType::Parabolic) {
        o.pericentre = r.number("pericentre", 1.0, kMinLength, kMaxLength);
        o.distance =
            r.number("distance", std::min(10.0 * o.pericentre, kMaxLength), o.pericentre, kMaxLength);
    }
    if (o.type == OrbitType::Figure8 || o.type == OrbitType::Figure8Four) {
        o.scale = r.number("scale", 1.0, kMinLength, kMaxLength);
        const double m0 = idx.parsed[o.members[0]].spec.mass;
        for (std::size_t k : o.members)
            if (std::abs(idx.parsed[k].spec.mass - m0) > 1e-9 * m0)
                r.fail(t.get("components")->source(), "components",
                       "a choreography needs equal masses; '" + idx.parsed[k].spec.name + "' has mass " +
                           std::to_string(idx.parsed[k].spec.mass) + ", the first " + std::to_string(m0));
    }
    r.finish();
    return o;
}

// [[name]] as an array of tables, or null when absent.
const toml::array* table_array(TomlReader& r, std::string_view key) {
    const toml::node* n = r.node(key);
    if (!n) return nullptr;
    const toml::array* arr = n->as_array();
    if (!arr || !arr->is_array_of_tables() || arr->empty())
        r.fail(n->source(), key, "expected one or more [[" + std::string(key) + "]] tables");
    return arr;
}

void read_components(TomlReader& r, SceneSpec& s, std::optional<long long> bodies, ComponentIndex& idx) {
    const toml::array* arr = table_array(r, "component");
    if (!arr) r.fail_table("missing [[component]]: a scene needs at least one component");
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const toml::table& t = *arr->get(i)->as_table();
        idx.parsed.push_back(read_component(t, s.source, i, bodies));
        const std::string& name = idx.parsed.back().spec.name;
        if (!name.empty() && !idx.by_name.emplace(name, i).second)
            TomlReader(t, s.source, "component[" + std::to_string(i) + "].")
                .fail(t.get("name")->source(), "name", "another component is already named '" + name + "'");
    }
    idx.placed_by.assign(idx.parsed.size(), -1);
}

// Each structure must be resolved by the softening and by float32 positions where the orbits put it
// (core/limits.hpp says why). Orbits are applied to a copy here: the same code build_scene runs.
void check_structure_lengths(const SceneSpec& s, const std::vector<ParsedComponent>& parsed,
                             const std::string& file) {
    std::vector<ComponentSpec> placed = s.components;
    apply_orbits(placed, s.orbits, s.G);
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        const double from_origin = std::sqrt(dot(placed[i].position, placed[i].position));
        for (const StructureLength& l : parsed[i].lengths) {
            const auto fail = [&](double least, const std::string& why, const char* rule) {
                throw SceneError(file, int(l.where.begin.line), int(l.where.begin.column),
                                 "field '" + l.field + "': " + TomlReader::format(l.value) + " is " + why +
                                     ": must be at least " + TomlReader::format(least) + " (" + rule + ")");
            };
            if (l.value < limits::kSofteningFraction * s.eps)
                fail(limits::kSofteningFraction * s.eps,
                     "far below the softening eps = " + TomlReader::format(s.eps), "eps / 100; or lower eps");
            if (l.value < limits::kResolution * from_origin)
                fail(limits::kResolution * from_origin,
                     "below what float32 positions resolve " + TomlReader::format(from_origin) +
                         " from the origin, where this component starts",
                     "1e-4 of that distance");
        }
    }
}

// The method's and integrator's own parameters (those of the registry that belong to a method or an
// integrator), each under its registry name and within its range.
void read_method_params(TomlReader& r, SceneSpec& s) {
    const SimParams defaults;
    for (const ParamSpec& spec : param_registry()) {
        if ((spec.methods | spec.integrators) == 0 || !r.has(spec.name)) continue;
        const double v = spec.whole ? double(r.integer(spec.name, (long long)spec.get(defaults), (long long)spec.lo,
                                                       (long long)spec.hi))
                                    : r.number(spec.name, spec.get(defaults), spec.lo, spec.hi);
        s.method_params.emplace_back(std::string(spec.name), v);
    }
}

SceneSpec read_scene(const toml::table& root, const std::string& file) {
    TomlReader r(root, file, "");
    SceneSpec s;
    s.source = file;
    s.name = r.string("name", file);
    s.description = r.string("description", "");
    s.watch = r.string("watch", "");
    s.eps = read_softening(r);
    s.G = r.number("G", 1.0, limits::kMinG, limits::kMaxG);
    s.seed = static_cast<uint64_t>(r.integer("seed", 1, 0, (1ll << 62)));
    s.steps_per_frame = static_cast<int>(r.integer("steps_per_frame", 1, 1, 10000));
    s.zero_momentum = r.boolean("zero_momentum", false);
    if (r.has("method")) s.method = parse_method(r.choice("method", "direct", names_of(method_table()), "method"));
    if (r.has("precision"))
        s.precision =
            parse_precision(r.choice("precision", "fp32", names_of(precision_table()), "precision"));
    if (r.has("integrator"))
        s.integrator =
            parse_integrator(r.choice("integrator", "leapfrog", names_of(integrator_table()), "integrator"));
    read_method_params(r, s);
    read_step(r, s);
    std::optional<long long> bodies;  // the total that components given as a `fraction` share
    if (const long long b = r.integer("bodies", 0, 1, kMaxBodies); b > 0) bodies = b;
    if (const toml::table* cam = r.table("camera")) s.camera = read_camera(*cam, file);
    if (const toml::table* units = r.table("units")) s.units = read_units(*units, file);

    ComponentIndex idx;
    read_components(r, s, bodies, idx);
    if (const toml::array* orbits = table_array(r, "orbit"))
        for (std::size_t i = 0; i < orbits->size(); ++i)
            s.orbits.push_back(read_orbit(*orbits->get(i)->as_table(), file, static_cast<int>(i), idx));
    for (auto& pc : idx.parsed) s.components.push_back(pc.spec);
    if (s.total_bodies() > static_cast<std::size_t>(kMaxBodies))
        r.fail_table("the components add up to " + std::to_string(s.total_bodies()) + " bodies; at most " +
                     std::to_string(kMaxBodies) + " allowed");
    check_structure_lengths(s, idx.parsed, file);
    r.finish();
    return s;
}

}  // namespace

SceneSpec parse_scene(const std::string& text, const std::string& name) {
    toml::table root;
    try {
        root = toml::parse(text, name);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        throw SceneError(name, static_cast<int>(b.line), static_cast<int>(b.column),
                         "TOML syntax: " + std::string(e.description()));
    }
    return read_scene(root, name);
}

SceneSpec load_scene_file(const std::string& path) {
    // A regular file of sane size: a pipe or /dev/zero would never end, and a scene is a page of text.
    constexpr std::uintmax_t kMaxBytes = 16u << 20;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw SceneError(path, 0, 0, "not a regular file (or it does not exist)");
    if (const auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxBytes)
        throw SceneError(path, 0, 0,
                         "is " + std::to_string(size) + " bytes; a scene file is at most 16 MiB of text");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SceneError(path, 0, 0, "cannot open the scene file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_scene(text.str(), path);
}

}  // namespace nbody
