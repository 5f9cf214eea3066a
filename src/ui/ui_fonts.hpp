#pragma once
// The panels' fonts: DejaVu Sans (Debian's fonts-dejavu-core, found at run time, never shipped) at a pixel
// size that follows the UI scale, so text stays sharp on a projector; ImGui's built-in font when DejaVu is
// not installed. Three sizes: the panels', the scene card's and the presentation read-out's.
#include <string>

struct ImFont;

namespace nbody {

inline constexpr float kUiFontPx = 16.0f;       // DejaVu Sans at UI scale 1 (its x-height reads like 13 px)
inline constexpr float kBuiltinFontPx = 13.0f;  // ImGui's bitmap font, drawn for 13 px

struct FontChoice {
    std::string path;  // empty: ImGui's built-in font
    std::string note;  // where it was found, or why none was ("NBODY_FONT=x: no such file")
};

// $NBODY_FONT when it names a readable TrueType/OpenType file; else DejaVuSans.ttf in the usual folders of
// Debian, Fedora and Arch; else what `fc-match 'DejaVu Sans'` names (only when that is DejaVu Sans, not a
// substitute). Empty path when none is found.
FontChoice find_ui_font();

// True when the file starts like a TrueType or OpenType font (stb_truetype asserts on anything else).
bool looks_like_font_file(const std::string& path);

struct UiFonts {
    ImFont* regular = nullptr;  // the panels
    ImFont* large = nullptr;    // the scene card (1.5x)
    ImFont* huge = nullptr;     // presentation read-outs (2.75x), ASCII only
    float regular_px = 0;
    std::string status;  // "DejaVu Sans 16 px (/usr/share/...)" or "ImGui built-in 13 px (...why)"
};

// Clears ImGui's font atlas and fills it with `choice` at `scale` (the built-in font when the file does not
// load), and builds it. The renderer backend's texture must be re-created afterwards.
UiFonts build_ui_fonts(const FontChoice& choice, float scale);

}  // namespace nbody
