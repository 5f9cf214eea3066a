#pragma once
// The SceneError message parse_scene gives for a scene file's text (named "s.toml" in messages), or "" when
// it parses: what the scene-format tests compare against.
#include <string>

#include "core/errors.hpp"
#include "scene/scene_file.hpp"

namespace nbody::test {

inline std::string scene_error_of(const std::string& text) {
    try {
        parse_scene(text, "s.toml");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

}  // namespace nbody::test
