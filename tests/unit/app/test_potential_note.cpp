// Colour by potential's note: what is shown at each size (the exact sum, the tree's estimate with its
// measured error, nothing and why), in the words the View panel and the legend show.
#include <gtest/gtest.h>

#include <string>

#include "app/potential_note.hpp"

using namespace nbody;

namespace {
bool says(const std::string& note, const std::string& words) {
    return note.find(words) != std::string::npos;
}
}  // namespace

TEST(PotentialNote, UpToTheExactLimitTheSumIsExact) {
    const std::string note = potential_note(7500);
    EXPECT_TRUE(says(note, "exact sum over every pair of the 7500 bodies")) << note;
    EXPECT_TRUE(says(note, "at most a quarter of the time")) << note;
    EXPECT_FALSE(says(note, "tree")) << note;
    EXPECT_TRUE(says(potential_note(potential_view::kExactMax), "exact sum")) << potential_note(16384);
    EXPECT_EQ(potential_note(0), "no bodies");
}

// Above the exact sum's limit the note says it is an estimate, by which method and angle, and the error
// tests/unit/cpu/tree/test_tree_potential.cpp measured (and asserts) against the exact sum.
TEST(PotentialNote, AboveItTheTreeEstimateSaysHowGood) {
    const std::string note = potential_note(potential_view::kExactMax + 1);
    EXPECT_TRUE(says(note, "tree estimate for the 16385 bodies")) << note;
    EXPECT_TRUE(says(note, "exact sum is made up to 16384")) << note;
    EXPECT_TRUE(says(note, "theta 0.6")) << note;
    EXPECT_TRUE(says(note, "median body's error is below 0.01%")) << note;
    EXPECT_TRUE(says(note, "largest below 0.1%")) << note;
    EXPECT_TRUE(says(note, "measured against the exact sum")) << note;
    EXPECT_FALSE(says(note, "exact sum over every pair")) << note;
    EXPECT_TRUE(says(potential_note(potential_view::kTreeMax), "tree estimate")) << note;
}

TEST(PotentialNote, AboveTheTreeLimitSaysWhyNothingIsShown) {
    const std::string note = potential_note(potential_view::kTreeMax + 1);
    EXPECT_TRUE(says(note, "not shown")) << note;
    EXPECT_TRUE(says(note, std::to_string(potential_view::kTreeMax + 1))) << note;
    EXPECT_TRUE(says(note, "component colours")) << note;
    EXPECT_TRUE(says(note, "about 8 s on two CPU cores")) << note;
}
