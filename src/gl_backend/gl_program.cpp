#include "gl_backend/gl_program.hpp"

#include <glad/gl.h>

#include <sstream>

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody {

std::string step_shader_path(const std::string& shader_dir) {
    return shader_dir + "/compute/nbody_step.comp";
}

namespace {
// #line 1 after the defines: the driver's log then counts lines of the file itself.
std::string with_defines(const std::string& body, const GlShape& s) {
    std::ostringstream os;
    os << "#version 430\n#define WG " << s.block << "\n#define K " << s.k << "\n#define U " << s.u
       << "\n#define Q " << s.q << "\n#define TL " << s.tile_loads << "\n#define ROLLED "
       << (s.rolled() ? 1 : 0) << "\n#line 1\n"
       << body;
    return os.str();
}
}  // namespace

StepPrograms::~StepPrograms() {
    for (auto& [key, p] : m_programs) glDeleteProgram(p.id);
}

const StepProgram& StepPrograms::get(const GlShape& s) {
    const auto key = std::make_tuple(s.k, s.u, s.block, s.q, s.tile_loads, s.rolled());
    if (auto it = m_programs.find(key); it != m_programs.end()) return it->second;
    const std::string path = step_shader_path(m_dir);
    StepProgram p;
    const std::string what = path + " (" + gl_shape_label(s) + ")";
    const unsigned shader = compile_shader(GL_COMPUTE_SHADER, with_defines(read_shader_file(path), s), what);
    p.id = link_program({shader}, what);
    auto loc = [&](const char* name) { return glGetUniformLocation(p.id, name); };
    p.u = {loc("n"),    loc("soft2"),   loc("G"),     loc("half_dt"),     loc("dt"),        loc("prime"),
           loc("draw"), loc("j_begin"), loc("j_end"), loc("first_chunk"), loc("last_chunk")};
    m_path_note = path;
    return m_programs.emplace(key, p).first->second;
}

}  // namespace nbody
