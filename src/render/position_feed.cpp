#include "render/position_feed.hpp"

namespace nbody {

const char* upload_path_name(UploadPath p) {
    if (p == UploadPath::GlCompute) return "GL compute (the backend writes the vertex buffer)";
    return p == UploadPath::Interop ? "CUDA-GL interop (map / write / unmap)" : "host copy (glBufferSubData)";
}

PositionFeed::PositionFeed() = default;
PositionFeed::~PositionFeed() = default;

void PositionFeed::detach() {
    m_link.reset();
}

void PositionFeed::attach(Backend& backend, ParticleRenderer& renderer, bool allow_interop) {
    detach();  // a registered buffer must be unregistered before GL deletes or re-creates it
    renderer.set_particle_count(backend.size());
    m_host.clear();
    m_note.clear();
    m_link =
        backend.link_gl_buffer(renderer.position_buffer(), renderer.position_bytes(), allow_interop, &m_note);
    if (m_link) {
        m_note.clear();
        return;
    }
    if (!allow_interop) m_note = "interop turned off";
    m_host.resize(backend.size());
}

void PositionFeed::update(Backend& backend, ParticleRenderer& renderer) {
    if (m_link) {
        m_link->write();
        return;
    }
    if (m_host.size() != backend.size()) m_host.resize(backend.size());
    backend.copy_positions_to_host(m_host.data());
    renderer.upload_positions(m_host.data(), m_host.size());
}

}  // namespace nbody
