#include "scene/scene_file.hpp"

#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "scene/toml_reader.hpp"

namespace nbody {

namespace {

constexpr long long kMaxBodies = 1ll << 26;  // 67M bodies: 1 GiB of float4 state, well past interactive

ComponentSpec read_component(const toml::table& t, const std::string& file, std::size_t index) {
    TomlReader r(t, file, "component[" + std::to_string(index) + "].");
    ComponentSpec c;
    const std::string type = r.required_string("type");
    if (type == "plummer") {
        c.type = ComponentType::Plummer;
        c.scale = r.positive("scale", 3.0 * 3.14159265358979323846 / 16.0);
        c.mass_cut = r.number("mass_cut", 0.999, 0.01, 0.999999);
    } else if (type == "uniform_sphere") {
        c.type = ComponentType::UniformSphere;
        c.scale = r.positive("radius", 1.0);
        c.virial_ratio = r.number("virial_ratio", 0.0, 0.0, 10.0);
    } else {
        const auto* n = t.get("type");
        std::string why = "unknown component type '" + type + "'";
        if (auto s = did_you_mean(type, {"plummer", "uniform_sphere"}); !s.empty())
            why += " (did you mean '" + s + "'?)";
        r.fail(n->source(), "type", why + "; allowed: plummer, uniform_sphere");
    }
    c.n = static_cast<std::size_t>(r.required_integer("n", 1, kMaxBodies));
    c.mass = r.positive("mass", 1.0, 3e8);
    c.position = r.vec3("position", {});
    c.velocity = r.vec3("velocity", {});
    c.group = static_cast<uint32_t>(r.integer("group", static_cast<long long>(index), 0, 255));
    r.finish();
    return c;
}

SceneSpec read_scene(const toml::table& root, const std::string& file) {
    TomlReader r(root, file, "");
    SceneSpec s;
    s.source = file;
    s.name = r.string("name", file);
    s.description = r.string("description", "");
    s.dt = r.positive("dt", 0.01, 1e6);
    s.eps = r.number("eps", 0.01, 0.0, 1e6);
    s.G = r.positive("G", 1.0, 1e6);
    s.seed = static_cast<uint64_t>(r.integer("seed", 1, 0, (1ll << 62)));
    s.steps_per_frame = static_cast<int>(r.integer("steps_per_frame", 1, 1, 10000));
    const toml::node* comps = r.node("component");
    if (!comps) r.fail_table("missing [[component]]: a scene needs at least one component");
    const toml::array* arr = comps->as_array();
    if (!arr || !arr->is_array_of_tables() || arr->empty())
        r.fail(comps->source(), "component", "expected one or more [[component]] tables");
    for (std::size_t i = 0; i < arr->size(); ++i)
        s.components.push_back(read_component(*arr->get(i)->as_table(), file, i));
    if (s.total_bodies() > static_cast<std::size_t>(kMaxBodies))
        r.fail_table("the components add up to " + std::to_string(s.total_bodies()) + " bodies; at most " +
                     std::to_string(kMaxBodies) + " allowed");
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
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SceneError(path, 0, 0, "cannot open the scene file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_scene(text.str(), path);
}

}  // namespace nbody
