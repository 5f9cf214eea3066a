#include "ui/race_driver.hpp"

#include <exception>
#include <filesystem>

#include "bench/bench_output.hpp"
#include "render/image_capture.hpp"

namespace nbody {

namespace {
// The window freezes for each slice: an entry whose one force evaluation takes longer is skipped.
constexpr double kMaxEvaluationSeconds = 2.0;
}  // namespace

void RaceDriver::start(Simulation& sim, double seconds_each) {
    if (running()) return;
    Backend& b = sim.backend();
    m_was_paused = sim.paused();
    sim.set_paused(true);
    m_generation = sim.generation();
    RaceOptions o;
    o.seconds = seconds_each;
    o.timer = host_clock_ms;  // the CUDA backend's step() synchronises, so the host clock sees all of it
    o.max_evaluation_seconds = kMaxEvaluationSeconds;
    o.backend = std::string(backend_kind_name(sim.backend_choice().running));
    m_report = RaceReport{b.name(), utc_now(), "nbody-sandbox Race button", "", b.size(), seconds_each, {}};
    m_race = std::make_unique<Race>(b, race_entries(b.caps(), b.params().tree), o);  // the tree at its theta
    m_status = "racing...";
}

void RaceDriver::end(Simulation& sim, const std::string& status) {
    m_report.results = m_race->results();
    m_report.note = m_race->note();
    show_results = !m_report.results.empty();
    sim.set_paused(m_was_paused);
    m_status = status;
}

void RaceDriver::tick(Simulation& sim) {
    if (!running()) return;
    if (sim.generation() != m_generation) {  // reset, a scene loaded, a backend switch: not ours to restore
        m_race->abandon();
        end(sim, "race abandoned: the simulation was reset or replaced while it ran");
        return;
    }
    try {
        m_race->step();
    } catch (const std::exception& e) {
        std::string why = e.what();
        try {
            m_race->cancel();
        } catch (const std::exception& again) {
            why += std::string("; restoring the state failed too: ") + again.what();
        }
        end(sim, "race failed: " + why);
        return;
    }
    if (m_race->finished()) end(sim, "race done: the simulation is back where it was");
}

void RaceDriver::cancel(Simulation& sim) {
    if (!running()) return;
    m_race->cancel();
    end(sim, "race cancelled: the simulation is back where it was");
}

std::string RaceDriver::export_report(const std::string& path, bool json) {
    const std::string name = path.empty() ? timestamped_name("race", json ? ".json" : ".csv") : path;
    try {
        json ? write_race_json(name, m_report) : write_race_csv(name, m_report);
        return "saved " + std::filesystem::absolute(name).string();
    } catch (const std::exception& e) {
        return e.what();
    }
}

}  // namespace nbody
