#pragma once
// GLSL programs loaded at run time from shaders/ (next to the binary when installed, else the source
// tree). A compile error names the file and line: "shaders/particles.frag:12: error: ...".
#include <initializer_list>
#include <string>

namespace nbody {

// The folder the shaders load from: $NBODY_SHADER_DIR, <exe>/shaders, <exe>/../share/nbody-sandbox/shaders,
// or the source tree's shaders/.
std::string shader_dir();

// The pieces ShaderProgram is made of, for programs built from generated source (the GL compute backend
// prepends its defines): the file's text; one stage from `source`, whose errors name `file` and the driver's
// line; a program of compiled stages (deleted once linked), its errors naming `what`. Throw GlError.
std::string read_shader_file(const std::string& path);
unsigned compile_shader(unsigned stage, const std::string& source, const std::string& file);
unsigned link_program(std::initializer_list<unsigned> shaders, const std::string& what);
// A program of one compute shader, dir/file (its errors name the file).
unsigned compute_program(const std::string& dir, const std::string& file);

class ShaderProgram {
  public:
    // Throws GlError with the file, line and the driver's message when a stage fails to read, compile or
    // link.
    ShaderProgram(const std::string& dir, const std::string& vert_file, const std::string& frag_file);
    ~ShaderProgram();
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    unsigned id() const { return m_program; }
    int uniform(const char* name) const;  // -1 when absent (optimised away)

  private:
    unsigned m_program = 0;
};

}  // namespace nbody
