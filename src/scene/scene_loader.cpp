#include "scene/scene_loader.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/errors.hpp"
#include "scene/scene_file.hpp"

namespace nbody {

struct SceneLoader::Job {
    BuildControl control;
    std::atomic<bool> done{false};
    Result result;  // written by the worker before done is set, read by the owner after
};

SceneLoader::~SceneLoader() {
    cancel();
    if (m_thread.joinable()) m_thread.join();
}

void SceneLoader::start(const std::string& path, double multiplier) {
    if (busy()) {
        cancel();
        m_thread.join();
    }
    m_job = std::make_shared<Job>();
    m_thread = std::thread([job = m_job, path, multiplier] {
        Result& r = job->result;
        try {
            r.scene = load_scene_file(path);
            if (multiplier != 1.0)
                rescale_bodies(
                    r.scene, std::max<std::size_t>(
                                 1, std::size_t(std::llround(double(r.scene.total_bodies()) * multiplier))));
            r.state = build_scene(r.scene, &job->control);
        } catch (const std::exception& e) {  // bad_alloc for a scene too large for memory, too
            r.error = e.what();
            r.state = {};
        }
        job->done.store(true, std::memory_order_release);
    });
}

double SceneLoader::progress() const {
    return m_job ? m_job->control.progress() : 0.0;
}

void SceneLoader::cancel() {
    if (m_job) m_job->control.cancel();
}

std::optional<SceneLoader::Result> SceneLoader::take() {
    if (!m_job || !m_job->done.load(std::memory_order_acquire)) return std::nullopt;
    m_thread.join();
    std::optional<Result> out(std::move(m_job->result));
    m_job.reset();
    return out;
}

}  // namespace nbody
