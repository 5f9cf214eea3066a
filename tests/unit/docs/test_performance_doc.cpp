// docs/performance.md stays a page of tables to read at a glance: no cell longer than 300 characters (the
// longer prose lives in docs/bench/, linked from the cell) and every date absolute (a "this morning" or
// "today's" is wrong the day after it is written).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kMaxCellChars = 300;

// Characters, not bytes: an en dash is three bytes of UTF-8 and one character.
std::size_t characters(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The cells of a table row: split at each | outside `code` spans and not escaped (\|).
std::vector<std::string> cells_of(const std::string& row) {
    std::vector<std::string> cells;
    std::string cell;
    bool code = false;
    for (std::size_t k = 0; k < row.size(); ++k) {
        const char c = row[k];
        if (c == '\\' && k + 1 < row.size()) {
            cell += row.substr(k, 2);
            ++k;
        } else if (c == '`') {
            code = !code;
            cell += c;
        } else if (c == '|' && !code) {
            cells.push_back(trimmed(cell));
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells.push_back(trimmed(cell));
    return cells;
}

// "line 12: 345 characters" for each table cell over the limit.
std::vector<std::string> long_cells(const std::string& markdown) {
    std::vector<std::string> found;
    std::istringstream in(markdown);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (trimmed(line).rfind('|', 0) != 0) continue;
        for (const std::string& cell : cells_of(trimmed(line)))
            if (characters(cell) > kMaxCellChars)
                found.push_back("line " + std::to_string(n) + ": " + std::to_string(characters(cell)) +
                                " characters: " + cell.substr(0, 60));
    }
    return found;
}

// "line 3: today" for each word that dates a figure relative to when it was written.
std::vector<std::string> relative_dates(const std::string& markdown) {
    static const std::regex relative(
        R"(\b(today|tonight|yesterday|tomorrow|this (morning|afternoon|evening|week)|last (night|week)|later|)"
        R"(earlier|recently|so far|the code now)\b)",
        std::regex::icase);
    std::vector<std::string> found;
    std::istringstream in(markdown);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        for (std::sregex_iterator m(line.begin(), line.end(), relative), end; m != end; ++m)
            found.push_back("line " + std::to_string(n) + ": " + m->str());
    return found;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

}  // namespace

TEST(PerformanceDoc, TheChecksFindLongCellsAndRelativeDates) {
    const std::string long_text(kMaxCellChars + 1, 'x');
    const std::string page = "# t\n\n| a | b |\n|---|---|\n| `x | y` | " + long_text + " |\n| ok | " +
                             std::string(kMaxCellChars, 'y') + " |\nMeasured this morning; today's run, a later call.\n";
    const std::vector<std::string> cells = long_cells(page);
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].rfind("line 5: 301 characters", 0), 0u) << cells[0];
    const std::vector<std::string> dates = relative_dates(page);
    ASSERT_EQ(dates.size(), 3u);
    EXPECT_EQ(dates[0], "line 7: this morning");
    EXPECT_EQ(dates[1], "line 7: today");
    EXPECT_EQ(dates[2], "line 7: later");
    EXPECT_TRUE(relative_dates("2026-11-28, H200, N = 131,072: translated, collateral").empty());
    EXPECT_EQ(characters("Milky Way\xE2\x80\x93" "Andromeda"), 19u);
}

TEST(PerformanceDoc, CellsAreShortAndDatesAbsolute) {
    const std::string page = read_file(std::string(NBODY_SOURCE_DIR) + "/docs/performance.md");
    ASSERT_FALSE(page.empty()) << "docs/performance.md not found";
    for (const std::string& cell : long_cells(page))
        ADD_FAILURE() << "docs/performance.md " << cell << " (over " << kMaxCellChars
                      << "; move the prose to docs/bench/ and link it)";
    for (const std::string& word : relative_dates(page))
        ADD_FAILURE() << "docs/performance.md " << word << " (write the date)";
}
