#pragma once
// Error types that carry where a problem came from, so a message names the file, line, field or call.
#include <stdexcept>
#include <string>

namespace nbody {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A parameter outside its allowed range: "dt: must be > 0 and finite (got -0.1)".
struct ParamError : Error {
    ParamError(std::string field_name, const std::string& why)
        : Error(field_name + ": " + why), field(std::move(field_name)) {}
    std::string field;
};

// A scene-file problem at file:line:column.
struct SceneError : Error {
    SceneError(std::string path, int line_no, int column_no, const std::string& why)
        : Error(path + ":" + std::to_string(line_no) + ":" + std::to_string(column_no) + ": " + why),
          file(std::move(path)), line(line_no), column(column_no) {}
    std::string file;
    int line, column;
};

// A backend could not be created or failed (no device, out of memory, launch failure).
struct BackendError : Error {
    using Error::Error;
};

}  // namespace nbody
