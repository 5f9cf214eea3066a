#pragma once
// The backend factory with the GL compute row (engine/backend_factory.hpp knows no GL: libnbody stays
// GL-free). Front ends that have GL (the sandbox, nbody-bench, the Python module) make their backends here.
#include <memory>
#include <string>

#include "core/backend/backend.hpp"
#include "core/backend/backend_choice.hpp"
#include "engine/backend_rows.hpp"

namespace nbody {

class GlBackend;

enum class GlContextSource {
    Current,  // the caller's context, current on this thread (the sandbox's window or off-screen renderer)
    OwnHeadless,  // a headless EGL context the backend makes and keeps (nbody-bench, --headless, Python)
};

struct GlFactoryOptions {
    GlContextSource source = GlContextSource::OwnHeadless;
    std::string shader_dir;  // empty: render/shader.hpp's shader_dir()
};

// libnbody's rows (engine/backend_rows.hpp) and the GL compute row, whose backends run in the context `o`
// names.
BackendRows backend_rows_with_gl(const GlFactoryOptions& o = {});

// SimParams::backend from libnbody's rows and the GL compute row (engine/backend_chooser.hpp): cpu and cuda
// as make_backend; gl the GL compute backend (BackendError with the reason where the context has no 4.3
// compute); auto CUDA where a device works, else GL compute where the context offers it on a hardware GPU,
// else the CPU. A compute shader the driver fails to compile hands over to the CPU with the compile log in
// the choice's note. *choice says what runs and why.
std::unique_ptr<Backend> make_backend_with_gl(const SimParams& p, BackendChoice* choice,
                                              const GlFactoryOptions& o = {});

// The sandbox's choice, which goes on whatever the GPU does: make_backend_with_gl, and where a backend asked
// for by name cannot start and its row lets a fallback take over (CUDA's: the CPU), that one with the words
// in *choice (the library and Python throw instead).
std::unique_ptr<Backend> make_sandbox_backend(const SimParams& p, BackendChoice* choice,
                                              const GlFactoryOptions& o = {});

// The GL compute backend alone, or null with the reason in *why (nbody-bench's gl rows). Throws GlError
// with the driver's log where the shader fails to compile.
std::unique_ptr<GlBackend> try_make_gl_backend(const GlFactoryOptions& o, std::string* why);

}  // namespace nbody
