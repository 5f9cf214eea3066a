#pragma once
// A scene file's text for the row recipes: two point masses of 0.5 on a circle of radius 0.5 (G = 1: a
// circular orbit), named "pair", under `settings`, lines of top-level keys ("dt = 0.0625\n").
#include <string>

namespace nbody::test {

inline std::string pair_scene_text(const std::string& settings) {
    return "name = \"pair\"\n" + settings +
           "[[component]]\ntype = \"point_mass\"\nmass = 0.5\nposition = [0.5, 0, 0]\nvelocity = [0, 0.5, 0]\n"
           "[[component]]\ntype = \"point_mass\"\nmass = 0.5\nposition = [-0.5, 0, 0]\nvelocity = [0, -0.5, 0]\n";
}

}  // namespace nbody::test
