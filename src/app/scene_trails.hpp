#pragma once
// Which trails a scene opens with. A scene's [camera] trails = L turns fading trails of L samples on when it
// loads; the next scene without them turns off what it turned on, not what the View panel changed since. The
// command line's --trails holds for every scene. A software rasterizer (llvmpipe) draws a trail's vertices on
// the CPU, so there the scene's trails wait for the View panel's switch and a note says why. Pure: no GL.
#include <optional>
#include <string>

#include "render/trails.hpp"

namespace nbody {

struct SceneTrails {
    bool from_flag = false;                     // --trails was given
    std::optional<TrailSettings> set_by_scene;  // what the last scene turned on (none: it turned nothing on)
    std::string note;                           // why the scene's trails are not on

    // `now` after a scene that asks for `scene_length` samples (0: none) is loaded; `software`: the renderer
    // runs on the CPU.
    void apply(TrailSettings& now, int scene_length, bool software) {
        note.clear();
        if (from_flag) return;
        const bool untouched =
            set_by_scene && now.on == set_by_scene->on && now.length == set_by_scene->length;
        if (untouched) now.on = false;
        set_by_scene.reset();
        if (scene_length <= 0) return;
        if (software) {
            // The three-galaxy eight's 7,500 trails of 128 samples took its window from 12.8 to 5.2 frames/s
            // on llvmpipe (2 cores).
            note = "this scene draws trails of " + std::to_string(scene_length) +
                   " samples on a GPU; here (a software rasterizer) they would slow every frame about 2.4x: "
                   "the View panel's trails switch (or --trails) turns them on";
            return;
        }
        now.on = true, now.length = scene_length;
        set_by_scene = now;
    }
};

}  // namespace nbody
