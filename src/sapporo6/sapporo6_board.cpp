#include "sapporo6/sapporo6_board.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "core/env_int.hpp"
#include "core/errors.hpp"
#include "core/parallel.hpp"
#ifdef NBODY_SAPPORO6_CUDA
#include "sapporo6/sapporo6_cuda.hpp"
#else
namespace nbody {
class Sapporo6Cuda {  // the library was built without CUDA: never made
  public:
    void set_j(int, const sapporo6::JRecord&) {}
    void predict(double, int) {}
    void forces(int, const sapporo6::IBatch&, int, int, const sapporo6::IResult&) {}
};
}  // namespace nbody
#endif

namespace nbody::sapporo6 {

namespace {

// The shortest of 15 to 17 digits that reads back as v (0.05, not 0.050000000000000003).
std::string num(double v) {
    char b[32];
    for (int digits = 15; digits <= 17; ++digits) {
        std::snprintf(b, sizeof b, "%.*g", digits, v);
        if (std::strtod(b, nullptr) == v) break;
    }
    return b;
}

// "CALL: NAME[k] is nan" for the first entry of v[0..n) that is not finite, else "".
std::string nonfinite(const char* call, const char* name, const double* v, int n) {
    for (int k = 0; k < n; ++k)
        if (!std::isfinite(v[k]))
            return std::string(call) + ": " + name + "[" + std::to_string(k) + "] is " + num(v[k]);
    return {};
}
std::string nonfinite_rows(const char* call, const char* name, const double (*v)[3], int n) {
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            if (!std::isfinite(v[i][k]))
                return std::string(call) + ": " + name + "[" + std::to_string(i) + "][" + std::to_string(k) +
                       "] is " + num(v[i][k]);
    return {};
}

}  // namespace

Config config_from_environment(std::string& error) {
    Config c;
    if (!env_device("NBODY_SAPPORO6_DEVICE", c.device, error)) return c;
    std::string precision;
    if (!env_word("NBODY_SAPPORO6_PRECISION", {"fp64", "ds"}, precision, error)) return c;
    if (!precision.empty()) c.ds = precision == "ds";
    if (!env_int("NBODY_SAPPORO6_NPIPES", 1, 1 << 20, c.npipes, error)) return c;
    env_int("NBODY_SAPPORO6_JMEMORY", 1, 1 << 26, c.jmemory, error);
    return c;
}

Board::Board(const Config& c) : m_cfg(c) {
    if (c.device == "cpu") return;
#ifdef NBODY_SAPPORO6_CUDA
    // Every listed device or none: a code that asked for several GPUs runs on all of them or, with the reason
    // (device cuda) or quietly (auto), on the CPU.
    for (int d : c.gpus) {
        std::string why;
        std::unique_ptr<Sapporo6Cuda> g = Sapporo6Cuda::create(d, c.npipes, c.ds, &why);
        if (!g) {
            m_gpus.clear();
            if (c.device == "cuda") throw Error("NBODY_SAPPORO6_DEVICE=cuda: " + why);
            return;
        }
        m_gpus.push_back(std::move(g));
    }
#else
    if (c.device == "cuda") throw Error("NBODY_SAPPORO6_DEVICE=cuda: this library was built without CUDA");
#endif
}

Board::~Board() = default;

const char* Board::where() const {
    return m_gpus.empty() ? "cpu" : "cuda";
}

std::string Board::set_j_particle(int address, const JParticle& p) {
    const char* call = "set_j_particle";
    if (address < 0 || address >= m_cfg.jmemory)
        return std::string(call) + ": address " + std::to_string(address) + " is outside the j-memory [0, " +
               std::to_string(m_cfg.jmemory) + ") (NBODY_SAPPORO6_JMEMORY)";
    const std::pair<const char*, const double*> vectors[] = {{"pos", p.pos}, {"vel", p.vel}, {"acc", p.acc},
                                                             {"jrk", p.jrk}, {"snp", p.snp}, {"crk", p.crk}};
    for (const auto& [name, v] : vectors) {
        if (!v) return std::string(call) + ": " + name + " is null";
        if (std::string e = nonfinite(call, name, v, 3); !e.empty()) return e;
    }
    const std::pair<const char*, double> scalars[] = {{"mass", p.mass}, {"time", p.time}, {"eps2", p.eps2}};
    for (const auto& [name, v] : scalars)
        if (!std::isfinite(v)) return std::string(call) + ": " + name + " is " + num(v);
    if (p.eps2 < 0) return std::string(call) + ": eps2 " + num(p.eps2) + " is negative";

    const std::size_t a = std::size_t(address);
    if (a >= m_set.size()) {
        m_unset += int(a + 1 - m_set.size());
        m_rec.resize(a + 1, JRecord{});
        m_pt.resize(a + 1, std::nan(""));
        m_set.resize(a + 1, 0);
    }
    if (!m_set[a]) --m_unset;
    m_set[a] = 1;
    JRecord& r = m_rec[a];
    for (int k = 0; k < 3; ++k)
        r.x[k] = p.pos[k], r.v[k] = p.vel[k], r.a[k] = p.acc[k], r.j[k] = p.jrk[k], r.s[k] = p.snp[k],
        r.c[k] = p.crk[k];
    r.mass = p.mass, r.time = p.time, r.eps2 = p.eps2, r.id = p.id, r.pad = 0;
    m_pt[a] = std::nan("");  // used as stored until the next prediction (as Sapporo2 does)
    m_pred_stale = true;
    for (auto& g : m_gpus) g->set_j(address, r);
    return {};
}

std::string Board::check_nj(const char* call, int nj) const {
    const int size = int(m_set.size());
    if (nj < 0 || nj > size)
        return std::string(call) + ": nj " + std::to_string(nj) + " is outside [0, " + std::to_string(size) +
               "] (the addresses set so far)";
    if (m_unset > 0)
        for (int k = 0; k < nj; ++k)
            if (!m_set[std::size_t(k)])
                return std::string(call) + ": nj " + std::to_string(nj) + " covers address " +
                       std::to_string(k) + ", never set";
    return {};
}

std::string Board::predict(const char* call, double time, int nj, bool do_predict) {
    if (std::string e = check_nj(call, nj); !e.empty()) return e;
    if (do_predict) {
        if (!std::isfinite(time)) return std::string(call) + ": time is " + num(time);
        for (int k = 0; k < nj; ++k)
            if (time < m_rec[std::size_t(k)].time)
                return std::string(call) + ": time " + num(time) + " is before the time " +
                       num(m_rec[std::size_t(k)].time) + " of the particle at address " + std::to_string(k);
    }
    std::fill(m_pt.begin(), m_pt.begin() + nj, do_predict ? time : std::nan(""));
    m_pred_stale = true;
    for (auto& g : m_gpus) g->predict(do_predict ? time : std::nan(""), nj);
    return {};
}

std::string Board::pick_up(int address, int& id, double& mass, double& eps2, double pos[3], double vel[3],
                           double acc[3]) const {
    const char* call = "pick_up_predictor_2";
    if (address < 0 || std::size_t(address) >= m_set.size() || !m_set[std::size_t(address)])
        return std::string(call) + ": address " + std::to_string(address) +
               " was never set (addresses set: " + std::to_string(m_set.size() - std::size_t(m_unset)) +
               " in [0, " + std::to_string(m_set.size()) + "))";
    if (!pos || !vel || !acc) return std::string(call) + ": pos, vel and acc must not be null";
    const JRecord& r = m_rec[std::size_t(address)];
    hermite6::D3 x, v, a;
    predicted(r, m_pt[std::size_t(address)], x, v, a);
    id = r.id, mass = r.mass, eps2 = r.eps2;
    put(pos, x), put(vel, v), put(acc, a);
    return {};
}

std::string Board::check_i(const IBatch& in) const {
    const char* call = "calc_force_on_predictors";
    if (in.ni < 0) return std::string(call) + ": ni " + std::to_string(in.ni) + " is negative";
    if (in.ni == 0) return {};
    if (!in.id || !in.pos || !in.vel || !in.acc || !in.mass || !in.eps2)
        return std::string(call) + ": ids, pos, vel, acc, mass and eps2 must not be null";
    const std::pair<const char*, const double(*)[3]> rows[] = {
        {"pos", in.pos}, {"vel", in.vel}, {"acc", in.acc}};
    for (const auto& [name, v] : rows)
        if (std::string e = nonfinite_rows(call, name, v, in.ni); !e.empty()) return e;
    if (std::string e = nonfinite(call, "mass", in.mass, in.ni); !e.empty()) return e;
    if (std::string e = nonfinite(call, "eps2", in.eps2, in.ni); !e.empty()) return e;
    for (int i = 0; i < in.ni; ++i)
        if (in.eps2[i] < 0) return std::string(call) + ": eps2[" + std::to_string(i) + "] is negative";
    return {};
}

std::string Board::calc(int nj, const IBatch& in, const IResult& out) {
    const char* call = "calc_force_on_predictors";
    if (std::string e = check_i(in); !e.empty()) return e;
    if (std::string e = check_nj(call, nj); !e.empty()) return e;
    if (in.ni > 0 && (!out.acc || !out.jrk || !out.snp || !out.phi || !out.nnb || !out.nnb_r2))
        return std::string(call) + ": accNew, jrkNew, snpNew, phi, nnb and nnb_r2 must not be null";
    if (!m_gpus.empty() && nj > 0) {
        gpu_forces(nj, in, out);
        return {};
    }
    for (int i0 = 0; i0 < in.ni; i0 += m_cfg.npipes) {
        refresh_predicted();
        cpu_forces(m_pred, nj, in, i0, std::min(m_cfg.npipes, in.ni - i0), out);
    }
    return {};
}

void Board::gpu_forces(int nj, const IBatch& in, const IResult& out) {
    const int parts = int(m_gpus.size());
    std::vector<std::exception_ptr> failed(static_cast<std::size_t>(parts));
    auto share = [&](int d) {
        const int lo = int(static_cast<long long>(in.ni) * d / parts);
        const int hi = int(static_cast<long long>(in.ni) * (d + 1) / parts);
        try {
            for (int i0 = lo; i0 < hi; i0 += m_cfg.npipes)
                m_gpus[std::size_t(d)]->forces(nj, in, i0, std::min(m_cfg.npipes, hi - i0), out);
        } catch (...) {
            failed[std::size_t(d)] = std::current_exception();
        }
    };
    if (parts == 1) {
        share(0);
    } else {
        std::vector<std::thread> threads;
        for (int d = 0; d < parts; ++d) threads.emplace_back(share, d);
        for (std::thread& t : threads) t.join();
    }
    for (const std::exception_ptr& f : failed)
        if (f) std::rethrow_exception(f);
}

void Board::refresh_predicted() {
    if (!m_pred_stale) return;
    const std::size_t n = m_rec.size();
    for (auto* v : {&m_pred.pos, &m_pred.vel, &m_pred.acc}) v->resize(n);
    m_pred.mass.resize(n), m_pred.eps2.resize(n), m_pred.id.resize(n);
    parallel_for(
        n, resolve_threads(0),
        [&](std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; ++k) {
                predicted(m_rec[k], m_pt[k], m_pred.pos[k], m_pred.vel[k], m_pred.acc[k]);
                m_pred.mass[k] = m_rec[k].mass, m_pred.eps2[k] = m_rec[k].eps2, m_pred.id[k] = m_rec[k].id;
            }
        },
        4096);
    m_pred_stale = false;
}

}  // namespace nbody::sapporo6
