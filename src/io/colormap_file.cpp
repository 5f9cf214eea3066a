#include "io/colormap_file.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace nbody {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// The whitespace-separated words of one line, comment stripped.
std::vector<std::string_view> words(std::string_view line) {
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

// One component: all of `word` must be a number in [0, 1]; from_chars ignores the locale.
float component(std::string_view word, const std::string& where) {
    double v = 0;
    const char* end = word.data() + word.size();
    const auto [ptr, ec] = std::from_chars(word.data(), end, v);
    if (ec == std::errc::result_out_of_range)
        throw Error(where + ": '" + std::string(word) + "' is outside 0..1");
    if (ec != std::errc() || ptr != end) throw Error(where + ": '" + std::string(word) + "' is not a number");
    if (!std::isfinite(v) || v < 0 || v > 1)
        throw Error(where + ": '" + std::string(word) + "' is outside 0..1 (components are linear RGB)");
    return float(v);
}

}  // namespace

std::vector<RgbRow> parse_colormap(std::string_view text, const std::string& name) {
    std::vector<RgbRow> rows;
    int line_no = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        const std::string_view line = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++line_no;
        const std::vector<std::string_view> w = words(line);
        if (w.empty()) continue;
        const std::string where = name + ":" + std::to_string(line_no);
        if (w.size() != 3)
            throw Error(where + ": expected three numbers 'r g b' in 0..1, found " +
                        std::to_string(w.size()) + " words");
        if (rows.size() == kMaxColormapRows)
            throw Error(where + ": more than " + std::to_string(kMaxColormapRows) + " rows");
        rows.push_back({component(w[0], where), component(w[1], where), component(w[2], where)});
    }
    if (rows.size() < kMinColormapRows)
        throw Error(name + ": " + std::to_string(rows.size()) + " rows; a colour map needs at least " +
                    std::to_string(kMinColormapRows) + " ('r g b' lines)");
    return rows;
}

std::vector<RgbRow> read_colormap_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + ": cannot read (no such file)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot read");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_colormap(text.str(), path);
}

}  // namespace nbody
