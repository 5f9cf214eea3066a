#include "scene/group_labels.hpp"

#include <algorithm>

namespace nbody {

namespace {
const char* type_name(ComponentType t) {
    switch (t) {
        case ComponentType::Plummer:
            return "plummer";
        case ComponentType::UniformSphere:
            return "uniform sphere";
        case ComponentType::DiskGalaxy:
            return "disk galaxy";
        case ComponentType::PointMass:
            return "point mass";
        case ComponentType::Tipsy:
            return "tipsy";
        case ComponentType::Spheroid:
            return "spheroid";
    }
    return "component";
}

// A scene file's identifier ("milky_way") in words for the legend ("milky way").
std::string in_words(std::string id) {
    std::replace(id.begin(), id.end(), '_', ' ');
    return id;
}

void add(std::vector<std::vector<std::string>>& names, uint32_t group, const std::string& name) {
    if (names.size() <= group) names.resize(group + 1);
    if (std::find(names[group].begin(), names[group].end(), name) == names[group].end())
        names[group].push_back(name);
}
}  // namespace

std::vector<std::string> group_labels(const SceneSpec& scene) {
    std::vector<std::vector<std::string>> names;
    for (std::size_t i = 0; i < scene.components.size(); ++i) {
        const ComponentSpec& c = scene.components[i];
        const std::string name =
            c.name.empty() ? std::string(type_name(c.type)) + " " + std::to_string(i) : in_words(c.name);
        if (c.type == ComponentType::DiskGalaxy && c.disk.group != c.halo.group) {
            add(names, c.disk.group, name + " disk");
            add(names, c.halo.group, name + " halo");
        } else {
            add(names, c.type == ComponentType::DiskGalaxy ? c.disk.group : c.group, name);
        }
    }
    std::vector<std::string> labels(names.size());
    for (std::size_t g = 0; g < names.size(); ++g) {
        for (const std::string& n : names[g]) labels[g] += (labels[g].empty() ? "" : " + ") + n;
        if (labels[g].empty()) labels[g] = "group " + std::to_string(g);
    }
    return labels;
}

std::vector<ComponentLook> group_looks(const SceneSpec& scene) {
    std::vector<ComponentLook> looks;
    std::vector<bool> set;
    auto claim = [&](uint32_t g, const ComponentLook& look) {
        if (looks.size() <= g) looks.resize(g + 1), set.resize(g + 1, false);
        if (!set[g]) looks[g] = look, set[g] = true;
    };
    for (const ComponentSpec& c : scene.components) {
        if (c.type != ComponentType::DiskGalaxy) {
            claim(c.group, c.look);
            continue;
        }
        // The disk first: a galaxy drawn in one group (all parts sharing it) reads as its disk, not dark
        // matter.
        claim(c.disk.group, c.disk.look);
        if (c.bulge.present()) claim(c.bulge.group, c.bulge.look);
        claim(c.halo.group, c.halo.look);
    }
    return looks;
}

}  // namespace nbody
