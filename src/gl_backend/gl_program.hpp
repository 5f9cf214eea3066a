#pragma once
// The step shader (shaders/compute/nbody_step.comp) compiled for one shape: the host prepends the version
// and the shape's defines, so every variant is its own program with its loops' bounds known to the driver.
#include <map>
#include <string>
#include <tuple>

#include "gl_backend/gl_shape.hpp"

namespace nbody {

// The uniform locations of one program.
struct StepUniforms {
    int n = -1, soft2 = -1, G = -1, half_dt = -1, dt = -1, prime = -1, draw = -1;
    int j_begin = -1, j_end = -1, first_chunk = -1, last_chunk = -1;
};

struct StepProgram {
    unsigned id = 0;
    StepUniforms u;
};

// Every shape's program made so far, for the context current when they were made. Throws GlError with the
// file, the shape and the driver's log when the shader fails to read, compile or link.
class StepPrograms {
  public:
    explicit StepPrograms(std::string shader_dir) : m_dir(std::move(shader_dir)) {}
    ~StepPrograms();
    StepPrograms(const StepPrograms&) = delete;
    StepPrograms& operator=(const StepPrograms&) = delete;

    const StepProgram& get(const GlShape& s);
    const std::string& path() const { return m_path_note; }

  private:
    std::string m_dir, m_path_note;
    std::map<std::tuple<int, int, int, int, int, bool>, StepProgram> m_programs;
};

// The shader's path under a shader folder.
std::string step_shader_path(const std::string& shader_dir);

}  // namespace nbody
