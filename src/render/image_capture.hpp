#pragma once
// Screenshots (PNG through stb_image_write from libstb) and video (raw RGBA frames piped to ffmpeg).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace nbody {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // top row first
};

// Reads the colour attachment of `fbo` (0: the window's back buffer) as RGBA8, top row first.
Image read_framebuffer(unsigned fbo, int width, int height);
// Throws nbody::Error naming the path when the file cannot be written.
void write_png(const std::string& path, const Image& img);

// True when `program` is an executable on $PATH.
bool program_on_path(const std::string& program);

// Pipes frames to `ffmpeg -f rawvideo`; H.264 in yuv420p needs even sizes, so frames are cropped to even
// width and height. Throws nbody::Error when ffmpeg is missing ("install ffmpeg") or the pipe breaks.
class VideoRecorder {
  public:
    VideoRecorder(const std::string& path, int width, int height, int fps = 60);
    ~VideoRecorder();
    VideoRecorder(const VideoRecorder&) = delete;
    VideoRecorder& operator=(const VideoRecorder&) = delete;

    void add_frame(const Image& img);  // any size: cropped or padded to the recording's size
    // Closes the pipe and waits for ffmpeg; throws when it failed.
    void finish();
    const std::string& path() const { return m_path; }
    long frames() const { return m_frames; }

  private:
    std::string m_path;
    int m_width, m_height;
    std::FILE* m_pipe = nullptr;
    long m_frames = 0;
    std::vector<uint8_t> m_row;
};

// "screenshot-20261122-031502.png" style names in the working directory.
std::string timestamped_name(const std::string& prefix, const std::string& extension);

}  // namespace nbody
