// A run of the sandbox program killed with SIGKILL after its first checkpoint and resumed from its last one
// ends bit-identical to the same run left alone (leap-frog and hermite-block on the CPU backend): the final
// checkpoints' integrator states, step counts and times are compared bit for bit.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "io/hdf5_snapshot.hpp"

using namespace nbody;
namespace fs = std::filesystem;

namespace {

pid_t spawn(std::vector<std::string> args) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDOUT_FILENO);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

int run(const std::vector<std::string>& args) {
    int status = 0;
    ::waitpid(spawn(args), &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct KillCase {
    std::vector<std::string> flags;  // integrator, dt, bodies, ...
    std::string t_end, every;
};

std::vector<std::string> command(const KillCase& c, const std::vector<std::string>& extra) {
    std::vector<std::string> a = {NBODY_SANDBOX_EXE, "--headless", "--quiet", "--no-diagnostics",
                                  "--backend", "cpu", "--threads", "2", "--t-end", c.t_end};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

void kill_and_resume(const std::string& name, const KillCase& c) {
    if (!hdf5_supported()) GTEST_SKIP() << "HDF5 support is not built";
    const fs::path dir = fs::temp_directory_path() / ("nbody_kill_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string scene = std::string(NBODY_SOURCE_DIR) + "/scenes/plummer.toml";
    auto with_scene = c.flags;
    with_scene.insert(with_scene.begin(), scene);

    // The run left alone: its final checkpoint is written at the end.
    auto whole = with_scene;
    whole.insert(whole.end(), {"--checkpoint", (dir / "whole.hdf5").string()});
    ASSERT_EQ(run(command(c, whole)), 0);

    // The same run, killed as soon as its first periodic checkpoint exists.
    const fs::path ck = dir / "ck.hdf5";
    auto killed = with_scene;
    killed.insert(killed.end(), {"--checkpoint", ck.string(), "--checkpoint-every", c.every});
    const pid_t pid = spawn(command(c, killed));
    const auto t0 = std::chrono::steady_clock::now();
    int status = 0;
    while (!fs::exists(ck) && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(120)) {
        if (::waitpid(pid, &status, WNOHANG) == pid)
            FAIL() << "the run ended (status " << status << ") before its first checkpoint";
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // past a few more checkpoints, maybe mid-write
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the run ended before the kill; make it longer";
    const Hdf5File at_kill = read_hdf5(ck.string());  // whole, whatever the moment of the kill
    ASSERT_TRUE(at_kill.checkpoint);
    EXPECT_LT(at_kill.snapshot.state.time, std::stod(c.t_end));

    // Resumed to the same end.
    const std::vector<std::string> resumed = {"--resume", ck.string(), "--checkpoint",
                                              (dir / "resumed.hdf5").string()};
    ASSERT_EQ(run(command(c, resumed)), 0);
    const Hdf5File a = read_hdf5((dir / "whole.hdf5").string());
    const Hdf5File b = read_hdf5((dir / "resumed.hdf5").string());
    ASSERT_TRUE(a.checkpoint && b.checkpoint && a.checkpoint->integrator && b.checkpoint->integrator);
    EXPECT_EQ(a.checkpoint->steps, b.checkpoint->steps);
    EXPECT_EQ(a.snapshot.state.time, b.snapshot.state.time);
    const auto& x = a.checkpoint->integrator->arrays;
    const auto& y = b.checkpoint->integrator->arrays;
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t k = 0; k < x.size(); ++k) {
        ASSERT_EQ(x[k].second.size(), y[k].second.size());
        EXPECT_EQ(0, std::memcmp(x[k].second.data(), y[k].second.data(), x[k].second.size() * sizeof(double)))
            << "array " << x[k].first << " differs after the resume";
    }
    std::printf("killed at t = %.6g (step %lld) of %s; resumed to step %lld: bit-identical\n",
                at_kill.snapshot.state.time, at_kill.checkpoint->steps, c.t_end.c_str(), b.checkpoint->steps);
    fs::remove_all(dir);
}

}  // namespace

TEST(CheckpointKill, LeapfrogResumesBitIdentical) {
    kill_and_resume("leapfrog", {{"--bodies", "512", "--integrator", "leapfrog", "--precision", "fp64",
                                  "--dt", "0.004", "--eps", "0.05"},
                                 "2", "0.02"});
}

TEST(CheckpointKill, HermiteBlockResumesBitIdentical) {
    kill_and_resume("hermite_block", {{"--bodies", "512", "--integrator", "hermite-block", "--precision", "ds",
                                       "--dt", "0.03125", "--eps", "0.05", "--eta", "0.02"},
                                      "2", "0.03125"});
}
