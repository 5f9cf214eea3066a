#include "g6/g6_device.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/env_int.hpp"
#include "core/errors.hpp"
#include "core/parallel.hpp"
#ifdef NBODY_G6_CUDA
#include "g6/g6_cuda.hpp"
#else
namespace nbody {
class G6Cuda {  // the library was built without CUDA: never made
  public:
    static constexpr int kRecord = 14;
    void set_j(int, const double*) {}
    void start(double, int, int, const double (*)[3], const double (*)[3], double) {}
    void finish(hermite::Force*) {}
};
}  // namespace nbody
#endif
#include "g6/g6lib.h"

namespace nbody::g6 {

Config config_from_environment(std::string& error) {
    Config c;
    std::string precision;
    if (!env_word("NBODY_G6_PRECISION", {"ds", "fp64", "fp32"}, precision, error)) return c;
    // The library links no parameter tables of its own (parse_precision is libnbody's): the three words here.
    if (precision == "ds") c.precision = Precision::DS;
    else if (precision == "fp64") c.precision = Precision::Fp64;
    else if (precision == "fp32") c.precision = Precision::Fp32;
    if (!env_device("NBODY_G6_DEVICE", c.device, error)) return c;
    if (!env_int("NBODY_G6_NPIPES", 1, 1 << 16, c.npipes, error)) return c;
    env_int("NBODY_G6_JMEMORY", 1, 1 << 26, c.jmemory, error);
    return c;
}

Device::Device(const Config& c) : m_cfg(c) {
    if (c.device == "cpu") return;
#ifdef NBODY_G6_CUDA
    std::string why;
    m_gpu = G6Cuda::create(c.precision, c.jmemory, c.npipes, &why);
    if (!m_gpu && c.device == "cuda") throw Error("NBODY_G6_DEVICE=cuda: " + why);
#else
    if (c.device == "cuda") throw Error("NBODY_G6_DEVICE=cuda: this libnbody_g6 was built without CUDA");
#endif
}

Device::~Device() = default;

const char* Device::where() const { return m_gpu ? "cuda" : "cpu"; }

int Device::fail(int code, std::string why) {
    m_error = std::move(why);
    std::fprintf(stderr, "g6: %s\n", m_error.c_str());
    return code;
}

int Device::set_ti(double ti) {
    if (!std::isfinite(ti)) return fail(G6_ERR_RANGE, "g6_set_ti: ti is not finite");
    m_ti = ti;
    return 0;
}

int Device::set_j_particle(int address, int index, double tj, double mass, const double a2[3],
                           const double j6[3], const double v[3], const double x[3]) {
    if (address < 0 || address >= m_cfg.jmemory)
        return fail(G6_ERR_RANGE, "g6_set_j_particle: address " + std::to_string(address) +
                                      " outside the j-memory 0.." + std::to_string(m_cfg.jmemory - 1) +
                                      " (NBODY_G6_JMEMORY)");
    if (!a2 || !j6 || !v || !x) return fail(G6_ERR_RANGE, "g6_set_j_particle: a null array");
    if (std::size_t(address) >= m_tj.size()) {
        const std::size_t n = std::size_t(address) + 1;
        m_tj.resize(n), m_m.resize(n), m_index.resize(n);
        for (auto* a : {&m_x, &m_v, &m_a2, &m_j6}) a->resize(3 * n);
    }
    const std::size_t a = std::size_t(address);
    m_tj[a] = tj, m_m[a] = mass, m_index[a] = index;
    for (int k = 0; k < 3; ++k)
        m_x[3 * a + k] = x[k], m_v[3 * a + k] = v[k], m_a2[3 * a + k] = a2[k], m_j6[3 * a + k] = j6[k];
    m_high = std::max(m_high, address + 1);
    if (m_gpu) {
        double r[G6Cuda::kRecord] = {tj, mass};
        for (int k = 0; k < 3; ++k) r[2 + k] = x[k], r[5 + k] = v[k], r[8 + k] = a2[k], r[11 + k] = j6[k];
        m_gpu->set_j(address, r);
    }
    return 0;
}

// Every j-particle at addresses 0..nj-1 to ti (GRAPE's factors: a2 = a/2, j6 = j/6), into the source arrays.
void Device::predict(int nj) {
    for (int j = 0; j < nj; ++j) {
        const double dt = m_ti - m_tj[j];
        double p[3], q[3];
        for (int k = 0; k < 3; ++k) {
            const double x = m_x[3 * j + k], v = m_v[3 * j + k], a2 = m_a2[3 * j + k], j6 = m_j6[3 * j + k];
            p[k] = x + dt * (v + dt * (a2 + dt * j6));
            q[k] = v + dt * (2 * a2 + dt * 3 * j6);
        }
        m_px[j] = p[0], m_py[j] = p[1], m_pz[j] = p[2], m_pvx[j] = q[0], m_pvy[j] = q[1], m_pvz[j] = q[2];
        m_pm[j] = m_m[j];
    }
}

int Device::firsthalf(int nj, int ni, const int index[], const double (*xi)[3], const double (*vi)[3],
                      double eps2, const double h2[]) {
    m_pending = true, m_have_batch = false, m_ni = ni, m_nj = nj;
    m_pending_error = 0;
    if (ni < 1 || ni > m_cfg.npipes)
        return m_pending_error = fail(G6_ERR_RANGE, "g6calc_firsthalf: ni = " + std::to_string(ni) +
                                                        " outside 1..g6_npipes() = " + std::to_string(m_cfg.npipes));
    if (nj < 0 || nj > m_high)
        return m_pending_error = fail(G6_ERR_RANGE, "g6calc_firsthalf: nj = " + std::to_string(nj) +
                                                        " but j-particles were set at addresses 0.." +
                                                        std::to_string(m_high - 1));
    if (!xi || !vi || !index || !(eps2 >= 0) || !std::isfinite(eps2))
        return m_pending_error = fail(G6_ERR_RANGE, "g6calc_firsthalf: null arrays or eps2 < 0");
    m_ix.resize(std::size_t(ni) * 6);
    for (int i = 0; i < ni; ++i)
        for (int k = 0; k < 3; ++k) m_ix[std::size_t(i) * 6 + k] = xi[i][k], m_ix[std::size_t(i) * 6 + 3 + k] = vi[i][k];
    m_batch_ti = m_ti;
    m_force.resize(std::size_t(ni));
    m_h2.assign(std::size_t(ni), 0.0);
    if (h2)
        for (int i = 0; i < ni; ++i) m_h2[std::size_t(i)] = h2[i];
    m_have_batch = true;
    m_tree.reset();
    if (m_gpu) {
        m_host_predicted = false;
        m_gpu->start(m_ti, nj, ni, xi, vi, eps2);  // lasthalf collects: the host is free meanwhile
        return 0;
    }
    m_host_predicted = false;
    host_prediction();
    std::vector<std::size_t> rows(static_cast<std::size_t>(ni));
    for (int i = 0; i < ni; ++i) rows[std::size_t(i)] = std::size_t(nj + i);
    const SourcesF64 src{m_px.data(), m_py.data(), m_pz.data(), m_pvx.data(), m_pvy.data(), m_pvz.data(),
                         m_pm.data(), m_px.size()};
    hermite_forces(src, rows.data(), rows.size(), m_cfg.precision, eps2, resolve_threads(0), m_force.data());
    (void)index;
    return 0;
}

// Sources: the predicted j-particles, then the i-particles with mass 0 (they exert nothing); the rows asked
// for are the i's, so one force loop serves both (cpu/force_modes: pairs at zero separation are skipped).
void Device::host_prediction() {
    if (m_host_predicted) return;
    const int nj = m_nj, ni = m_ni;
    const double ti = m_ti;
    m_ti = m_batch_ti;
    const std::size_t n = std::size_t(nj) + std::size_t(ni);
    for (auto* a : {&m_px, &m_py, &m_pz, &m_pvx, &m_pvy, &m_pvz, &m_pm}) a->resize(n);
    predict(nj);
    m_ti = ti;
    for (int i = 0; i < ni; ++i) {
        const std::size_t r = std::size_t(nj + i);
        const double* b = &m_ix[std::size_t(i) * 6];
        m_px[r] = b[0], m_py[r] = b[1], m_pz[r] = b[2], m_pvx[r] = b[3], m_pvy[r] = b[4], m_pvz[r] = b[5];
        m_pm[r] = 0.0;
    }
    m_host_predicted = true;
}

int Device::lasthalf(int ni, double (*acc)[3], double (*jerk)[3], double pot[], int nnb[]) {
    if (!m_pending) return fail(G6_ERR_ORDER, "g6calc_lasthalf without a g6calc_firsthalf before it");
    m_pending = false;
    if (m_pending_error) return m_pending_error;
    if (ni != m_ni)
        return fail(G6_ERR_RANGE, "g6calc_lasthalf: ni = " + std::to_string(ni) + " but g6calc_firsthalf had " +
                                      std::to_string(m_ni));
    if (!acc || !jerk || !pot) return fail(G6_ERR_RANGE, "g6calc_lasthalf: a null output array");
    if (m_gpu) m_gpu->finish(m_force.data());
    for (int i = 0; i < ni; ++i) {
        const hermite::Force& f = m_force[std::size_t(i)];
        acc[i][0] = f.acc.x, acc[i][1] = f.acc.y, acc[i][2] = f.acc.z;
        jerk[i][0] = f.jerk.x, jerk[i][1] = f.jerk.y, jerk[i][2] = f.jerk.z;
        pot[i] = f.pot;
        if (nnb) nnb[i] = nearest(i);
    }
    return 0;
}

const NeighbourTree& Device::tree() {
    host_prediction();
    if (!m_tree)
        m_tree = std::make_unique<NeighbourTree>(m_px.data(), m_py.data(), m_pz.data(), std::size_t(m_nj));
    return *m_tree;
}

// The index of the j-particle nearest to i of the batch (float64; zero separation, i itself, skipped).
int Device::nearest(int i) {
    const NeighbourTree& g = tree();
    const std::size_t r = std::size_t(m_nj + i);
    const int j = g.nearest(m_px[r], m_py[r], m_pz[r]);
    return j < 0 ? -1 : m_index[std::size_t(j)];
}

int Device::read_neighbour_list() {
    if (!m_have_batch) return fail(G6_ERR_ORDER, "g6_read_neighbour_list before any g6calc_firsthalf");
    const NeighbourTree& g = tree();
    m_neighbours.assign(std::size_t(m_ni), {});
    std::vector<int> found;
    for (int i = 0; i < m_ni; ++i) {
        const std::size_t r = std::size_t(m_nj + i);
        g.within(m_px[r], m_py[r], m_pz[r], m_h2[std::size_t(i)], found);
        for (int j : found) m_neighbours[std::size_t(i)].push_back(m_index[std::size_t(j)]);
    }
    return 0;
}

int Device::get_neighbour_list(int ipipe, int maxlength, int* n, int list[]) {
    if (m_neighbours.empty()) return fail(G6_ERR_ORDER, "g6_get_neighbour_list before g6_read_neighbour_list");
    if (ipipe < 0 || ipipe >= int(m_neighbours.size()))
        return fail(G6_ERR_RANGE, "g6_get_neighbour_list: ipipe " + std::to_string(ipipe) + " outside 0.." +
                                      std::to_string(m_neighbours.size() - 1));
    if (!n || (maxlength > 0 && !list) || maxlength < 0)
        return fail(G6_ERR_RANGE, "g6_get_neighbour_list: null output or maxlength < 0");
    const std::vector<int>& l = m_neighbours[std::size_t(ipipe)];
    const int count = std::min<int>(int(l.size()), maxlength);
    for (int k = 0; k < count; ++k) list[k] = l[std::size_t(k)];
    *n = count;
    return int(l.size()) > maxlength ? 1 : 0;
}

}  // namespace nbody::g6
