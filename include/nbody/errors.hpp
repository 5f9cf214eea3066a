#pragma once
// The errors the engine throws, part of the library's public API (installed as <nbody/errors.hpp>): each
// carries where the problem came from, so its message names the file, line, field or call. Every one derives
// from nbody::Error, a std::runtime_error; catch that to catch them all.
#include <stdexcept>
#include <string>

namespace nbody {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A parameter outside its allowed range: "dt: must be from 1e-12 to 1e6 (got -0.1)". `field` is the name
// before the colon.
struct ParamError : Error {
    ParamError(std::string field_name, const std::string& why)
        : Error(field_name + ": " + why), field(std::move(field_name)) {}
    std::string field;
};

// A scene-file problem at file:line:column.
struct SceneError : Error {
    SceneError(std::string path, int line_no, int column_no, const std::string& why)
        : Error(path + ":" + std::to_string(line_no) + ":" + std::to_string(column_no) + ": " + why),
          file(std::move(path)),
          line(line_no),
          column(column_no) {}
    std::string file;
    int line, column;
};

// A backend could not be created or failed (no device, out of memory, launch failure).
struct BackendError : Error {
    using Error::Error;
};

}  // namespace nbody
