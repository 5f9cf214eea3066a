#pragma once
// Text the window shows a class: messages without command-line flags, the reason the CPU backend runs when a
// GPU was wanted, one format for every rate (panels, race, read-outs), and the Esc key's rule. No ImGui
// here, so the unit tests check the words.
#include <cstddef>
#include <string>

#include "core/backend/backend_choice.hpp"
#include "core/rows/sim_params.hpp"

namespace nbody {

// A message from the simulation or a loader, in words: "not applied: --backend cuda: cudaGetDeviceCount: x"
// becomes "The CUDA backend could not start (cudaGetDeviceCount: x); the simulation keeps running as it was."
// Messages with no flag in them come back as they are.
std::string in_words(const std::string& message);

// Why the CPU backend runs although the build has CUDA or the user asked for the GPU, from the factory's
// choice, for the window's banner; empty when the CPU was chosen on purpose or a GPU runs (the factory leaves
// BackendChoice::fallback empty then). The CUDA error's
// name ("(cudaErrorNoDevice)") is for a bug report: the terminal and the summary keep it, the banner does
// not.
std::string cpu_fallback_reason(const BackendChoice& choice);

// Rates, everywhere the window, the race and the summaries print one: three significant digits and an SI
// prefix. interactions/s: "2.52 G interactions/s"; flop rates from Gflop/s: "50.4 Gflop/s", "1.21 Tflop/s".
std::string interactions_text(double per_s);
std::string flops_text(double gflops);

// The tree's live force error under its theta slider, on three lines so a narrow panel never wraps inside a
// number: "force error vs direct:\nmedian 1.2e-4, 99% 2.1e-3\n(1,024 bodies, 0.4 s ago)". `age_s`: seconds
// since the measured state was copied.
std::string force_error_text(double median, double p99, std::size_t sample, double age_s);

// What a scene runs, for its card: "Runs: the tree (theta 1 alpha 0.001), leapfrog-block (largest step 1/8,
// eta 0.3), 3 block steps a frame." or "Runs: direct summation, leapfrog at dt 1/64, 8 steps a frame."
std::string scene_runs_text(const SimParams& p);
// What fit_to_method changed for a new method, in words for the window ("The tree does not run hermite: the
// integrator is now leapfrog (was hermite)."); "" when it changed nothing.
std::string method_fit_text(const SimParams& before, const SimParams& after);
// After scene_runs_text, when the window runs fewer steps a frame than asked (measured: steps/s over frames/s,
// below 0.8 of `asked`): " Here about 0.93 a frame (7.77 steps/s at 8.4 frames/s): this backend does not keep
// up with 4 a frame ...". Else "".
std::string steps_here_text(int asked, double steps_per_s, double frames_per_s);

// A block step's length for the level histogram's axis: a power of two as a fraction or a whole number
// ("1/64", "1/4096", "2"); any other (the CUDA Hermite engine's steps are dt / 2^k) to three digits
// ("0.00125").
std::string block_step_text(double step);

// Esc cancels what is under way (scene generation, a race, a recording) and nothing else. With nothing under
// way it arms a quit that a second Esc within kWindow seconds confirms (the window shows a hint meanwhile);
// Ctrl+Q quits at once. A key held down repeats: only presses count.
class EscapeKey {
  public:
    enum class Action { Cancel, ArmQuit, Quit };
    static constexpr double kWindow = 1.0;  // seconds

    Action press(double now_s, bool something_under_way) {
        if (something_under_way) {
            m_armed_at = kNever;  // a cancel never counts as the first half of a quit
            return Action::Cancel;
        }
        if (now_s - m_armed_at <= kWindow) {
            m_armed_at = kNever;
            return Action::Quit;
        }
        m_armed_at = now_s;
        return Action::ArmQuit;
    }
    bool hint_visible(double now_s) const { return now_s - m_armed_at <= kWindow; }

  private:
    static constexpr double kNever = -1e300;
    double m_armed_at = kNever;
};

}  // namespace nbody
