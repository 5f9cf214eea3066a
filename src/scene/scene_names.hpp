#pragma once
// Scenes by name wherever a file is accepted: "cartwheel" (or "cartwheel.toml") is the shipped scene of that
// name, a path is itself. A name that matches nothing gets a message listing the shipped scenes and the
// closest one, for the command line and Python alike.
#include <optional>
#include <string>
#include <vector>

#include "scene/scene.hpp"

namespace nbody {

// The shipped scenes' names in `dir` (file names without .toml), sorted.
std::vector<std::string> scene_names(const std::string& dir);

// `given` as it is when a file of that name exists or it is a path (has a '/'), else `dir`/given(.toml) when
// that is a file, else none.
std::optional<std::string> find_scene(const std::string& given, const std::string& dir);

// The shipped scene in `dir` whose `name` (the title a snapshot or checkpoint records) is `title`, read from
// its file; none where no file there has that name or the one that has does not load.
std::optional<SceneSpec> shipped_scene_titled(const std::string& title, const std::string& dir);

// "no scene file or shipped scene 'cartweel' (did you mean 'cartwheel'?); the shipped scenes: ..."
std::string unknown_scene_message(const std::string& given, const std::string& dir);

}  // namespace nbody
