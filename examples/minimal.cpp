// The smallest libnbody program: load a scene, step it, print the relative energy error.
// Usage: minimal [scene.toml] [bodies]   (default: the installed plummer.toml at 2,048 bodies)
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <nbody/nbody.hpp>

int main(int argc, char** argv) try {
    const std::string scene = argc > 1 ? argv[1] : nbody::api::scenes_dir() + "/plummer.toml";
    const std::size_t bodies = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2048;
    auto sim = nbody::api::Simulation::from_scene(scene, bodies);
    sim.step(100);
    std::printf("%s: %zu bodies, t = %g on %s\n", scene.c_str(), sim.size(), sim.time(),
                sim.backend_name().c_str());
    std::printf("relative energy error %.3e\n", sim.diagnostics().energy_error);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
