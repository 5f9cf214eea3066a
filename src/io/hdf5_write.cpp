// The HDF5 writer (layout in hdf5_snapshot.hpp): a temporary file beside the target, flushed, fsync'd and
// renamed over it, so a reader or a kill never meets a half-written file.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_registry.hpp"
#include "io/hdf5_handles.hpp"
#include "io/hdf5_snapshot.hpp"

namespace nbody {

namespace {

using h5::Id;

struct Writer {
    std::string path;  // for messages: the final name, not the temporary one

    [[noreturn]] void fail(const std::string& where) const {
        throw Error(path + ": " + where + ": HDF5 could not write it");
    }
    Id group(hid_t loc, const char* name) const {
        Id g(H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
        if (!g.ok()) fail(std::string("group ") + name);
        return g;
    }
    void attr(hid_t loc, const char* name, hid_t file_type, hid_t mem_type, const void* data,
              hsize_t n = 0) const {
        Id space(n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose);
        Id a(H5Acreate2(loc, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
        if (!a.ok() || H5Awrite(a.get(), mem_type, data) < 0) fail(std::string("attribute ") + name);
    }
    void real(hid_t loc, const char* name, double v) const {
        attr(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
    }
    void integer(hid_t loc, const char* name, long long v) const {
        const int64_t x = v;
        attr(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &x);
    }
    void text(hid_t loc, const char* name, const std::string& s) const {
        Id type(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(type.get(), s.empty() ? 1 : s.size());
        H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
        const std::string v = s.empty() ? std::string(1, '\0') : s;
        attr(loc, name, type.get(), type.get(), v.data());
    }
    // A dataset of rows x cols values (cols 0: one-dimensional).
    void dataset(hid_t loc, const char* name, hid_t file_type, hid_t mem_type, const void* data, hsize_t rows,
                 hsize_t cols = 0) const {
        const hsize_t dims[2] = {rows, cols};
        Id space(H5Screate_simple(cols ? 2 : 1, dims, nullptr), H5Sclose);
        Id d(H5Dcreate2(loc, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
        if (!d.ok() || (rows > 0 && H5Dwrite(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0))
            fail(std::string("dataset ") + name);
    }
};

void write_header(const Writer& w, hid_t file, const Snapshot& s) {
    Id h = w.group(file, "Header");
    const auto n = static_cast<uint64_t>(s.state.size());
    const uint32_t count[6] = {0, uint32_t(n & 0xffffffffu), 0, 0, 0, 0};
    const uint32_t high[6] = {0, uint32_t(n >> 32), 0, 0, 0, 0};
    const double mass_table[6] = {};
    w.attr(h.get(), "NumPart_ThisFile", H5T_STD_U32LE, H5T_NATIVE_UINT32, count, 6);
    w.attr(h.get(), "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, count, 6);
    w.attr(h.get(), "NumPart_Total_HighWord", H5T_STD_U32LE, H5T_NATIVE_UINT32, high, 6);
    w.attr(h.get(), "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, mass_table, 6);
    w.real(h.get(), "Time", s.state.time);
    w.real(h.get(), "Redshift", 0.0);
    w.real(h.get(), "BoxSize", 0.0);
    w.integer(h.get(), "NumFilesPerSnapshot", 1);
    w.real(h.get(), "Omega0", 0.0);
    w.real(h.get(), "OmegaLambda", 0.0);
    w.real(h.get(), "HubbleParam", 1.0);
    w.integer(h.get(), "Flag_DoublePrecision", 1);
    if (s.info.G) w.real(h.get(), "GravitationalConstant", *s.info.G);
    if (s.info.eps) w.real(h.get(), "Softening", *s.info.eps);
    if (s.info.dt) w.real(h.get(), "TimeStep", *s.info.dt);
    w.text(h.get(), "Scene", s.info.scene);
}

void write_particles(const Writer& w, hid_t file, const State& s) {
    Id g = w.group(file, "PartType1");
    const std::size_t n = s.size();
    std::vector<double> x(3 * n), v(3 * n), m(n);
    std::vector<uint64_t> ids(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[3 * i] = s.pos_mass[i].x, x[3 * i + 1] = s.pos_mass[i].y, x[3 * i + 2] = s.pos_mass[i].z;
        v[3 * i] = s.vel[i].x, v[3 * i + 1] = s.vel[i].y, v[3 * i + 2] = s.vel[i].z;
        m[i] = s.pos_mass[i].w;
        ids[i] = i;
    }
    w.dataset(g.get(), "Coordinates", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, x.data(), n, 3);
    w.dataset(g.get(), "Velocities", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v.data(), n, 3);
    w.dataset(g.get(), "Masses", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, m.data(), n);
    w.dataset(g.get(), "ParticleIDs", H5T_STD_U64LE, H5T_NATIVE_UINT64, ids.data(), n);
    w.dataset(g.get(), "GroupIDs", H5T_STD_U32LE, H5T_NATIVE_UINT32, s.group.data(), n);
}

std::string joined(const std::vector<std::string>& v, char sep) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? std::string(1, sep) : "") + v[i];
    return out;
}

void write_parameters(const Writer& w, hid_t loc, const SimParams& p) {
    Id g = w.group(loc, "Parameters");
    const hid_t h = g.get();
    w.real(h, "dt", p.dt), w.real(h, "eps", p.eps), w.real(h, "G", p.G), w.real(h, "eta", p.eta);
    w.integer(h, "steps_per_frame", p.steps_per_frame);
    w.text(h, "backend", std::string(backend_kind_name(p.backend)));
    w.integer(h, "kernel_auto", p.kernel_auto);
    w.text(h, "variant", std::string(variant_name(p.variant)));
    w.integer(h, "shape_k", p.shape.k), w.integer(h, "shape_u", p.shape.u);
    w.integer(h, "shape_block", p.shape.block), w.integer(h, "shape_q", p.shape.q);
    w.integer(h, "shape_s", p.shape.s);
    w.text(h, "precision", std::string(precision_name(p.precision)));
    w.text(h, "integrator", std::string(integrator_name(p.integrator)));
    w.integer(h, "gpus", p.gpus), w.integer(h, "cpu_threads", p.cpu_threads);
    // The force method and every registry parameter by its own name (theta, alpha, leaf, ...): a tree run
    // resumes as a tree run with its opening tests.
    w.text(h, "method", std::string(method_name(p.method)));
    w.integer(h, "open_all", p.tree.open_all);
    for (const ParamSpec& spec : param_registry()) {
        if (spec.methods == 0) continue;  // the parameters every run reads are written above
        const std::string name(spec.name);
        w.real(h, name.c_str(), spec.get(p));
    }
}

void write_checkpoint(const Writer& w, hid_t file, const Hdf5File& f) {
    const Hdf5Checkpoint& c = *f.checkpoint;
    Id g = w.group(file, "Checkpoint");
    w.text(g.get(), "Format", "nbody-sandbox checkpoint 1");
    w.real(g.get(), "Time", f.snapshot.state.time);
    w.integer(g.get(), "Steps", c.steps);
    w.text(g.get(), "Scene", f.snapshot.info.scene);
    w.text(g.get(), "GroupLabels", joined(c.group_labels, '\n'));
    write_parameters(w, g.get(), c.params);
    if (!c.integrator) return;
    const IntegratorState& st = *c.integrator;
    Id in = w.group(g.get(), "Integrator");
    std::vector<std::string> arrays, scalars;
    w.text(in.get(), "Backend", st.backend);
    for (const auto& [name, v] : st.arrays) {
        w.dataset(in.get(), name.c_str(), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v.data(), v.size());
        arrays.push_back(name);
    }
    for (const auto& [name, v] : st.scalars) w.real(in.get(), name.c_str(), v), scalars.push_back(name);
    w.text(in.get(), "ArrayNames", joined(arrays, ','));
    w.text(in.get(), "ScalarNames", joined(scalars, ','));
}

// fsync on a path (the file, then its folder so the rename itself is durable).
void sync_path(const std::string& path, bool directory) {
    const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

bool hdf5_supported() { return true; }

void write_hdf5(const Hdf5File& f, const std::string& path) {
    h5::quiet_errors();
    namespace fs = std::filesystem;
    const fs::path target(path);
    std::string tmp_name = target.filename().string();
    tmp_name.insert(0, 1, '.');
    tmp_name.append(".tmp").append(std::to_string(::getpid()));
    const fs::path tmp = target.parent_path() / tmp_name;
    const Writer w{path};
    {
        // The 1.10 file format: every object header and B-tree node carries a checksum, so a corrupt file is
        // refused by HDF5 before its contents are decoded (h5py, yt and pynbody read it; HDF5 >= 1.10 does).
        Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
        H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110);
        Id file(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
        if (!file.ok()) throw Error(path + ": cannot create the temporary file '" + tmp.string() + "'");
        try {
            write_header(w, file.get(), f.snapshot);
            write_particles(w, file.get(), f.snapshot.state);
            if (f.checkpoint) write_checkpoint(w, file.get(), f);
            if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0) w.fail("flush");
        } catch (...) {
            file = Id();
            std::error_code ec;
            fs::remove(tmp, ec);
            throw;
        }
    }
    sync_path(tmp.string(), false);
    std::error_code ec;
    fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw Error(path + ": cannot rename the temporary file over it: " + ec.message());
    }
    sync_path(target.parent_path().empty() ? "." : target.parent_path().string(), true);
}

}  // namespace nbody
