#pragma once
// Loads a scene file and generates its bodies on a worker thread, so the window keeps drawing the current
// scene meanwhile (tens of millions of bodies take seconds). The frame loop polls take() each frame, shows
// progress(), and may cancel(); a failure or a cancel hands back a message and no state, so the caller
// keeps what it was running. One load at a time: start() while busy cancels the one under way first.
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "core/physics/state.hpp"
#include "scene/build_control.hpp"
#include "scene/scene.hpp"

namespace nbody {

class SceneLoader {
  public:
    struct Result {
        std::string error;  // "" on success; "scene generation cancelled" after cancel()
        SceneSpec scene;
        State state;
    };

    SceneLoader() = default;
    ~SceneLoader();  // cancels and waits (within microseconds: generators check every 1024 bodies)
    SceneLoader(const SceneLoader&) = delete;
    SceneLoader& operator=(const SceneLoader&) = delete;

    // Reads `path` and builds it with the total body count times `multiplier` (1: as written).
    void start(const std::string& path, double multiplier);
    bool busy() const { return m_thread.joinable(); }
    double progress() const;  // 0 to 1 while busy
    void cancel();
    // The finished load, once (null while none has finished); the worker is joined by then.
    std::optional<Result> take();

  private:
    struct Job;  // what the worker fills in; shared so its lifetime never depends on timing
    std::shared_ptr<Job> m_job;
    std::thread m_thread;
};

}  // namespace nbody
