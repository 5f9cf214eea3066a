#include "render/position_feed.hpp"

// Plain C++, no CUDA types: only NBODY_HAVE_CUDA builds link try_register.
#include "cuda/interop/gl_interop.hpp"

namespace nbody {

const char* upload_path_name(UploadPath p) {
    if (p == UploadPath::GlCompute) return "GL compute (the backend writes the vertex buffer)";
    return p == UploadPath::Interop ? "CUDA-GL interop (map / write / unmap)" : "host copy (glBufferSubData)";
}

PositionFeed::PositionFeed() = default;
PositionFeed::~PositionFeed() = default;

void PositionFeed::detach() {
    m_interop.reset();
}

void PositionFeed::attach(Backend& backend, ParticleRenderer& renderer, bool allow_interop) {
    detach();  // a registered buffer must be unregistered before GL deletes or re-creates it
    renderer.set_particle_count(backend.size());
    m_path = UploadPath::HostCopy;
    m_host.clear();
    if (backend.caps().gl_positions) {
        m_path = UploadPath::GlCompute;  // the same context: nothing to register, nothing to turn off
        m_note.clear();
    } else if (!allow_interop) {
        m_note = "interop turned off";
    } else if (!backend.caps().external_positions) {
        m_note = "the " + backend.name() +
                 " backend keeps the bodies in main memory: they are copied to the graphics card each frame";
    } else {
#ifdef NBODY_HAVE_CUDA
        std::string why;
        m_interop =
            GlInteropBuffer::try_register(renderer.position_buffer(), renderer.position_bytes(), &why);
        if (m_interop) {
            m_path = UploadPath::Interop;
            m_note.clear();
        } else {
            m_note = "interop registration failed: " + why;
        }
#else
        m_note = "this build has no CUDA";
#endif
    }
    if (m_path == UploadPath::HostCopy) m_host.resize(backend.size());
}

void PositionFeed::update(Backend& backend, ParticleRenderer& renderer) {
    if (m_path == UploadPath::GlCompute) {
        backend.write_positions_to_gl_buffer(renderer.position_buffer());
        return;
    }
    if (m_path == UploadPath::Interop && m_interop) {
        void* dst = m_interop->map();
        try {
            backend.write_positions_to_device(dst);
        } catch (...) {
            m_interop->unmap();
            throw;
        }
        m_interop->unmap();
        return;
    }
    if (m_host.size() != backend.size()) m_host.resize(backend.size());
    backend.copy_positions_to_host(m_host.data());
    renderer.upload_positions(m_host.data(), m_host.size());
}

}  // namespace nbody
