// The tuning table's text form: the parser (every line located in its errors; the fuzzers drive it) and the
// writer nbody-bench --tune uses. Rows keep interactions/s as measured (the evaluated interactions of the
// row's family); the choice (kernel_tuning.cpp) converts them to steps per second through the family's work.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/kernels/kernel_family.hpp"
#include "core/kernels/kernel_tuning.hpp"

namespace nbody {

std::string located_message(const std::string& name, int line, const std::string& why) {
    std::string s = name;
    if (line > 0) s.append(":").append(std::to_string(line));
    return s.append(": ").append(why);
}

// ---------------------------------------------------------------------------------------------------------
// Text form
// ---------------------------------------------------------------------------------------------------------

namespace {

constexpr std::size_t kMaxLine = 1000;
constexpr std::size_t kMaxName = 200;
constexpr std::size_t kMaxN = std::size_t{1} << 30;  // the CUDA backend's limit

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const std::size_t b = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > b) out.push_back(s.substr(b, i - b));
    }
    return out;
}

template <class T>
bool to_number(std::string_view s, T& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Reads the table line by line, remembering the line number for errors.
class TableParser {
  public:
    TableParser(std::string_view text, const std::string& name) : m_text(text), m_name(name) {}

    TuningTable run() {
        if (m_text.size() > kTuningFileMaxBytes)
            fail(0, "larger than " + std::to_string(kTuningFileMaxBytes) + " bytes: not a tuning table");
        TuningTable t;
        t.source = m_name;
        bool header = false, have_sms = false;
        std::string_view line;
        while (next(line)) {
            const auto space = line.find_first_of(" \t");
            const std::string_view key = line.substr(0, space);
            const std::string_view rest =
                space == std::string_view::npos ? std::string_view{} : trim(line.substr(space));
            if (!header) {
                version(key, rest);
                header = true;
            } else if (key == "row") {
                t.rows.push_back(row(rest));
            } else if (key == "gpu") {
                t.key.gpu = text_field(key, rest, t.key.gpu);
            } else if (key == "driver") {
                t.key.driver = text_field(key, rest, t.key.driver);
            } else if (key == "date") {
                t.date = text_field(key, rest, t.date);
            } else if (key == "sms") {
                if (have_sms) fail(m_line, "second 'sms' line");
                if (!to_number(rest, t.key.sms) || t.key.sms < 1 || t.key.sms > 100000)
                    fail(m_line, "sms: expected a multiprocessor count from 1 to 100000 (got '" +
                                     std::string(rest) + "')");
                have_sms = true;
            } else {
                fail(m_line,
                     "unknown key '" + std::string(key) + "' (expected gpu, sms, driver, date or row)");
            }
        }
        if (!header) fail(0, "empty: not a tuning table");
        if (t.key.gpu.empty()) fail(0, "no 'gpu' line");
        if (!have_sms) fail(0, "no 'sms' line");
        if (t.key.driver.empty()) fail(0, "no 'driver' line");
        if (t.rows.empty()) fail(0, "no rows");
        return t;
    }

  private:
    [[noreturn]] void fail(int line, const std::string& why) const {
        throw TuningFileError(m_name, line, why);
    }

    // The next line that is not blank or a comment, trimmed.
    bool next(std::string_view& out) {
        while (m_pos < m_text.size()) {
            const auto end = std::min(m_text.find('\n', m_pos), m_text.size());
            const std::string_view raw = m_text.substr(m_pos, end - m_pos);
            m_pos = end + 1;
            ++m_line;
            if (raw.size() > kMaxLine)
                fail(m_line, "line longer than " + std::to_string(kMaxLine) + " characters");
            for (const char ch : raw)
                if ((static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7f)
                    fail(m_line, "control character " + std::to_string(static_cast<unsigned char>(ch)));
            out = trim(raw);
            if (!out.empty() && out.front() != '#') return true;
        }
        return false;
    }

    void version(std::string_view key, std::string_view rest) const {
        int v = 0;
        if (key != "nbody-tuning" || !to_number(rest, v))
            fail(m_line, "not an nbody-sandbox tuning table (the first line must be 'nbody-tuning " +
                             std::to_string(kTuningFormatVersion) + "')");
        if (v != kTuningFormatVersion)
            fail(m_line, "format version " + std::to_string(v) + "; this program reads version " +
                             std::to_string(kTuningFormatVersion) + " (run nbody-bench --tune again)");
    }

    std::string text_field(std::string_view key, std::string_view rest, const std::string& old) const {
        const std::string k(key);
        if (!old.empty()) fail(m_line, "second '" + k + "' line");
        if (rest.empty()) fail(m_line, k + ": empty");
        if (rest.size() > kMaxName)
            fail(m_line, k + ": longer than " + std::to_string(kMaxName) + " characters");
        return std::string(rest);
    }

    // "precision n variant k u block q s rate spread"
    TuningRow row(std::string_view rest) const {
        const auto w = words(rest);
        if (w.size() != 10)
            fail(m_line,
                 "row: expected 10 fields (precision n variant k u block q s interactions/s spread), got " +
                     std::to_string(w.size()));
        TuningRow r;
        const auto p = parse_precision(w[0]);
        if (!p)
            fail(m_line, "row: precision must be " + joined_names(precision_table()) + " (got '" +
                             std::string(w[0]) + "')");
        r.precision = *p;
        if (!to_number(w[1], r.n) || r.n < 1 || r.n > kMaxN)
            fail(m_line, "row: n must be a whole number from 1 to " + std::to_string(kMaxN) + " (got '" +
                             std::string(w[1]) + "')");
        const auto v = parse_variant(w[2]);
        if (!v) fail(m_line, "row: unknown variant '" + std::string(w[2]) + "' (" + auto_choice_names() + ")");
        if (!variant_info(*v).auto_choice)  // not measured yet: the automatic choice stays with the others
            fail(m_line, "row: variant '" + std::string(variant_name(*v)) + "' is not chosen automatically yet (" +
                             auto_choice_names() + ")");
        r.variant = *v;
        int* fields[] = {&r.shape.k, &r.shape.u, &r.shape.block, &r.shape.q, &r.shape.s};
        const char* names[] = {"k", "u", "block", "q", "s"};
        for (int i = 0; i < 5; ++i)
            if (!to_number(w[3 + i], *fields[i]))
                fail(m_line, std::string("row: ") + names[i] + " must be a whole number (got '" +
                                 std::string(w[3 + i]) + "')");
        try {
            validate_shape(r.variant, r.shape);
        } catch (const ParamError& e) {
            fail(m_line, std::string("row: ") + e.what());
        }
        if (!to_number(w[8], r.rate) || !std::isfinite(r.rate) || r.rate <= 0 || r.rate > 1e18)
            fail(m_line,
                 "row: interactions/s must be a number in (0, 1e18] (got '" + std::string(w[8]) + "')");
        if (!to_number(w[9], r.spread) || !std::isfinite(r.spread) || r.spread < 0 || r.spread > 1000)
            fail(m_line, "row: spread must be a number in [0, 1000] (got '" + std::string(w[9]) + "')");
        return r;
    }

    std::string_view m_text;
    const std::string& m_name;
    std::size_t m_pos = 0;
    int m_line = 0;
};

}  // namespace

TuningTable parse_tuning_table(std::string_view text, const std::string& name) {
    return TableParser(text, name).run();
}

std::string format_tuning_table(const TuningTable& t) {
    std::string s =
        "# nbody-sandbox kernel tuning table, written by nbody-bench --tune and read by the CUDA backend's\n"
        "# automatic kernel choice (SimParams::kernel_auto). One row per measured kernel: precision, N,\n"
        "# variant, k, u, block, q (threads per body, 0 = automatic), s (j-splits over blocks, 0 = "
        "automatic,\n"
        "# 1 = none), interactions/s (median of the repeats), spread ((max - min) / median).\n";
    s += "nbody-tuning " + std::to_string(kTuningFormatVersion) + "\n";
    s += "gpu " + t.key.gpu + "\nsms " + std::to_string(t.key.sms) + "\ndriver " + t.key.driver + "\n";
    if (!t.date.empty()) s += "date " + t.date + "\n";
    s += "#   precision n variant k u block q s interactions/s spread\n";
    char buf[200];
    for (const TuningRow& r : t.rows) {
        std::snprintf(buf, sizeof buf, "row %s %zu %s %d %d %d %d %d %.6e %.4f\n",
                      std::string(precision_name(r.precision)).c_str(), r.n,
                      std::string(variant_name(r.variant)).c_str(), r.shape.k, r.shape.u, r.shape.block,
                      r.shape.q, r.shape.s, r.rate, r.spread);
        s += buf;
    }
    return s;
}

}  // namespace nbody
