#include "ui/ui_fonts.hpp"

#include <imgui.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

namespace nbody {

namespace fs = std::filesystem;

namespace {

// fc-match always answers (with a substitute when DejaVu is absent), so only a DejaVuSans file counts.
std::string fc_match_dejavu() {
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen("fc-match -f '%{file}' 'DejaVu Sans' 2>/dev/null", "r"),
                                            pclose);
    if (!p) return "";
    char buf[1024] = {};
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, p.get());
    const std::string file(buf, n);
    return fs::path(file).filename() == "DejaVuSans.ttf" ? file : "";
}

}  // namespace

bool looks_like_font_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char m[4] = {};
    if (!in.read(reinterpret_cast<char*>(m), 4)) return false;
    return std::memcmp(m, "\0\1\0\0", 4) == 0 || std::memcmp(m, "true", 4) == 0 ||
           std::memcmp(m, "OTTO", 4) == 0;
}

FontChoice find_ui_font() {
    FontChoice c;
    if (const char* env = std::getenv("NBODY_FONT"); env && *env) {
        if (looks_like_font_file(env)) return {env, "NBODY_FONT"};
        c.note = std::string("NBODY_FONT=") + env + ": not a readable TrueType/OpenType file; ";
    }
    for (const char* p :
         {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf",
          "/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/local/share/fonts/DejaVuSans.ttf"})
        if (looks_like_font_file(p)) return {p, c.note + "found"};
    if (const std::string f = fc_match_dejavu(); !f.empty() && looks_like_font_file(f))
        return {f, c.note + "found by fc-match"};
    c.note += "DejaVu Sans not found (apt install fonts-dejavu-core)";
    return c;
}

UiFonts build_ui_fonts(const FontChoice& choice, float scale) {
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    // The read-outs are digits and units: ASCII keeps the big size's atlas small. Constant data.
    static constexpr ImWchar kAscii[] = {0x0020, 0x007E, 0};
    auto px = [scale](float base, float factor) { return std::round(base * factor * scale); };
    UiFonts f;
    if (!choice.path.empty()) {
        atlas.Clear();
        ImFontConfig big;
        big.OversampleH = 1;  // at 44 px and up, horizontal oversampling buys nothing but atlas space
        f.regular = atlas.AddFontFromFileTTF(choice.path.c_str(), px(kUiFontPx, 1));
        f.large = atlas.AddFontFromFileTTF(choice.path.c_str(), px(kUiFontPx, 1.5f));
        f.huge = atlas.AddFontFromFileTTF(choice.path.c_str(), px(kUiFontPx, 2.75f), &big, kAscii);
        if (f.regular && f.large && f.huge && atlas.Build()) {
            f.regular_px = px(kUiFontPx, 1);
            const fs::path file(choice.path);
            const std::string name =
                file.filename() == "DejaVuSans.ttf" ? "DejaVu Sans" : file.stem().string();
            char size[32];
            std::snprintf(size, sizeof size, " %.0f px (", double(f.regular_px));
            f.status = name + size + choice.path + "; " + choice.note + ")";
            return f;
        }
    }
    atlas.Clear();
    ImFontConfig cfg;
    auto builtin = [&](float factor) {
        cfg.SizePixels = px(kBuiltinFontPx, factor);
        return atlas.AddFontDefault(&cfg);
    };
    f.regular = builtin(1), f.large = builtin(1.5f), f.huge = builtin(2.75f);
    atlas.Build();
    f.regular_px = px(kBuiltinFontPx, 1);
    char s[64];
    std::snprintf(s, sizeof s, "ImGui built-in %.0f px (", double(f.regular_px));
    f.status = s + (choice.path.empty() ? choice.note : choice.path + " did not load") + ")";
    return f;
}

}  // namespace nbody
