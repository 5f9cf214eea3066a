#include "cpu/leapfrog_integrator.hpp"

#include "core/physics/leapfrog.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_force_evaluator.hpp"
#include "cpu/hermite_integrator.hpp"
#include "cpu/leapfrog_block_integrator.hpp"
#include "core/rows/integrator.hpp"

namespace nbody {

LeapfrogCpu::LeapfrogCpu(CpuForces& forces, std::size_t begin, std::size_t end, const RangePartition* partition)
    : m_forces(forces), m_begin(begin), m_end(end), m_partition(partition && partition->gather ? partition : nullptr) {}

void LeapfrogCpu::start(Bodies& b, const SimParams& p, int threads, WorkCount&) {
    m_forces.evaluate(b, p, m_begin, m_end, threads);
}

std::size_t LeapfrogCpu::step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double& time) {
    const std::size_t n = m_end - m_begin, o = m_begin;  // the own rows
    const double dt = p.dt, h = 0.5 * dt;
    kick(n, b.vx.data() + o, b.vy.data() + o, b.vz.data() + o, b.ax.data() + o, b.ay.data() + o, b.az.data() + o, h);
    drift(n, b.x.data() + o, b.y.data() + o, b.z.data() + o, b.vx.data() + o, b.vy.data() + o, b.vz.data() + o, dt);
    if (m_partition) gather_positions(b);
    m_forces.evaluate(b, p, m_begin, m_end, threads);
    kick(n, b.vx.data() + o, b.vy.data() + o, b.vz.data() + o, b.ax.data() + o, b.ay.data() + o, b.az.data() + o, h);
    time += dt;
    work.evaluations += 1;
    work.add(m_forces.last_work(p, b.size()), 1);  // the whole simulation's work, every rank's share
    return n;
}

void LeapfrogCpu::gather_positions(Bodies& b) {
    m_gather_buf.resize(b.size());
    for (std::size_t i = m_begin; i < m_end; ++i) m_gather_buf[i] = {b.x[i], b.y[i], b.z[i], b.m[i]};
    m_partition->gather(m_gather_buf);
    auto take = [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) {
            const Double4 d = m_gather_buf[i];
            b.x[i] = d.x, b.y[i] = d.y, b.z[i] = d.z, b.m[i] = d.w;
        }
    };
    take(0, m_begin);
    take(m_end, b.size());
}

std::unique_ptr<CpuIntegrator> make_cpu_integrator(const SimParams& p, CpuForces& forces, std::size_t begin,
                                                   std::size_t end, const RangePartition* partition) {
    switch (integrator_info(p.integrator).scheme) {  // every scheme: the compiler names this place for a new one
        case Scheme::KickDriftKick: return std::make_unique<LeapfrogCpu>(forces, begin, end, partition);
        case Scheme::Hermite4: return std::make_unique<HermiteCpu<Hermite4Order>>();
        case Scheme::Hermite6: return std::make_unique<HermiteCpu<Hermite6Order>>();
        case Scheme::KickDriftKickBlock: return std::make_unique<LeapfrogBlockCpu>(forces);
    }
    return nullptr;
}

void check_cpu_reach(const SimParams& p) {
    check_cpu_evaluates(p.method);
    const IntegratorInfo& in = integrator_info(p.integrator);
    if (in.scheme == Scheme::Hermite6 && p.precision != Precision::Fp64)  // its sums are float64 only
        throw ParamError("precision", "the cpu backend runs " + std::string(in.name) + " in fp64 only (got " +
                                          std::string(precision_name(p.precision)) + "); choose precision fp64");
}

}  // namespace nbody
