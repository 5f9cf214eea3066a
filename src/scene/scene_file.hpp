#pragma once
// Scene files (TOML). Format, by example (docs/scenes.md has the full reference):
//
//   name = "Plummer sphere"
//   description = "A star cluster in equilibrium"
//   dt = 0.01            # time step, > 0
//   eps = 0.01           # Plummer softening, >= 0
//   G = 1.0              # > 0
//   seed = 42
//   steps_per_frame = 1
//
//   [[component]]
//   type = "plummer"     # plummer | uniform_sphere | disk_galaxy | point_mass | tipsy
//   n = 131072
//   mass = 1.0
//   scale = 0.589        # Plummer radius a (uniform_sphere: radius)
//   position = [0, 0, 0]
//   velocity = [0, 0, 0]
//
// plus [camera], disk galaxies' [component.disk] / [component.halo] sub-tables, `bodies` with per-component
// `fraction`, and [[orbit]] helpers (figure8, figure8_4, head_on, parabolic) that place named components.
#include <string>

#include "scene/scene.hpp"

namespace nbody {

// Throws SceneError (file:line:column, field, allowed values) for anything wrong, including a file that
// cannot be read. Never crashes on malformed input.
SceneSpec load_scene_file(const std::string& path);

// The same from text already in memory; `name` is used in messages in place of a file path.
SceneSpec parse_scene(const std::string& text, const std::string& name);

}  // namespace nbody
