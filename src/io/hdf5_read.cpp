// The HDF5 reader (layout in hdf5_snapshot.hpp). Every object is checked before it is read (exists, type
// class, shape), so a truncated, corrupt or foreign file gives "file: /object[attribute]: what is wrong".
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/param_registry.hpp"
#include "io/hdf5_handles.hpp"
#include "io/hdf5_snapshot.hpp"

namespace nbody {

namespace {

using h5::Id;

// Bounds on what a file may ask us to allocate: a corrupt dimension must not allocate terabytes.
constexpr hsize_t kMaxBodies = hsize_t(1) << 32;
constexpr std::size_t kMaxText = 1 << 20;

struct Reader {
    std::string name;

    [[noreturn]] void fail(const std::string& where, const std::string& why) const {
        throw Error(name + ": " + where + ": " + why);
    }
    Id group(hid_t loc, const std::string& path) const {
        if (H5Lexists(loc, path.c_str(), H5P_DEFAULT) <= 0) fail(path, "missing group");
        Id g(H5Gopen2(loc, path.c_str(), H5P_DEFAULT), H5Gclose);
        if (!g.ok()) fail(path, "not a readable group");
        return g;
    }
    bool has_attr(hid_t loc, const char* attr) const { return H5Aexists(loc, attr) > 0; }
    // An attribute of `n` elements (n 0: scalar or one element) of the given class.
    Id attr(hid_t loc, const std::string& where, const char* a, H5T_class_t cls, hsize_t n) const {
        const std::string at = where + "[" + a + "]";
        if (!has_attr(loc, a)) fail(at, "missing attribute");
        Id id(H5Aopen(loc, a, H5P_DEFAULT), H5Aclose);
        if (!id.ok()) fail(at, "unreadable attribute");
        Id type(H5Aget_type(id.get()), H5Tclose);
        if (H5Tget_class(type.get()) != cls)
            fail(at, cls == H5T_STRING ? "expected a string" : cls == H5T_FLOAT ? "expected a float" : "expected an integer");
        Id space(H5Aget_space(id.get()), H5Sclose);
        const hssize_t count = H5Sget_simple_extent_npoints(space.get());
        if (count != hssize_t(n == 0 ? 1 : n))
            fail(at, "expected " + std::to_string(n == 0 ? 1 : n) + " value(s), got " + std::to_string(count));
        return id;
    }
    double real(hid_t loc, const std::string& where, const char* a) const {
        Id id = attr(loc, where, a, H5T_FLOAT, 0);
        double v = 0;
        if (H5Aread(id.get(), H5T_NATIVE_DOUBLE, &v) < 0) fail(where + "[" + a + "]", "unreadable value");
        if (!std::isfinite(v)) fail(where + "[" + a + "]", "not a finite number");
        return v;
    }
    long long integer(hid_t loc, const std::string& where, const char* a, long long lo, long long hi) const {
        Id id = attr(loc, where, a, H5T_INTEGER, 0);
        int64_t v = 0;
        if (H5Aread(id.get(), H5T_NATIVE_INT64, &v) < 0) fail(where + "[" + a + "]", "unreadable value");
        if (v < lo || v > hi)
            fail(where + "[" + a + "]",
                 std::to_string(v) + " outside " + std::to_string(lo) + " to " + std::to_string(hi));
        return v;
    }
    std::vector<uint64_t> integers(hid_t loc, const std::string& where, const char* a, hsize_t n) const {
        Id id = attr(loc, where, a, H5T_INTEGER, n);
        std::vector<uint64_t> v(n);
        if (H5Aread(id.get(), H5T_NATIVE_UINT64, v.data()) < 0) fail(where + "[" + a + "]", "unreadable value");
        return v;
    }
    std::string text(hid_t loc, const std::string& where, const char* a) const {
        Id id = attr(loc, where, a, H5T_STRING, 0);
        Id type(H5Aget_type(id.get()), H5Tclose);
        if (H5Tis_variable_str(type.get()) != 0) fail(where + "[" + a + "]", "expected a fixed-length string");
        const std::size_t size = H5Tget_size(type.get());
        if (size == 0 || size > kMaxText) fail(where + "[" + a + "]", "string length out of range");
        std::string s(size, '\0');
        if (H5Aread(id.get(), type.get(), s.data()) < 0) fail(where + "[" + a + "]", "unreadable value");
        return s.substr(0, s.find('\0'));
    }
    // A float64-convertible dataset of shape (rows) or (rows, cols).
    std::vector<double> reals(hid_t loc, const std::string& where, const char* d, hsize_t rows,
                              hsize_t cols = 0) const {
        Id id = dataset(loc, where, d, H5T_FLOAT, rows, cols);
        std::vector<double> v(rows * (cols ? cols : 1));
        if (!v.empty() && H5Dread(id.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
            fail(where + "/" + d, "unreadable data (truncated file?)");
        for (std::size_t i = 0; i < v.size(); ++i)
            if (!std::isfinite(v[i])) fail(where + "/" + d, "value " + std::to_string(i) + " is not finite");
        return v;
    }
    std::vector<uint64_t> counts(hid_t loc, const std::string& where, const char* d, hsize_t rows) const {
        Id id = dataset(loc, where, d, H5T_INTEGER, rows, 0);
        std::vector<uint64_t> v(rows);
        if (!v.empty() && H5Dread(id.get(), H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
            fail(where + "/" + d, "unreadable data (truncated file?)");
        return v;
    }
    Id dataset(hid_t loc, const std::string& where, const char* d, H5T_class_t cls, hsize_t rows,
               hsize_t cols) const {
        const std::string at = where + "/" + d;
        if (H5Lexists(loc, d, H5P_DEFAULT) <= 0) fail(at, "missing dataset");
        Id id(H5Dopen2(loc, d, H5P_DEFAULT), H5Dclose);
        if (!id.ok()) fail(at, "not a readable dataset");
        Id type(H5Dget_type(id.get()), H5Tclose);
        if (H5Tget_class(type.get()) != cls) fail(at, cls == H5T_FLOAT ? "expected floats" : "expected integers");
        Id space(H5Dget_space(id.get()), H5Sclose);
        hsize_t dims[2] = {0, 0};
        const int rank = H5Sget_simple_extent_ndims(space.get());
        const int want_rank = cols ? 2 : 1;
        if (rank != want_rank) fail(at, "expected " + std::to_string(want_rank) + " dimension(s), got " + std::to_string(rank));
        H5Sget_simple_extent_dims(space.get(), dims, nullptr);
        if (dims[0] != rows || (cols && dims[1] != cols))
            fail(at, "expected shape (" + std::to_string(rows) + (cols ? ", " + std::to_string(cols) : "") +
                         "), got (" + std::to_string(dims[0]) + (cols ? ", " + std::to_string(dims[1]) : "") + ")");
        return id;
    }
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    if (s.empty()) return out;
    std::size_t b = 0;
    for (std::size_t e; (e = s.find(sep, b)) != std::string::npos; b = e + 1) out.push_back(s.substr(b, e - b));
    out.push_back(s.substr(b));
    return out;
}

void read_particles(const Reader& r, hid_t file, Snapshot& out) {
    Id h = r.group(file, "/Header");
    const auto count = r.integers(h.get(), "/Header", "NumPart_ThisFile", 6);
    for (int t = 0; t < 6; ++t)
        if (t != 1 && count[t] != 0)
            r.fail("/Header[NumPart_ThisFile]", "particle type " + std::to_string(t) + " has " +
                                                   std::to_string(count[t]) + " bodies; only PartType1 is read");
    const hsize_t n = count[1];
    if (n == 0 || n > kMaxBodies) r.fail("/Header[NumPart_ThisFile]", "PartType1 count " + std::to_string(n) + " outside 1 to 2^32");
    out.state.time = r.real(h.get(), "/Header", "Time");
    if (r.has_attr(h.get(), "GravitationalConstant")) out.info.G = r.real(h.get(), "/Header", "GravitationalConstant");
    if (r.has_attr(h.get(), "Softening")) out.info.eps = r.real(h.get(), "/Header", "Softening");
    if (r.has_attr(h.get(), "TimeStep")) out.info.dt = r.real(h.get(), "/Header", "TimeStep");
    if (r.has_attr(h.get(), "Scene")) out.info.scene = r.text(h.get(), "/Header", "Scene");
    Id p = r.group(file, "/PartType1");
    const auto x = r.reals(p.get(), "/PartType1", "Coordinates", n, 3);
    const auto v = r.reals(p.get(), "/PartType1", "Velocities", n, 3);
    const auto m = r.reals(p.get(), "/PartType1", "Masses", n);
    std::vector<uint64_t> g(n, 0);
    if (H5Lexists(p.get(), "GroupIDs", H5P_DEFAULT) > 0) g = r.counts(p.get(), "/PartType1", "GroupIDs", n);
    out.state.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (m[i] < 0) r.fail("/PartType1/Masses", "value " + std::to_string(i) + " is negative");
        if (g[i] > 0xffffffffu) r.fail("/PartType1/GroupIDs", "value " + std::to_string(i) + " above 2^32 - 1");
        out.state.pos_mass[i] = {x[3 * i], x[3 * i + 1], x[3 * i + 2], m[i]};
        out.state.vel[i] = {v[3 * i], v[3 * i + 1], v[3 * i + 2], 0.0};
        out.state.group[i] = static_cast<uint32_t>(g[i]);
    }
}

SimParams read_parameters(const Reader& r, hid_t loc) {
    const std::string at = "/Checkpoint/Parameters";
    Id g = r.group(loc, "Parameters");
    const hid_t h = g.get();
    SimParams p;
    p.dt = r.real(h, at, "dt"), p.eps = r.real(h, at, "eps"), p.G = r.real(h, at, "G"), p.eta = r.real(h, at, "eta");
    p.steps_per_frame = int(r.integer(h, at, "steps_per_frame", 1, 10000));
    p.kernel_auto = r.integer(h, at, "kernel_auto", 0, 1) != 0;
    p.shape.k = int(r.integer(h, at, "shape_k", 0, 1024)), p.shape.u = int(r.integer(h, at, "shape_u", 0, 1024));
    p.shape.block = int(r.integer(h, at, "shape_block", 0, 1024));
    p.shape.q = int(r.integer(h, at, "shape_q", 0, 1024)), p.shape.s = int(r.integer(h, at, "shape_s", 0, 1 << 20));
    p.gpus = int(r.integer(h, at, "gpus", 0, kMaxGpus));
    p.cpu_threads = int(r.integer(h, at, "cpu_threads", 0, 1 << 20));
    const std::string b = r.text(h, at, "backend"), v = r.text(h, at, "variant");
    const std::string pr = r.text(h, at, "precision"), in = r.text(h, at, "integrator");
    const auto bk = parse_backend_kind(b);
    const auto vk = parse_variant(v);
    const auto pk = parse_precision(pr);
    const auto ik = parse_integrator(in);
    if (!bk) r.fail(at + "[backend]", "unknown backend '" + b + "'");
    if (!vk) r.fail(at + "[variant]", "unknown variant '" + v + "'");
    if (!pk) r.fail(at + "[precision]", "unknown precision '" + pr + "'");
    if (!ik) r.fail(at + "[integrator]", "unknown integrator '" + in + "'");
    p.backend = *bk, p.variant = *vk, p.precision = *pk, p.integrator = *ik;
    // The method and the registry's parameters: written since checkpoints of tree runs resume as such; an
    // older checkpoint without them ran direct summation at the defaults.
    if (r.has_attr(h, "method")) {
        const std::string m = r.text(h, at, "method");
        const auto mk = parse_method(m);
        if (!mk) r.fail(at + "[method]", "unknown method '" + m + "'");
        p.method = *mk;
    }
    if (r.has_attr(h, "open_all")) p.tree.open_all = r.integer(h, at, "open_all", 0, 1) != 0;
    for (const ParamSpec& spec : param_registry()) {
        if (spec.methods == 0) continue;  // the parameters every run reads are read above
        const std::string name(spec.name);
        if (!r.has_attr(h, name.c_str())) continue;
        const double value = r.real(h, at, name.c_str());
        if (const std::string why = param_problem(spec, value); !why.empty())
            r.fail(at + "[" + name + "]", why);
        spec.set(p, value);
    }
    try {
        validate(p);
    } catch (const ParamError& e) {
        r.fail(at + "[" + e.field + "]", std::string(e.what()).substr(e.field.size() + 2));
    }
    return p;
}

IntegratorState read_integrator(const Reader& r, hid_t loc, hsize_t n) {
    const std::string at = "/Checkpoint/Integrator";
    Id g = r.group(loc, "Integrator");
    IntegratorState st;
    st.backend = r.text(g.get(), at, "Backend");
    for (const std::string& a : split(r.text(g.get(), at, "ArrayNames"), ','))
        st.arrays.emplace_back(a, r.reals(g.get(), at, a.c_str(), n));
    for (const std::string& s : split(r.text(g.get(), at, "ScalarNames"), ','))
        st.scalars.emplace_back(s, r.real(g.get(), at, s.c_str()));
    return st;
}

Hdf5File read_file(hid_t file, const std::string& name) {
    const Reader r{name};
    Hdf5File out;
    read_particles(r, file, out.snapshot);
    if (H5Lexists(file, "Checkpoint", H5P_DEFAULT) <= 0) return out;
    Id c = r.group(file, "/Checkpoint");
    const std::string format = r.text(c.get(), "/Checkpoint", "Format");
    if (format != "nbody-sandbox checkpoint 1") r.fail("/Checkpoint[Format]", "unknown format '" + format + "'");
    Hdf5Checkpoint ck;
    ck.steps = r.integer(c.get(), "/Checkpoint", "Steps", 0, (1LL << 62));
    if (r.real(c.get(), "/Checkpoint", "Time") != out.snapshot.state.time)
        r.fail("/Checkpoint[Time]", "differs from /Header[Time]");
    ck.group_labels = split(r.text(c.get(), "/Checkpoint", "GroupLabels"), '\n');
    ck.params = read_parameters(r, c.get());
    if (H5Lexists(c.get(), "Integrator", H5P_DEFAULT) > 0)
        ck.integrator = read_integrator(r, c.get(), out.snapshot.state.size());
    out.checkpoint = std::move(ck);
    return out;
}

}  // namespace

Hdf5File read_hdf5(const std::string& path) {
    h5::quiet_errors();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + ": not a regular file (or it does not exist)");
    if (H5Fis_hdf5(path.c_str()) <= 0) throw Error(path + ": not an HDF5 file (or truncated before its superblock)");
    Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.ok()) throw Error(path + ": HDF5 cannot open it (truncated or corrupt)");
    return read_file(file.get(), path);
}

Hdf5File read_hdf5_image(const void* data, std::size_t size, const std::string& name) {
    h5::quiet_errors();
    Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    // The core driver on a copy of the image, nothing written back (backing_store 0).
    if (H5Pset_fapl_core(fapl.get(), 1 << 16, 0) < 0 || H5Pset_file_image(fapl.get(), const_cast<void*>(data), size) < 0)
        throw Error(name + ": HDF5 cannot take the file image");
    Id file(H5Fopen(name.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
    if (!file.ok()) throw Error(name + ": HDF5 cannot open it (truncated or corrupt)");
    return read_file(file.get(), name);
}

}  // namespace nbody
