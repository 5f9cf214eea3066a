#include "scene/scene_names.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "scene/scene_file.hpp"
#include "scene/toml_reader.hpp"  // did_you_mean

namespace nbody {

namespace fs = std::filesystem;

std::vector<std::string> scene_names(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".toml") out.push_back(e.path().stem().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<std::string> find_scene(const std::string& given, const std::string& dir) {
    std::error_code ec;
    if (given.empty()) return std::nullopt;
    if (fs::exists(given, ec) || given.find('/') != std::string::npos) return given;
    for (const std::string& name : {given, given + ".toml"}) {
        const fs::path shipped = fs::path(dir) / name;
        if (fs::is_regular_file(shipped, ec)) return shipped.string();
    }
    return std::nullopt;
}

std::optional<SceneSpec> shipped_scene_titled(const std::string& title, const std::string& dir) {
    if (title.empty()) return std::nullopt;
    for (const std::string& name : scene_names(dir)) {
        try {  // a file that does not load is not the one (the Scene panel says why it does not)
            SceneSpec s = load_scene_file((fs::path(dir) / (name + ".toml")).string());
            if (s.name == title) return s;
        } catch (const std::exception&) {
        }
    }
    return std::nullopt;
}

namespace {
std::string letters_and_digits(std::string_view s) {
    std::string out;
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c))) out += char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
// The shipped name closest to `given`: a small edit away ("cartweel"), else the one whose letters start with or
// hold the given ones ("milkyway" for milky-way-andromeda, "figure8" for figure8-3), the shortest such.
std::string closest_scene(const std::string& given, const std::vector<std::string>& names) {
    if (std::string close = did_you_mean(given, {names.begin(), names.end()}); !close.empty()) return close;
    const std::string g = letters_and_digits(given);
    if (g.size() < 3) return "";
    std::string best;
    for (const std::string& n : names)
        if (letters_and_digits(n).find(g) != std::string::npos && (best.empty() || n.size() < best.size())) best = n;
    return best;
}
}  // namespace

std::string unknown_scene_message(const std::string& given, const std::string& dir) {
    const std::vector<std::string> names = scene_names(dir);
    std::string text = "no scene file or shipped scene '" + given + "'";
    const std::string close = closest_scene(fs::path(given).stem().string(), names);
    if (!close.empty()) text += " (did you mean '" + close + "'?)";
    text += "; the shipped scenes: ";
    for (std::size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
    return names.empty() ? text + "none (" + dir + " has no .toml files)" : text;
}

}  // namespace nbody
