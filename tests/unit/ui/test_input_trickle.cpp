// The window's input reaches ImGui without loss at any frame rate (ui/input_trickle.hpp): a value typed and
// applied with Return inside one slow frame is applied; a quick click inside one frame clicks; no event is
// dropped or reordered within the mouse or the keyboard. Through ImGui itself: tests/gl/test_input_feed.cpp.
#include <gtest/gtest.h>

#include <random>

#include "ui/input_events.hpp"
#include "ui/input_trickle.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
bool has(const std::vector<InputEvent>& f, K kind, int code, int action) {
    for (const InputEvent& e : f)
        if (e.kind == kind && e.button_or_key == code && e.action == action) return true;
    return false;
}
}  // namespace

TEST(InputTrickle, TypedTextAndReturnInOneFrameReachTheFieldWithReturnSeenDown) {
    InputTrickle t;
    t.add(typed("0.05"));
    const std::vector<InputEvent> first = t.next_frame();
    int chars = 0;
    for (const InputEvent& e : first) chars += e.kind == K::Char;
    EXPECT_EQ(chars, 4) << "the characters go in one frame";
    EXPECT_TRUE(has(first, K::Key, GLFW_KEY_ENTER, GLFW_PRESS));
    EXPECT_FALSE(has(first, K::Key, GLFW_KEY_ENTER, GLFW_RELEASE)) << "Return must be seen down for a frame";
    const std::vector<InputEvent> second = t.next_frame();
    EXPECT_TRUE(has(second, K::Key, GLFW_KEY_ENTER, GLFW_RELEASE));
    EXPECT_TRUE(t.empty());
}

TEST(InputTrickle, AQuickClickInOneFrameIsPressedAndReleasedWhereItHappened) {
    InputTrickle t;
    t.add({move(10, 10), button(GLFW_PRESS), button(GLFW_RELEASE), move(300, 200)});
    const auto f1 = t.next_frame(), f2 = t.next_frame(), f3 = t.next_frame();
    ASSERT_EQ(f1.size(), 2u);
    EXPECT_TRUE(has(f1, K::MouseButton, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS));
    ASSERT_EQ(f2.size(), 1u) << "the release waits a frame; the move away waits for it";
    EXPECT_TRUE(has(f2, K::MouseButton, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE));
    ASSERT_EQ(f3.size(), 1u);
    EXPECT_EQ(f3[0].x, 300);
}

TEST(InputTrickle, NothingIsLostOrReorderedAndNoFrameUndoesItsOwnPress) {
    std::mt19937 rng(7);
    std::vector<InputEvent> all;
    bool down = false;
    for (int i = 0; i < 2000; ++i) {
        switch (rng() % 4) {
            case 0: all.push_back(move(double(rng() % 640), double(rng() % 480))); break;
            case 1: all.push_back(button((down = !down) ? GLFW_PRESS : GLFW_RELEASE)); break;
            case 2: all.push_back(key(GLFW_KEY_BACKSPACE, GLFW_PRESS)), all.push_back(key(GLFW_KEY_BACKSPACE, GLFW_RELEASE)); break;
            default: for (const InputEvent& e : typed("1")) all.push_back(e); break;
        }
    }
    InputTrickle t;
    t.add(all);
    std::vector<InputEvent> out;
    int frames = 0;
    while (!t.empty() && frames < 100000) {
        const std::vector<InputEvent> f = t.next_frame();
        ASSERT_FALSE(f.empty()) << "a frame that takes nothing would stall the queue";
        int left = 0, enter = 0, backspace = 0;
        for (const InputEvent& e : f) {
            if (e.kind == K::MouseButton) ++left;
            if (e.kind == K::Key && e.button_or_key == GLFW_KEY_ENTER) ++enter;
            if (e.kind == K::Key && e.button_or_key == GLFW_KEY_BACKSPACE) ++backspace;
        }
        EXPECT_LE(left, 1);
        EXPECT_LE(enter, 1);
        EXPECT_LE(backspace, 1);
        out.insert(out.end(), f.begin(), f.end());
        ++frames;
    }
    ASSERT_EQ(out.size(), all.size());
    auto stream = [](const std::vector<InputEvent>& v, bool mouse) {
        std::vector<std::pair<int, int>> s;
        for (const InputEvent& e : v)
            if ((e.kind == K::MouseButton || e.kind == K::CursorMove) == mouse) s.push_back({e.button_or_key, e.action});
        return s;
    };
    EXPECT_EQ(stream(out, true), stream(all, true));
    EXPECT_EQ(stream(out, false), stream(all, false));
}
