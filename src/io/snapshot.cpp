#include "io/snapshot.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/errors.hpp"

namespace nbody {

namespace {

constexpr const char* kColumns = "id,group,mass,x,y,z,vx,vy,vz";
constexpr const char* kColumnsNoGroup = "id,mass,x,y,z,vx,vy,vz";

[[noreturn]] void fail(const std::string& name, std::size_t line, const std::string& why) {
    throw Error(name + ":" + std::to_string(line) + ": " + why);
}

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Parses all of `field` as a finite double, or fails naming the column. strtod sets ERANGE both when a
// value overflows (it returns +-HUGE_VAL: refused, no double holds it) and when it underflows to a
// subnormal or to zero: those are accepted as the nearest double, because the writer's %.17g prints a
// subnormal velocity or position exactly and it must read back bit for bit (a float64 run can hold one:
// a symmetric scene's residual momentum, say). Such a value is harmless downstream: scene and command-line
// ranges exclude subnormals where they would mean something (dt, eps, G, masses of a component); a body's
// coordinate of 1e-310 is just a coordinate of 0 to float32.
double number(const std::string& field, const std::string& name, std::size_t line, const char* column) {
    const std::string t = trim(field);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(t.c_str(), &end);
    const bool overflow = errno == ERANGE && std::abs(v) > 1.0;
    if (t.empty() || end != t.c_str() + t.size() || overflow || !std::isfinite(v))
        fail(name, line, std::string("column '") + column + "': expected a finite number, got '" + t + "'");
    return v;
}

void read_header_line(const std::string& line, Snapshot& out, std::optional<std::size_t>& n,
                      const std::string& name, std::size_t line_no) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) return;  // a plain comment
    const std::string key = trim(line.substr(1, eq - 1)), value = trim(line.substr(eq + 1));
    if (key == "time")
        out.state.time = number(value, name, line_no, "time");
    else if (key == "G")
        out.info.G = number(value, name, line_no, "G");
    else if (key == "eps")
        out.info.eps = number(value, name, line_no, "eps");
    else if (key == "dt")
        out.info.dt = number(value, name, line_no, "dt");
    else if (key == "scene")
        out.info.scene = value;
    else if (key == "N") {
        const double v = number(value, name, line_no, "N");
        if (!(v >= 0 && v <= 1e15) || v != std::floor(v))
            fail(name, line_no, "N must be a whole number from 0 to 1e15, got '" + value + "'");
        n = static_cast<std::size_t>(v);
    }
}

}  // namespace

std::string snapshot_csv(const State& s, const SnapshotInfo& info) {
    std::string out = "# nbody-sandbox snapshot\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "# time = %.17g\n# N = %zu\n", s.time, s.size());
    out += buf;
    for (auto [key, v] : {std::pair{"G", info.G}, {"eps", info.eps}, {"dt", info.dt}})
        if (v) std::snprintf(buf, sizeof buf, "# %s = %.17g\n", key, *v), out += buf;
    if (!info.scene.empty()) out += "# scene = " + info.scene.substr(0, info.scene.find('\n')) + "\n";
    out += std::string(kColumns) + "\n";
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Double4 p = s.pos_mass[i], v = s.vel[i];
        std::snprintf(buf, sizeof buf, "%zu,%u,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", i, s.group[i],
                      p.w, p.x, p.y, p.z, v.x, v.y, v.z);
        out += buf;
    }
    return out;
}

void write_snapshot_csv(const State& s, const SnapshotInfo& info, const std::string& path) {
    std::ofstream f(path, std::ios::binary);
    f << snapshot_csv(s, info);
    if (!f) throw Error("cannot write the snapshot to '" + path + "'");
}

Snapshot parse_snapshot_csv(const std::string& text, const std::string& name) {
    Snapshot out;
    std::optional<std::size_t> n;
    bool columns_seen = false, with_group = true;
    std::istringstream in(text);
    std::string line;
    std::size_t line_no = 0;
    std::vector<std::string> f;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (trim(line).empty()) continue;
        if (line[0] == '#') {
            read_header_line(line, out, n, name, line_no);
            continue;
        }
        if (!columns_seen) {
            const std::string cols = trim(line);
            if (cols != kColumns && cols != kColumnsNoGroup)
                fail(name, line_no,
                     "expected the column line '" + std::string(kColumns) + "' (or '" + kColumnsNoGroup +
                         "'), got '" + cols + "'");
            with_group = cols == kColumns;
            columns_seen = true;
            continue;
        }
        f.clear();
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        const std::size_t want = with_group ? 9 : 8;
        if (f.size() != want)
            fail(name, line_no,
                 "expected " + std::to_string(want) + " comma-separated values, got " +
                     std::to_string(f.size()));
        const std::size_t i = out.state.size();
        if (number(f[0], name, line_no, "id") != double(i))
            fail(name, line_no,
                 "column 'id': expected " + std::to_string(i) + " (bodies in order), got '" + trim(f[0]) +
                     "'");
        std::size_t c = 1;
        double group = 0;
        if (with_group) {
            group = number(f[c++], name, line_no, "group");
            if (group < 0 || group > 4294967295.0 || group != std::floor(group))
                fail(name, line_no,
                     "column 'group': expected a whole number from 0, got '" + trim(f[1]) + "'");
        }
        static const char* kNames[] = {"mass", "x", "y", "z", "vx", "vy", "vz"};
        double v[7];
        for (int k = 0; k < 7; ++k) v[k] = number(f[c + k], name, line_no, kNames[k]);
        if (v[0] < 0) fail(name, line_no, "column 'mass': must be >= 0");
        out.state.pos_mass.push_back({v[1], v[2], v[3], v[0]});
        out.state.vel.push_back({v[4], v[5], v[6], 0.0});
        out.state.group.push_back(static_cast<uint32_t>(group));
    }
    if (!columns_seen) fail(name, line_no, "no column line: not an nbody-sandbox CSV snapshot");
    if (out.state.size() == 0) fail(name, line_no, "no bodies");
    if (n && *n != out.state.size())
        fail(name, line_no,
             "the header says N = " + std::to_string(*n) + " but there are " +
                 std::to_string(out.state.size()) + " bodies");
    return out;
}

Snapshot read_snapshot_csv(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw Error(path + ": not a regular file (or it does not exist)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open the snapshot");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_snapshot_csv(text.str(), path);
}

}  // namespace nbody
