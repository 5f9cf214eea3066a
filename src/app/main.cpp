// nbody-sandbox: watch galaxies collide. Until the window lands this runs the headless simulation.
#include <cstdio>
#include <exception>

#include "app/backend_factory.hpp"
#include "app/headless_run.hpp"
#include "app/options.hpp"
#include "core/errors.hpp"
#include "scene/scene.hpp"

int main(int argc, char** argv) {
    using namespace nbody;
    auto parsed = parse_command_line(argc, argv);
    if (auto* code = std::get_if<int>(&parsed)) return *code;
    const AppOptions& o = std::get<AppOptions>(parsed);
    try {
        const RunSetup setup = prepare_run(o);
        std::string note;
        auto backend = make_backend(setup.params, &note);
        if (!o.quiet) std::fprintf(stderr, "%s\n", note.c_str());
        if (!o.headless && !o.quiet)
            std::fprintf(stderr, "the interactive window is not part of this build yet: running headless\n");
        backend->reset(initial_state(setup), setup.params);
        const RunSummary s = run_headless(*backend, setup, o);
        std::printf("%s", summary_text(s).c_str());
        if (!o.json_path.empty()) write_summary_json(s, o.json_path);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
