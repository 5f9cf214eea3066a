#include "render/shader.hpp"

#include <glad/gl.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "render/assets.hpp"
#include "render/gl_check.hpp"

namespace nbody {

namespace fs = std::filesystem;

std::string shader_dir() {
    return installed_dir("NBODY_SHADER_DIR", "shaders", "particles.vert");
}

namespace {

std::string read_text(const fs::path& p) {
    std::ifstream in(p);
    if (!in) throw GlError(p.string() + ": cannot read the shader file");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text after `#include "` up to the closing quote, or empty when the line is no include.
std::string included_name(const std::string& line) {
    static const std::regex include_re(R"re(^\s*#\s*include\s+"([^"]+)"\s*$)re");
    std::smatch m;
    return std::regex_match(line, m, include_re) ? m[1].str() : std::string();
}

// An included file's lines are numbered from here on (`#line`), so the driver's log says which file a line
// is in: Mesa prints source string 0 whatever `#line` gave, so the line number has to say it.
constexpr long kIncludedLines = 100000;
constexpr const char* kIncludedMark = "// included: ";  // then the file's path, for the compile log

std::string included_path(const std::string& source) {
    const std::size_t at = source.find(kIncludedMark);
    if (at == std::string::npos) return {};
    const std::size_t from = at + std::string(kIncludedMark).size();
    return source.substr(from, source.find('\n', from) - from);
}

// Rewrites the driver's "0:12(5): error: x" (Mesa) or "0(12) : error x" (NVIDIA) as "file:12: error: x";
// lines from kIncludedLines on name `included` (a shader's one included file) and its own line.
std::string with_file_lines(const std::string& log, const std::string& file, const std::string& included) {
    static const std::regex line_re(R"(^\s*\d+[:(](\d+)\)?(?:\(\d+\))?\s*:?\s*(.*)$)");
    std::istringstream in(log);
    std::string out, l;
    while (std::getline(in, l)) {
        std::smatch m;
        if (std::regex_match(l, m, line_re)) {
            const long line = std::stol(m[1].str());
            const bool inside = line > kIncludedLines && !included.empty();
            out += (inside ? included : file) + ":" + std::to_string(inside ? line - kIncludedLines : line) +
                   ": " + m[2].str() + "\n";
        } else if (!l.empty())
            out += file + ": " + l + "\n";
    }
    return out.empty() ? file + ": compile failed with no log\n" : out;
}

// The driver's log for a shader or a program (the two differ only in which getters they use).
std::string info_log(GLuint id, bool program) {
    GLint len = 0;
    (program ? glGetProgramiv : glGetShaderiv)(id, GL_INFO_LOG_LENGTH, &len);
    std::string log(std::size_t(std::max(len, 1)), '\0');
    (program ? glGetProgramInfoLog : glGetShaderInfoLog)(id, len, nullptr, log.data());
    return log.c_str();  // up to the terminating zero
}

GLuint compile(GLenum stage, const fs::path& path) {
    return compile_shader(stage, read_shader_file(path.string()), path.string());
}

}  // namespace

std::string read_shader_file(const std::string& path) {
    std::istringstream in(read_text(path));
    std::string out, line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        const std::string name = included_name(line);
        if (name.empty()) {
            out += line + "\n";
            continue;
        }
        const fs::path inc = fs::path(path).parent_path() / name;
        const std::string text = read_text(inc);
        if (text.find("#include") != std::string::npos)
            throw GlError(inc.string() + ": an included shader file may not include another");
        out += std::string(kIncludedMark) + inc.string() + "\n#line " + std::to_string(kIncludedLines + 1) +
               "\n" + text + "\n#line " + std::to_string(number + 1) + "\n";
    }
    return out;
}

unsigned compile_shader(unsigned stage, const std::string& source, const std::string& file) {
    const GLuint s = glCreateShader(stage);
    const char* text = source.c_str();
    glShaderSource(s, 1, &text, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        const std::string log = info_log(s, false);
        glDeleteShader(s);
        throw GlError("shader compile failed:\n" + with_file_lines(log, file, included_path(source)));
    }
    return s;
}

unsigned link_program(std::initializer_list<unsigned> shaders, const std::string& what) {
    const GLuint program = glCreateProgram();
    for (unsigned s : shaders) glAttachShader(program, s);
    glLinkProgram(program);
    for (unsigned s : shaders) glDeleteShader(s);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        const std::string log = info_log(program, true);
        glDeleteProgram(program);
        throw GlError("linking " + what + " failed: " + log);
    }
    return program;
}

unsigned compute_program(const std::string& dir, const std::string& file) {
    const std::string path = dir + "/" + file;
    return link_program({compile_shader(GL_COMPUTE_SHADER, read_shader_file(path), path)}, path);
}

ShaderProgram::ShaderProgram(const std::string& dir, const std::string& vert_file,
                             const std::string& frag_file) {
    const GLuint vs = compile(GL_VERTEX_SHADER, fs::path(dir) / vert_file);
    GLuint fs_ = 0;
    try {
        fs_ = compile(GL_FRAGMENT_SHADER, fs::path(dir) / frag_file);
    } catch (...) {
        glDeleteShader(vs);
        throw;
    }
    m_program = link_program({vs, fs_}, vert_file + " + " + frag_file);
    gl_check("ShaderProgram", __FILE__, __LINE__);
}

ShaderProgram::~ShaderProgram() {
    if (m_program) glDeleteProgram(m_program);
}

int ShaderProgram::uniform(const char* name) const {
    return glGetUniformLocation(m_program, name);
}

}  // namespace nbody
