#pragma once
// How the backend's positions reach the renderer's vertex buffer each frame: a strategy with two paths.
//   Interop:  the GL buffer is registered with CUDA once; per frame map -> backend.write_positions_to_device
//             -> unmap -> draw. No host round trip. Used when the backend has caps().external_positions and
//             GlInteropBuffer::try_register succeeds (CUDA builds only).
//   HostCopy: backend.copy_positions_to_host into a staging array, then glBufferSubData. Always works.
//   GlCompute: the GL compute backend (caps().gl_positions) writes the buffer itself on the GPU, in its
//             step's last dispatch or by a buffer-to-buffer copy (write_positions_to_gl_buffer).
#include <memory>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "render/particle_renderer.hpp"

namespace nbody {

class GlInteropBuffer;  // cuda/interop/gl_interop.hpp

enum class UploadPath { HostCopy, Interop, GlCompute };
const char* upload_path_name(UploadPath p);

class PositionFeed {
  public:
    PositionFeed();
    ~PositionFeed();
    PositionFeed(const PositionFeed&) = delete;
    PositionFeed& operator=(const PositionFeed&) = delete;

    // Sizes the renderer for the backend's N (releasing any CUDA registration of the old buffer first) and
    // picks the path. Call after every backend change or reset. `allow_interop` false forces the host copy.
    void attach(Backend& backend, ParticleRenderer& renderer, bool allow_interop = true);
    // Releases the CUDA registration; call before the renderer or the GL context goes away.
    void detach();
    // Writes the current positions into the renderer's buffer through the active path.
    void update(Backend& backend, ParticleRenderer& renderer);

    UploadPath path() const { return m_path; }
    // Why the interop path is not in use ("CPU backend", the registration error), empty when it is.
    const std::string& note() const { return m_note; }
    // The host staging copy (HostCopy path only; empty under interop and GL compute): lets the app reuse this
    // frame's positions (frame-all, centre of mass) without a second copy.
    const std::vector<Float4>& host_positions() const { return m_host; }

  private:
    UploadPath m_path = UploadPath::HostCopy;
    std::string m_note;
    std::vector<Float4> m_host;
    std::unique_ptr<GlInteropBuffer> m_interop;
};

}  // namespace nbody
