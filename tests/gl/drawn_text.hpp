#pragma once
// What a window shows, read back from its draw list: each glyph quad is matched to its font's glyph by the
// texture coordinates of its corner, so a test can ask whether a line is on screen inside the panel rather
// than only submitted (ImGui draws a line past a panel's bottom edge and lets the clip rectangle hide it).
// Spaces draw nothing, so the text comes back without them.
#include <imgui.h>
#include <imgui_internal.h>  // ImGuiWindow: its draw list and inner clip rectangle

#include <map>
#include <string>
#include <utility>

namespace nbody::test {

// The glyphs of a window that lie wholly inside its visible inner area (not under the title bar, not
// below its bottom edge), in drawing order, as UTF-8 without spaces.
inline std::string visible_text(const ImGuiWindow& w) {
    std::map<std::pair<float, float>, const ImFontGlyph*> by_corner;
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) by_corner.emplace(std::pair{g.U0, g.V0}, &g);
    const ImDrawList& dl = *w.DrawList;
    const ImRect clip = w.InnerClipRect;
    std::string out;
    // A glyph is four vertices: top-left, top-right, bottom-right, bottom-left (ImDrawList::PrimRectUV).
    for (int i = 0; i + 3 < dl.VtxBuffer.Size; ++i) {
        const ImDrawVert& a = dl.VtxBuffer[i];
        const auto it = by_corner.find({a.uv.x, a.uv.y});
        if (it == by_corner.end()) continue;
        const ImDrawVert& c = dl.VtxBuffer[i + 2];
        if (c.uv.x != it->second->U1 || c.uv.y != it->second->V1) continue;
        const bool inside = a.pos.x >= clip.Min.x - 0.5f && a.pos.y >= clip.Min.y - 0.5f &&
                            c.pos.x <= clip.Max.x + 0.5f && c.pos.y <= clip.Max.y + 0.5f;
        if (inside) {
            char utf8[5] = {};
            ImTextCharToUtf8(utf8, it->second->Codepoint);
            out += utf8;
        }
        i += 3;
    }
    return out;
}

inline std::string without_spaces(std::string s) {
    std::erase(s, ' ');
    return s;
}

}  // namespace nbody::test
