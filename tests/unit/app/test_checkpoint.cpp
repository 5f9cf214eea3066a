// HDF5 snapshots and checkpoints in-process: the GADGET layout round-trips every float64 bit, a CPU
// backend's exported state imports into a fresh backend that then steps bit-identically (leap-frog and
// Hermite, shared and block steps), and truncated, corrupt or half-written files give located errors and
// leave the previous checkpoint whole.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>

#include "app/checkpoint.hpp"
#include "app/options.hpp"
#include "cli_parse.hpp"  // parse(args): the real parser on an argument list
#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "cpu/cpu_backend.hpp"
#include "io/hdf5_snapshot.hpp"
#include "test_util.hpp"

using namespace nbody;
using nbody::test::plummer_state;
namespace fs = std::filesystem;

namespace {

#define NEED_HDF5() \
    if (!hdf5_supported()) GTEST_SKIP() << "HDF5 support is not built (install libhdf5-dev)"

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("nbody_ckpt_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

SimParams params_for(Integrator integrator, ForceMethod method = ForceMethod::Direct) {
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.integrator = integrator;
    p.method = method;
    p.precision = method == ForceMethod::Tree ? Precision::Fp32 : Precision::Fp64;
    p.tree.theta = 0.7f;  // not the default: the checkpoint must carry it
    p.tree.leaf = 16;
    p.dt = integrator_info(integrator).block_steps ? 1.0 / 32 : 1.0 / 256;
    p.eps = 0.05;
    p.eta = 0.02;
    p.cpu_threads = 2;
    return p;
}

// Runs `steps`, checkpoints through a file, runs `more` on the original and on a fresh backend resumed from
// the file, and compares every bit of their states.
void resume_is_exact(Integrator integrator, ForceMethod method = ForceMethod::Direct) {
    const fs::path dir = temp_dir(std::string(integrator_name(integrator)));
    const SimParams p = params_for(integrator, method);
    CpuBackend a(2);
    a.reset(plummer_state(200, 3), p);
    a.step(7);
    const std::string path = (dir / "ck.hdf5").string();
    write_hdf5(checkpoint_of(a, "test", {"cluster"}), path);
    const Hdf5File f = read_hdf5(path);
    ASSERT_TRUE(f.checkpoint && f.checkpoint->integrator);
    EXPECT_EQ(f.checkpoint->steps, 7);
    EXPECT_TRUE(same_params(f.checkpoint->params, p));
    EXPECT_EQ(f.checkpoint->group_labels, std::vector<std::string>{"cluster"});
    CpuBackend b(2);
    b.reset(f.snapshot.state, f.checkpoint->params);
    resume_backend(b, f);
    EXPECT_EQ(b.time(), a.time());
    a.step(9), b.step(9);
    IntegratorState sa, sb;
    a.export_state(sa), b.export_state(sb);
    test::expect_same_bits(sa, sb);
    EXPECT_EQ(a.steps_taken(), b.steps_taken());
    EXPECT_EQ(a.time(), b.time());
    fs::remove_all(dir);
}

// Reading `path` throws an Error whose message contains `where`.
void expect_read_error(const std::string& path, const std::string& where) {
    try {
        read_hdf5(path);
        ADD_FAILURE() << path << " was read; expected an error at '" << where << "'";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(Hdf5Snapshot, GadgetLayoutRoundTripsEveryBit) {
    NEED_HDF5();
    const fs::path dir = temp_dir("roundtrip");
    Hdf5File f;
    f.snapshot.state = plummer_state(100, 5);
    f.snapshot.state.time = 0.1 + 0.2;  // not a short decimal
    f.snapshot.state.vel[3].x = 4.9e-320;  // subnormal
    f.snapshot.state.group[7] = 3;
    f.snapshot.info = {1.0, 0.01, 1.0 / 3, "a scene"};
    write_hdf5(f, (dir / "s.hdf5").string());
    const Hdf5File g = read_hdf5((dir / "s.hdf5").string());
    EXPECT_FALSE(g.checkpoint);
    ASSERT_EQ(g.snapshot.state.size(), 100u);
    EXPECT_EQ(g.snapshot.state.time, f.snapshot.state.time);
    EXPECT_EQ(0, std::memcmp(g.snapshot.state.pos_mass.data(), f.snapshot.state.pos_mass.data(), 100 * 32));
    for (std::size_t i = 0; i < 100; ++i)
        EXPECT_EQ(std::memcmp(&g.snapshot.state.vel[i], &f.snapshot.state.vel[i], 24), 0) << i;
    EXPECT_EQ(g.snapshot.state.group, f.snapshot.state.group);
    EXPECT_EQ(*g.snapshot.info.dt, 1.0 / 3);
    EXPECT_EQ(g.snapshot.info.scene, "a scene");
    fs::remove_all(dir);
}

TEST(Hdf5Checkpoint, LeapfrogResumesBitForBit) {
    NEED_HDF5();
    resume_is_exact(Integrator::LeapFrog);
}

TEST(Hdf5Checkpoint, SharedHermiteResumesBitForBit) {
    NEED_HDF5();
    resume_is_exact(Integrator::Hermite);
}

TEST(Hdf5Checkpoint, BlockHermiteResumesBitForBit) {
    NEED_HDF5();
    resume_is_exact(Integrator::HermiteBlock);
}

TEST(Hdf5Checkpoint, SixthOrderHermiteResumesBitForBit) {
    NEED_HDF5();
    resume_is_exact(Integrator::Hermite6);
    resume_is_exact(Integrator::Hermite6Block);
}

TEST(Hdf5Checkpoint, BlockLeapfrogResumesBitForBit) {
    NEED_HDF5();
    resume_is_exact(Integrator::LeapFrogBlock);
}

// The method and its parameters travel in the checkpoint: a tree run resumes as the same tree run.
TEST(Hdf5Checkpoint, TreeRunsResumeBitForBit) {
    NEED_HDF5();
    resume_is_exact(Integrator::LeapFrog, ForceMethod::Tree);
    resume_is_exact(Integrator::LeapFrogBlock, ForceMethod::Tree);
}

// A checkpoint of a scene that is not shipped, resumed with the default scene loaded: the legend names its
// groups as the run that wrote it did, and nothing of the default scene (its galaxies, its file) stays.
TEST(Hdf5Checkpoint, ResumingKeepsTheLegendsNamesOfAnUnshippedScene) {
    NEED_HDF5();
    const fs::path dir = temp_dir("labels");
    CpuBackend a(1);
    a.reset(plummer_state(64, 5), params_for(Integrator::LeapFrog));
    a.step(3);
    const std::string path = (dir / "ck.hdf5").string();
    write_hdf5(checkpoint_of(a, "a scene of my own", {"stars", "gas"}), path);
    auto r = test::parse({"--resume", path});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    const RunSetup setup = prepare_run(std::get<AppOptions>(r));
    EXPECT_EQ(setup.scene.name, "a scene of my own");
    EXPECT_TRUE(setup.scene.components.empty() && setup.scene.source.empty()) << setup.scene.source;
    EXPECT_EQ(run_group_labels(setup), (std::vector<std::string>{"stars", "gas"}));
    fs::remove_all(dir);
}

TEST(Hdf5Checkpoint, TruncatedFileGivesALocatedError) {
    NEED_HDF5();
    const fs::path dir = temp_dir("truncated");
    CpuBackend a(1);
    a.reset(plummer_state(300, 2), params_for(Integrator::HermiteBlock));
    const std::string path = (dir / "ck.hdf5").string(), cut = (dir / "cut.hdf5").string();
    write_hdf5(checkpoint_of(a, "t", {}), path);
    const auto size = fs::file_size(path);
    for (const double fraction : {0.9, 0.5, 0.2, 0.01}) {
        fs::copy_file(path, cut, fs::copy_options::overwrite_existing);
        fs::resize_file(cut, static_cast<std::uintmax_t>(double(size) * fraction));
        expect_read_error(cut, cut + ": ");  // the message starts with the file
    }
    fs::remove_all(dir);
}

TEST(Hdf5Checkpoint, CorruptContentNamesTheObject) {
    NEED_HDF5();
    const fs::path dir = temp_dir("corrupt");
    CpuBackend a(1);
    a.reset(plummer_state(50, 2), params_for(Integrator::HermiteBlock));
    Hdf5File f = checkpoint_of(a, "t", {});
    f.checkpoint->integrator->arrays[3].second.pop_back();  // "vx" one short
    const std::string path = (dir / "bad.hdf5").string();
    write_hdf5(f, path);
    expect_read_error(path, path + ": /Checkpoint/Integrator/vx: expected shape (50), got (49)");
    f = checkpoint_of(a, "t", {});
    f.checkpoint->params.eta = 7;  // outside (0, 1]
    write_hdf5(f, path);
    expect_read_error(path, path + ": /Checkpoint/Parameters[eta]: ");
    std::ofstream(dir / "text.hdf5") << "id,mass,x,y,z,vx,vy,vz\n";
    EXPECT_THROW(read_hdf5((dir / "text.hdf5").string()), Error);
    fs::remove_all(dir);
}

TEST(Hdf5Checkpoint, AFailedWriteKeepsThePreviousCheckpoint) {
    NEED_HDF5();
    const fs::path dir = temp_dir("keep");
    CpuBackend a(1);
    a.reset(plummer_state(64, 2), params_for(Integrator::LeapFrog));
    const std::string path = (dir / "ck.hdf5").string();
    write_hdf5(checkpoint_of(a, "t", {}), path);
    std::ifstream in(path, std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(in)), {});
    a.step(3);
    Hdf5File f = checkpoint_of(a, "t", {});
    f.checkpoint->integrator->arrays.emplace_back("", std::vector<double>(64, 0.0));  // HDF5 refuses the name
    EXPECT_THROW(write_hdf5(f, path), Error);
    std::ifstream again(path, std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), {}), before);
    EXPECT_EQ(read_hdf5(path).checkpoint->steps, 0);
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
    EXPECT_EQ(files, 1) << "the temporary file was left behind";
    fs::remove_all(dir);
}

TEST(Hdf5Checkpoint, ImportRefusesAnotherBackendsState) {
    CpuBackend a(1);
    a.reset(plummer_state(20, 2), params_for(Integrator::HermiteBlock));
    IntegratorState st;
    a.export_state(st);
    st.backend = "cuda";
    EXPECT_THROW(a.import_state(st, a.params(), 0), Error);
    a.export_state(st);
    st.arrays.erase(st.arrays.begin() + 11);  // "jx"
    try {
        a.import_state(st, a.params(), 0);
        ADD_FAILURE() << "an integrator state without jx was imported";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("'jx' is missing"), std::string::npos) << e.what();
    }
}

// Every input that made fuzz_hdf5 fail replays cleanly (success or nbody::Error) through the same reader from
// memory, and the fuzz seeds (a snapshot and a block-step checkpoint the program wrote) read back.
TEST(Hdf5Fuzz, RegressionsEndCleanlyAndSeedsRead) {
    NEED_HDF5();
    auto bytes = [](const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), {});
    };
    int seen = 0;
    for (const auto& e : fs::directory_iterator(fs::path(NBODY_SOURCE_DIR) / "fuzz/regressions/fuzz_hdf5")) {
        const std::string b = bytes(e.path());
        try {
            read_hdf5_image(b.data(), b.size(), e.path().filename().string());
        } catch (const Error&) {
        }
        ++seen;
    }
    EXPECT_GE(seen, 1);
    const std::string s = bytes(fs::path(NBODY_SOURCE_DIR) / "fuzz/seeds/hdf5/plummer3_block_checkpoint.hdf5");
    const Hdf5File f = read_hdf5_image(s.data(), s.size(), "seed");
    ASSERT_TRUE(f.checkpoint && f.checkpoint->integrator);
    EXPECT_EQ(f.snapshot.state.size(), 3u);
    EXPECT_EQ(f.checkpoint->params.integrator, Integrator::HermiteBlock);
}
