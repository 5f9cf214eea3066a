# Every dependency comes from a Debian package (scripts/install-deps.sh); nothing is downloaded.
find_package(Threads REQUIRED)
find_package(glm REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(tomlplusplus REQUIRED)
