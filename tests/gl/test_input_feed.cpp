// The window's events through ImGui itself (ui/input_trickle.hpp feeding ui/imgui_input.hpp): a value typed
// and confirmed with Return inside one slow frame is applied. No GL needed; in the gl suite for ImGui's library.
#include <gtest/gtest.h>
#include <imgui.h>

#include "ui/imgui_input.hpp"
#include "../unit/ui/input_events.hpp"
#include "ui/input_trickle.hpp"

using namespace nbody;
using namespace nbody::test;


// Through ImGui itself: a number field with EnterReturnsTrue, as the Physics panel's dt. A click on it, "0.05"
// and Return all arrive inside one frame's events; the field applies 0.05 within a few frames.
TEST(ImGuiInput, ReturnTypedInsideOneSlowFrameAppliesTheField) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(640, 480);
    io.DeltaTime = 0.5f;  // 2 frames/s
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
    io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
    io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;

    InputTrickle queue;
    ImGuiInput input;
    double dt = 0.0078125, shown = dt;
    ImVec2 centre;
    auto frame = [&] {
        io.MousePos = ImVec2(0, 0);  // as the GLFW backend polls it (focused window)
        input.apply(queue.next_frame());
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::Begin("Physics");
        if (ImGui::InputDouble("dt", &shown, 0, 0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue)) dt = shown;
        centre = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                        (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
        ImGui::End();
        ImGui::Render();
    };
    frame();
    frame();
    // Click into the field and select all (Ctrl+A), type, Return: everything inside one slow frame.
    std::vector<InputEvent> burst = {move(centre.x, centre.y), button(GLFW_PRESS), button(GLFW_RELEASE),
                                     key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS), key(GLFW_KEY_A, GLFW_PRESS),
                                     key(GLFW_KEY_A, GLFW_RELEASE), key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE)};
    for (const InputEvent& e : typed("0.05")) burst.push_back(e);
    queue.add(burst);
    for (int i = 0; i < 10 && !queue.empty(); ++i) frame();
    frame();
    EXPECT_DOUBLE_EQ(dt, 0.05);
    ImGui::DestroyContext();
}
