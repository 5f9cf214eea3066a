#include "scene/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace nbody {

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string fmt(double v) {
    return limits::format_number(v);
}
}  // namespace

std::string did_you_mean(std::string_view word, const std::set<std::string, std::less<>>& options) {
    std::string best;
    std::size_t best_d = 3;
    for (const auto& o : options) {
        const std::size_t d = edit_distance(word, o);
        if (d < best_d) best_d = d, best = o;
    }
    return best;
}

TomlReader::TomlReader(const toml::table& table, std::string file, std::string prefix)
    : m_table(table), m_file(std::move(file)), m_prefix(std::move(prefix)) {}

void TomlReader::fail(const toml::source_region& where, std::string_view key, const std::string& why) const {
    throw SceneError(m_file, static_cast<int>(where.begin.line), static_cast<int>(where.begin.column),
                     "field '" + m_prefix + std::string(key) + "': " + why);
}

void TomlReader::fail_table(const std::string& why) const {
    const auto& b = m_table.source().begin;
    throw SceneError(m_file, static_cast<int>(std::max<toml::source_index>(1, b.line)),
                     static_cast<int>(std::max<toml::source_index>(1, b.column)), why);
}

const toml::node* TomlReader::get(std::string_view key) {
    m_asked.emplace(key);
    return m_table.get(key);
}

double TomlReader::number(std::string_view key, double def, double lo, double hi) {
    const toml::node* n = get(key);
    if (!n) return def;
    if (!n->is_number()) fail(n->source(), key, "expected a number");
    const double v = n->value<double>().value_or(NAN);
    if (!(v >= lo && v <= hi))
        fail(n->source(), key, "must be from " + fmt(lo) + " to " + fmt(hi) + " (got " + fmt(v) + ")");
    if (limits::is_subnormal(v))  // only where the range includes 0: 0 or a normal number
        fail(n->source(), key,
             "must be 0 or from 2.2e-308 to " + fmt(hi) + " (got " + fmt(v) + ", a subnormal number)");
    return v;
}

std::string TomlReader::format(double v) {
    return fmt(v);
}

toml::source_region TomlReader::where(std::string_view key) const {
    const toml::node* n = m_table.get(key);
    return n ? n->source() : m_table.source();
}

long long TomlReader::integer(std::string_view key, long long def, long long lo, long long hi) {
    const toml::node* n = get(key);
    if (!n) return def;
    if (!n->is_integer()) fail(n->source(), key, "expected an integer");
    const long long v = n->value<long long>().value_or(0);
    if (v < lo || v > hi)
        fail(n->source(), key,
             "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + " (got " +
                 std::to_string(v) + ")");
    return v;
}

long long TomlReader::required_integer(std::string_view key, long long lo, long long hi) {
    if (!m_table.contains(key)) fail_table("missing required field '" + m_prefix + std::string(key) + "'");
    return integer(key, 0, lo, hi);
}

std::string TomlReader::string(std::string_view key, std::string def) {
    const toml::node* n = get(key);
    if (!n) return def;
    if (!n->is_string()) fail(n->source(), key, "expected a string");
    return n->value<std::string>().value_or(def);
}

std::string TomlReader::required_string(std::string_view key) {
    if (!m_table.contains(key)) fail_table("missing required field '" + m_prefix + std::string(key) + "'");
    return string(key, "");
}

const toml::array& TomlReader::numbers(const toml::node& n, std::string_view key, std::size_t count,
                                       std::string_view shape) const {
    const std::string expected = "expected an array of " + std::string(count == 2 ? "two" : "three") +
                                 " numbers " + std::string(shape);
    const toml::array* a = n.as_array();
    if (!a || a->size() != count) fail(n.source(), key, expected);
    for (const toml::node& e : *a)
        if (!e.is_number()) fail(e.source(), key, expected);
    return *a;
}

Double3 TomlReader::vec3(std::string_view key, Double3 def, double bound) {
    const toml::node* n = get(key);
    if (!n) return def;
    const toml::array& a = numbers(*n, key, 3, "[x, y, z]");
    double v[3];
    for (std::size_t i = 0; i < 3; ++i) {
        const toml::node& e = *a.get(i);
        v[i] = e.value<double>().value_or(NAN);
        if (!(std::abs(v[i]) <= bound))
            fail(e.source(), key,
                 "components must be from " + fmt(-bound) + " to " + fmt(bound) + " (got " + fmt(v[i]) + ")");
        if (limits::is_subnormal(v[i]))
            fail(e.source(), key,
                 "components must be 0 or from 2.2e-308 to " + fmt(bound) + " in size (got " + fmt(v[i]) +
                     ", a subnormal number)");
    }
    return {v[0], v[1], v[2]};
}

std::array<double, 2> TomlReader::size2(std::string_view key, std::array<double, 2> def, double lo,
                                        double hi) {
    const toml::node* n = get(key);
    if (!n) return def;
    const toml::array& a = numbers(*n, key, 2, "[width, height]");
    std::array<double, 2> v{};
    for (std::size_t i = 0; i < 2; ++i) {
        const toml::node& e = *a.get(i);
        v[i] = e.value<double>().value_or(NAN);
        if (!(v[i] >= lo && v[i] <= hi))
            fail(e.source(), key,
                 std::string(i == 0 ? "width" : "height") + " must be from " + fmt(lo) + " to " + fmt(hi) +
                     " (got " + fmt(v[i]) + ")");
    }
    return v;
}

Double3 TomlReader::direction(std::string_view key, Double3 def) {
    const Double3 v = vec3(key, def, limits::kMaxPosition);
    if (dot(v, v) < 1e-24) fail(m_table.get(key)->source(), key, "must be a non-zero direction [x, y, z]");
    return v;
}

bool TomlReader::boolean(std::string_view key, bool def) {
    const toml::node* n = get(key);
    if (!n) return def;
    if (!n->is_boolean()) fail(n->source(), key, "expected true or false");
    return n->value<bool>().value_or(def);
}

std::string TomlReader::choice(std::string_view key, const std::string& def,
                               const std::vector<std::string>& allowed, std::string_view noun) {
    const toml::node* n = m_table.get(key);
    const std::string v = string(key, def);
    if (!n || std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return v;
    std::string why = "unknown " + std::string(noun) + " '" + v + "'";
    if (auto s = did_you_mean(v, {allowed.begin(), allowed.end()}); !s.empty())
        why += " (did you mean '" + s + "'?)";
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(n->source(), key, why + "; allowed: " + list);
}

std::string TomlReader::required_choice(std::string_view key, const std::vector<std::string>& allowed,
                                        std::string_view noun) {
    if (!m_table.contains(key)) fail_table("missing required field '" + m_prefix + std::string(key) + "'");
    return choice(key, "", allowed, noun);
}

std::vector<std::string> TomlReader::strings(std::string_view key) {
    const toml::node* n = get(key);
    if (!n) fail_table("missing required field '" + m_prefix + std::string(key) + "'");
    const toml::array* a = n->as_array();
    if (!a || a->empty()) fail(n->source(), key, "expected an array of names [\"a\", \"b\", ...]");
    std::vector<std::string> out;
    for (const toml::node& e : *a) {
        if (!e.is_string()) fail(e.source(), key, "expected an array of names [\"a\", \"b\", ...]");
        out.push_back(e.value<std::string>().value_or(""));
    }
    return out;
}

const toml::table* TomlReader::table(std::string_view key) {
    const toml::node* n = get(key);
    if (!n) return nullptr;
    if (!n->is_table())
        fail(n->source(), key, "expected a table ([" + m_prefix + std::string(key) + "] or {...})");
    return n->as_table();
}

void TomlReader::finish() const {
    for (auto&& [k, node] : m_table) {
        if (m_asked.count(k.str())) continue;
        std::string why = "unknown key '" + std::string(k.str()) + "'";
        if (auto s = did_you_mean(k.str(), m_asked); !s.empty()) why += " (did you mean '" + s + "'?)";
        std::string allowed;
        for (const auto& a : m_asked) allowed += (allowed.empty() ? "" : ", ") + a;
        why += "; allowed here: " + allowed;
        const auto& b = k.source().begin;
        throw SceneError(m_file, static_cast<int>(b.line), static_cast<int>(b.column), why);
    }
}

}  // namespace nbody
