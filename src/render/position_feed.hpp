#pragma once
// How the backend's positions reach the renderer's vertex buffer each frame. The backend owns the GPU-side
// paths (Backend::link_gl_buffer): CUDA registers the buffer for interop (map, write, unmap: no host round
// trip), the GL compute backend writes it from its own buffers. Where it offers no link (the CPU backend, a
// failed registration, interop turned off) the feed copies the positions to the host and uploads them.
#include <memory>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "render/particle_renderer.hpp"

namespace nbody {

using UploadPath = PositionPath;
const char* upload_path_name(UploadPath p);

class PositionFeed {
  public:
    PositionFeed();
    ~PositionFeed();
    PositionFeed(const PositionFeed&) = delete;
    PositionFeed& operator=(const PositionFeed&) = delete;

    // Sizes the renderer for the backend's N (dropping the old link, and with it any CUDA registration of the
    // old buffer, first) and asks the backend for a link. Call after every backend change or reset.
    // `allow_interop` false forces the host copy where the link would go through CUDA-GL interop.
    void attach(Backend& backend, ParticleRenderer& renderer, bool allow_interop = true);
    // Drops the link; call before the renderer or the GL context goes away.
    void detach();
    // Writes the current positions into the renderer's buffer through the active path.
    void update(Backend& backend, ParticleRenderer& renderer);

    UploadPath path() const { return m_link ? m_link->path() : UploadPath::HostCopy; }
    // Why the positions go through the host ("the cpu backend keeps ...", the registration error), empty when
    // they do not.
    const std::string& note() const { return m_note; }
    // The host staging copy (HostCopy path only; empty under interop and GL compute): lets the app reuse this
    // frame's positions (frame-all, centre of mass) without a second copy.
    const std::vector<Float4>& host_positions() const { return m_host; }

  private:
    std::string m_note;
    std::vector<Float4> m_host;
    std::unique_ptr<PositionLink> m_link;
};

}  // namespace nbody
