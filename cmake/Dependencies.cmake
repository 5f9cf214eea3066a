# Every dependency comes from a Debian package (scripts/install-deps.sh); nothing is downloaded.
find_package(Threads REQUIRED)
find_package(glm REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(tomlplusplus REQUIRED)

# The interactive sandbox: window, GL loader, GUI, screenshots.
find_package(glfw3 3.3 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
# Debian's 1.86 compiles the GLFW and OpenGL3 backends into libimgui.a; their headers sit apart.
find_path(NBODY_IMGUI_BACKENDS imgui_impl_glfw.h PATHS ${IMGUI_INCLUDE_DIRS} PATH_SUFFIXES backends imgui/backends
          REQUIRED)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
include(${CMAKE_CURRENT_LIST_DIR}/Glad.cmake)
