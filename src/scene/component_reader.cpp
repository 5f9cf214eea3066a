#include "scene/component_reader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <tuple>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "io/tipsy.hpp"
#include "scene/toml_reader.hpp"

namespace nbody {

namespace {

constexpr double kHenonScale = 3.0 * std::numbers::pi / 16.0;

uint32_t read_group(TomlReader& r, uint32_t def) {
    return static_cast<uint32_t>(r.integer("group", def, 0, 255));
}

// `kind` (what the bodies are: the window dims dark matter) and `colour` ("#rrggbb" or a name).
ComponentLook read_look(TomlReader& r, ComponentKind def) {
    ComponentLook look;
    const std::string kind =
        r.choice("kind", component_kind_name(def), component_kind_names(), "component kind");
    const auto& names = component_kind_names();
    look.kind = ComponentKind(std::find(names.begin(), names.end(), kind) - names.begin());
    const bool given = r.has("colour");
    const std::string text = r.string("colour", "");  // asked either way: the unknown-key message lists it
    if (!given) return look;
    look.colour = parse_colour(text);
    if (!look.colour) {
        std::string allowed;
        for (const std::string& n : colour_names()) allowed += (allowed.empty() ? "" : ", ") + n;
        r.fail(r.where("colour"), "colour",
               "unknown colour '" + text + "': give \"#rrggbb\" (hex) or one of " + allowed);
    }
    return look;
}

// A structural length in [kMinLength, kMaxLength], remembered for the scene-wide checks (scene_file.cpp).
double length(TomlReader& r, std::string_view key, double def, std::vector<StructureLength>& out) {
    const double v = r.number(key, def, limits::kMinLength, limits::kMaxLength);
    out.push_back({r.qualified(key), v, r.where(key)});
    return v;
}

// The disk's radii are drawn from R e^(-R/h) and redrawn beyond the cut-off c, which keeps a fraction
// 1 - (1 + c/h) e^(-c/h) of the draws: 26% at c = h, 0.5% at c = h / 10. Inside one scale length the disk
// is not exponential anyway, so c >= h is the rule (the generator still stops, naming c, if it is broken).
void check_cutoff(TomlReader& r, const DiskSpec& d) {
    if (d.cutoff >= d.scale_length) return;
    r.fail(r.where("cutoff"), "cutoff",
           "must be at least the disk's scale_length " + TomlReader::format(d.scale_length) +
               " (a disk cut inside one scale length is not exponential), at most " +
               TomlReader::format(limits::kMaxLength) + " (got " + TomlReader::format(d.cutoff) + ")");
}

// The bulge and the disk together leave the halo at least 1% of the galaxy's mass and of its bodies.
void check_bulge_share(TomlReader& r, const DiskSpec& d, const BulgeSpec& b) {
    for (auto [key, bulge, disk] : {std::tuple{"mass_fraction", b.mass_fraction, d.mass_fraction},
                                    {"body_fraction", b.body_fraction, d.body_fraction}})
        if (bulge + disk > 0.99)
            r.fail(r.where(key), key,
                   std::string("with the disk's ") + TomlReader::format(disk) + " must be at most " +
                       TomlReader::format(0.99 - disk) + " (the halo keeps at least 1%; got " +
                       TomlReader::format(bulge) + ")");
}

// Calls read(reader) for sub-table `key` ([component.disk]) when it is there, then rejects unknown keys in
// it.
template <class Read>
void read_sub_table(TomlReader& parent, std::string_view key, Read&& read) {
    const toml::table* t = parent.table(key);
    if (!t) return;
    TomlReader r(*t, parent.file(), parent.child_prefix(key));
    read(r);
    r.finish();
}

// [component.disk], [component.halo] and the optional [component.bulge] of a disk_galaxy; each part's group
// defaults to the component's.
// Absent sub-tables keep the defaults (which pass every check: 0.25, 1.25, 0.02 and 0.5 length units,
// unless the softening or the position rules them out, and then the component's table is pointed at).
void read_disk_and_halo(TomlReader& parent, ParsedComponent& pc) {
    ComponentSpec& c = pc.spec;
    c.disk.group = c.halo.group = c.bulge.group = c.group;
    auto& lengths = pc.lengths;
    bool disk_read = false, halo_read = false;
    read_sub_table(parent, "disk", [&](TomlReader& r) {
        DiskSpec& d = c.disk;
        d.mass_fraction = r.number("mass_fraction", d.mass_fraction, 0.01, 0.99);
        d.body_fraction = r.number("body_fraction", d.body_fraction, 0.01, 0.99);
        d.scale_length = length(r, "scale_length", d.scale_length, lengths);
        d.cutoff = length(r, "cutoff", std::min(5.0 * d.scale_length, limits::kMaxLength), lengths);
        check_cutoff(r, d);
        d.scale_height =
            length(r, "scale_height", std::max(0.08 * d.scale_length, limits::kMinLength), lengths);
        d.toomre_q = r.number("toomre_q", d.toomre_q, 0.5, 10.0);
        d.group = read_group(r, c.group);
        d.look = read_look(r, ComponentKind::Disk);
        disk_read = true;
    });
    if (!disk_read)
        for (auto [key, v] : {std::pair{"disk.scale_length", c.disk.scale_length},
                              {"disk.cutoff", c.disk.cutoff},
                              {"disk.scale_height", c.disk.scale_height}})
            lengths.push_back({parent.qualified(key), v, parent.where("disk")});
    read_sub_table(parent, "halo", [&](TomlReader& r) {
        HaloSpec& h = c.halo;
        h.profile = r.choice("profile", "plummer", {"plummer", "hernquist"}, "halo profile") == "plummer"
                        ? HaloProfile::Plummer
                        : HaloProfile::Hernquist;
        h.scale = length(r, "scale", h.scale, lengths);
        h.mass_cut = r.number("mass_cut", h.mass_cut, 0.05, 0.9999);
        h.group = read_group(r, c.group);
        h.look = read_look(r, ComponentKind::Halo);
        halo_read = true;
    });
    if (!halo_read) lengths.push_back({parent.qualified("halo.scale"), c.halo.scale, parent.where("halo")});
    read_sub_table(parent, "bulge", [&](TomlReader& r) {
        BulgeSpec& b = c.bulge;
        b.mass_fraction = r.number("mass_fraction", 0.05, 0.001, 0.5);
        b.body_fraction = r.number("body_fraction", 0.05, 0.001, 0.5);
        check_bulge_share(r, c.disk, b);
        b.scale = length(r, "scale", std::max(0.2 * c.disk.scale_length, limits::kMinLength), lengths);
        b.mass_cut = r.number("mass_cut", b.mass_cut, 0.05, 0.9999);
        b.group = read_group(r, c.group);
        b.look = read_look(r, ComponentKind::Bulge);
    });
}

// A spheroid (disk_galaxy.hpp's make_spheroid): its profile, scale and truncation as a halo's, and the central
// black hole's share of the mass.
void read_spheroid(TomlReader& r, ParsedComponent& pc) {
    ComponentSpec& c = pc.spec;
    c.halo.profile = r.choice("profile", "hernquist", {"plummer", "hernquist"}, "spheroid profile") == "plummer"
                         ? HaloProfile::Plummer
                         : HaloProfile::Hernquist;
    c.halo.scale = length(r, "scale", 0.1, pc.lengths);
    c.halo.mass_cut = r.number("mass_cut", 0.99, 0.05, 0.9999);
    c.black_hole = r.number("black_hole", 0.0, 0.0, 0.5);
}

// The tipsy file, relative to the scene file's folder; its header must read (errors give the byte offset).
std::string read_tipsy_file(TomlReader& r, const toml::table& t) {
    const std::string name = r.required_string("file");
    const std::filesystem::path p = std::filesystem::path(r.file()).parent_path() / name;
    try {
        read_tipsy_header(p.string());
    } catch (const Error& e) {
        r.fail(t.get("file")->source(), "file", e.what());
    }
    return p.string();
}

// n, or a fraction of the scene's `bodies`; a point mass is always one body.
std::size_t read_count(TomlReader& r, const toml::table& t, ComponentType type,
                       std::optional<long long> bodies) {
    if (type == ComponentType::PointMass || type == ComponentType::Tipsy) {
        for (const char* key : {"n", "fraction"})
            if (const toml::node* n = t.get(key))
                r.fail(n->source(), key,
                       type == ComponentType::PointMass
                           ? "a point_mass is exactly one body; remove it"
                           : "a tipsy component has its file's bodies; remove it");
        return 1;
    }
    if (!t.contains("fraction")) return static_cast<std::size_t>(r.required_integer("n", 1, kMaxBodies));
    const double f = r.number("fraction", 0.0, 1e-9, 1.0);
    const toml::node* node = r.node("fraction");
    if (t.contains("n")) r.fail(node->source(), "fraction", "give either 'n' or 'fraction', not both");
    if (!bodies)
        r.fail(node->source(), "fraction", "needs the scene's total 'bodies' at the top of the file");
    return static_cast<std::size_t>(std::max(1ll, std::llround(f * double(*bodies))));
}

}  // namespace

ParsedComponent read_component(const toml::table& t, const std::string& file, std::size_t index,
                               std::optional<long long> bodies) {
    TomlReader r(t, file, "component[" + std::to_string(index) + "].");
    ParsedComponent out;
    ComponentSpec& c = out.spec;
    using namespace limits;
    static const std::vector<std::string> kTypes{"plummer", "uniform_sphere", "disk_galaxy", "point_mass",
                                                 "tipsy", "spheroid"};
    const std::string type = r.required_choice("type", kTypes, "component type");
    c.type = type == "plummer"          ? ComponentType::Plummer
             : type == "uniform_sphere" ? ComponentType::UniformSphere
             : type == "disk_galaxy"    ? ComponentType::DiskGalaxy
             : type == "point_mass"     ? ComponentType::PointMass
             : type == "spheroid"       ? ComponentType::Spheroid
                                        : ComponentType::Tipsy;
    c.name = r.string("name", "");
    c.group = read_group(r, static_cast<uint32_t>(std::min<std::size_t>(index, 255)));
    switch (c.type) {
        case ComponentType::Plummer:
            c.scale = length(r, "scale", kHenonScale, out.lengths);
            c.mass_cut = r.number("mass_cut", 0.999, 0.01, 0.999999);
            c.virialize = r.boolean("virialize", false);
            break;
        case ComponentType::UniformSphere:
            c.scale = length(r, "radius", 1.0, out.lengths);
            c.virial_ratio = r.number("virial_ratio", 0.0, 0.0, 10.0);
            break;
        case ComponentType::DiskGalaxy:
            read_disk_and_halo(r, out);
            break;
        case ComponentType::PointMass:
            break;
        case ComponentType::Tipsy:
            c.file = read_tipsy_file(r, t);
            break;
        case ComponentType::Spheroid:
            read_spheroid(r, out);
            break;
    }
    c.n = read_count(r, t, c.type, bodies);
    if (c.type == ComponentType::Tipsy) {
        c.n = read_tipsy_header(c.file).bodies();
        if (c.n == 0) r.fail(t.get("file")->source(), "file", "the tipsy file holds no bodies");
    }
    c.mass = r.number("mass", 1.0, kMinMass, kMaxMass);
    c.position = r.vec3("position", {}, kMaxPosition);
    c.velocity = r.vec3("velocity", {}, kMaxSpeed);
    out.position = t.get("position");
    out.velocity = t.get("velocity");
    c.axis = r.direction("axis", {0, 0, 1});
    // A disk galaxy's parts say what they are in their own tables; other components here (a point mass is a
    // star unless the file says otherwise).
    if (c.type != ComponentType::DiskGalaxy)
        c.look =
            read_look(r, c.type == ComponentType::PointMass ? ComponentKind::Star : ComponentKind::Cluster);
    r.finish();
    return out;
}

}  // namespace nbody
