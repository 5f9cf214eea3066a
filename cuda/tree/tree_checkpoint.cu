// The tree engine's checkpoint state: positions, velocities and accelerations as the engine holds them
// (float32, exact in float64), and with block steps each body's step start and step and the clock. The
// accelerations matter even with shared steps: the next walk's acceleration criterion reads them, so a
// resume from positions alone would open other cells and part from the run left alone.
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "tree/tree_engine.cuh"

namespace nbody::kernels {

namespace {

constexpr const char* kComponents[3][4] = {
    {"x", "y", "z", "m"}, {"vx", "vy", "vz", "vw"}, {"ax", "ay", "az", "aw"}};
constexpr const char* kStepArrays[2] = {"t", "dt"};

}  // namespace

bool TreeEngine::export_state(IntegratorState& st) {
    st = {};
    m_refittable = false;  // the step after a checkpoint builds, as the resumed run's does
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
    const DeviceBuffer* src[3] = {&front().pos, &front().vel, &front().acc};
    std::vector<Float4> v(m_n);
    for (int a = 0; a < 3; ++a) {
        if (m_n > 0)
            NBODY_CUDA_CHECK(cudaMemcpy(v.data(), src[a]->get(), m_n * sizeof(float4), cudaMemcpyDeviceToHost));
        if (a == 2)
            for (Float4& acc : v) acc.w = 0;  // the walk's cost estimate (walk_cost), not state
        for (int c = 0; c < 4; ++c) {
            std::vector<double> col(m_n);
            for (std::size_t i = 0; i < m_n; ++i) col[i] = (&v[i].x)[c];
            st.arrays.emplace_back(kComponents[a][c], std::move(col));
        }
    }
    if (m_block) {
        std::vector<double> t, dt;
        front().clock.read(t, dt);
        st.arrays.emplace_back(kStepArrays[0], std::move(t));
        st.arrays.emplace_back(kStepArrays[1], std::move(dt));
        st.scalars.emplace_back("clock", front().clock.clock());
    }
    st.scalars.emplace_back("time_base", m_time);
    put_groups(st, m_group, m_n);
    return true;
}

void TreeEngine::import_state(const IntegratorState& st, const SimParams& p) {
    // Everything read and checked before the device is touched.
    const std::size_t n = need_body_count(st);
    std::vector<Float4> v[3];
    for (int a = 0; a < 3; ++a) {
        v[a].resize(n);
        for (int c = 0; c < 4; ++c) {
            const std::vector<double>& col = need_array(st, kComponents[a][c], n);
            for (std::size_t i = 0; i < n; ++i) (&v[a][i].x)[c] = float(col[i]);
        }
    }
    const bool block = integrator_info(p.integrator).block_steps;
    std::vector<double> t, dt;
    double clock = 0;
    if (block) {
        t = need_array(st, kStepArrays[0], n), dt = need_array(st, kStepArrays[1], n);
        clock = need_scalar(st, "clock");
        for (std::size_t i = 0; i < n; ++i)
            if (!(dt[i] > 0.0) || t[i] > clock || t[i] + dt[i] < clock)
                throw Error("integrator state: body " + std::to_string(i) + "'s step (t " + std::to_string(t[i]) +
                            ", dt " + std::to_string(dt[i]) + ") does not hold the clock " + std::to_string(clock));
    }
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.pos_mass[i] = to_double4(v[0][i]), s.vel[i] = to_double4(v[1][i]);
    s.group = need_groups(st, n);
    s.time = need_scalar(st, "time_base");

    // The engine made as a reset makes it, from these very floats (exact through double); its evaluation and
    // first steps are overwritten below.
    reset(s, p);
    for (auto& r : m_parts) {  // every part holds every body
        NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
        if (n > 0)
            NBODY_CUDA_CHECK(cudaMemcpyAsync(r->acc.get(), v[2].data(), n * sizeof(float4), cudaMemcpyHostToDevice,
                                             r->part->stream));
        if (block) r->clock.write(t, dt, clock, r->part->stream);
    }
    m_dev.synchronize();  // the host arrays go out of scope
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
    m_acc_current = true;
    m_refittable = false;  // reset's tree is of these positions, but the saved run built at its next step
}

}  // namespace nbody::kernels
