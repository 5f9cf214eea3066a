#include "render/image_capture.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>  // libstb.so exports stbi_write_png: no implementation macro here
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>

#include "core/errors.hpp"
#include "render/gl_check.hpp"

namespace nbody {

namespace fs = std::filesystem;

Image read_framebuffer(unsigned fbo, int width, int height) {
    Image img;
    img.width = width, img.height = height;
    img.rgba.resize(std::size_t(width) * std::size_t(height) * 4);
    NBODY_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo));
    if (fbo == 0) NBODY_GL(glReadBuffer(GL_BACK));
    NBODY_GL(glPixelStorei(GL_PACK_ALIGNMENT, 1));
    NBODY_GL(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data()));
    // GL's rows start at the bottom; images start at the top.
    const std::size_t row = std::size_t(width) * 4;
    std::vector<uint8_t> tmp(row);
    for (int y = 0; y < height / 2; ++y) {
        uint8_t* a = img.rgba.data() + std::size_t(y) * row;
        uint8_t* b = img.rgba.data() + std::size_t(height - 1 - y) * row;
        std::memcpy(tmp.data(), a, row);
        std::memcpy(a, b, row);
        std::memcpy(b, tmp.data(), row);
    }
    return img;
}

void write_png(const std::string& path, const Image& img) {
    if (img.width < 1 || img.height < 1) throw Error(path + ": empty image");
    if (!stbi_write_png(path.c_str(), img.width, img.height, 4, img.rgba.data(), img.width * 4))
        throw Error(path + ": cannot write the PNG (does the folder exist, is it writable?)");
}

bool program_on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string d;
    std::error_code ec;
    while (std::getline(dirs, d, ':'))
        if (!d.empty() && fs::is_regular_file(fs::path(d) / program, ec)) return true;
    return false;
}

std::string timestamped_name(const std::string& prefix, const std::string& extension) {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
    return prefix + "-" + buf + extension;
}

VideoRecorder::VideoRecorder(const std::string& path, int width, int height, int fps)
    : m_path(path), m_width(width & ~1), m_height(height & ~1) {
    if (!program_on_path("ffmpeg"))
        throw Error(
            "video needs ffmpeg, which is not installed (apt-get install ffmpeg, or "
            "scripts/install-deps.sh)");
    if (m_width < 2 || m_height < 2) throw Error(path + ": frame too small to record");
    // The path is quoted for the shell; a single quote in it is refused rather than escaped.
    if (path.find('\'') != std::string::npos)
        throw Error(path + ": a video path may not contain a single quote");
    const std::string cmd = "ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgba -s " +
                            std::to_string(m_width) + "x" + std::to_string(m_height) + " -r " +
                            std::to_string(fps) + " -i - -c:v libx264 -preset veryfast -pix_fmt yuv420p '" +
                            path + "'";
    m_pipe = popen(cmd.c_str(), "w");
    if (!m_pipe) throw Error("cannot start ffmpeg: " + std::string(std::strerror(errno)));
    m_row.resize(std::size_t(m_width) * 4);
}

VideoRecorder::~VideoRecorder() {
    if (m_pipe) pclose(m_pipe);
}

void VideoRecorder::add_frame(const Image& img) {
    if (!m_pipe) throw Error(m_path + ": recording already finished");
    for (int y = 0; y < m_height; ++y) {
        std::fill(m_row.begin(), m_row.end(), uint8_t(0));
        if (y < img.height)
            std::memcpy(m_row.data(), img.rgba.data() + std::size_t(y) * std::size_t(img.width) * 4,
                        std::size_t(std::min(m_width, img.width)) * 4);
        if (std::fwrite(m_row.data(), 1, m_row.size(), m_pipe) != m_row.size())
            throw Error(m_path + ": ffmpeg stopped accepting frames");
    }
    ++m_frames;
}

void VideoRecorder::finish() {
    if (!m_pipe) return;
    const int status = pclose(m_pipe);
    m_pipe = nullptr;
    if (status != 0)
        throw Error(m_path + ": ffmpeg failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")");
}

}  // namespace nbody
