#include "core/backend/gpu_words.hpp"

#include "core/backend/backend_choice.hpp"

#include <sstream>
#include <vector>

namespace nbody {

namespace {

std::string cc_text(int cc) { return std::to_string(cc / 10) + "." + std::to_string(cc % 10); }

// "NVIDIA GeForce RTX 2080 (compute capability 7.5)", or "this GPU" where none could be asked.
std::string gpu_text(const CudaStartProblem& p) {
    if (p.gpu.empty()) return "this GPU";
    return p.gpu + (p.cc > 0 ? " (compute capability " + cc_text(p.cc) + ")" : std::string());
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, sep);)
        if (!part.empty()) out.push_back(part);
    return out;
}

std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

bool is_one_of(const std::string& e, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (e == n) return true;
    return false;
}

}  // namespace

std::string cuda_version_text(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string built_architectures_text(const std::string& cmake_list) {
    std::vector<std::string> sass, ptx;
    for (const std::string& a : split(cmake_list, cmake_list.find(';') != std::string::npos ? ';' : ',')) {
        const std::size_t dash = a.find('-');
        const std::string num = a.substr(0, dash), kind = dash == std::string::npos ? "" : a.substr(dash + 1);
        int cc = 0;
        try {
            cc = std::stoi(num);
        } catch (...) {
            return "the architectures " + cmake_list;  // "native", "all": as CMake was given them
        }
        if (kind != "virtual") sass.push_back(cc_text(cc) + " (sm_" + num + ")");
        if (kind != "real") ptx.push_back(cc_text(cc));
    }
    std::string out;
    if (!sass.empty()) out = "compute capability " + join(sass);
    if (!ptx.empty())
        out += (out.empty() ? "" : ", with ") + std::string("PTX for compute capability ") + join(ptx) +
               " that the driver compiles for newer GPUs";
    return out.empty() ? "no architecture" : out;
}

std::string cuda_start_words(const CudaStartProblem& p) {
    const std::string code = " (" + p.error + ")";
    const std::string gpu = gpu_text(p);
    const std::string runtime = p.runtime_cuda > 0 ? "CUDA " + cuda_version_text(p.runtime_cuda) : "its CUDA";
    const std::string driver =
        p.driver_cuda > 0 ? "the NVIDIA driver here supports CUDA " + cuda_version_text(p.driver_cuda)
                          : "no NVIDIA driver answered";
    if (p.cc > 0 && p.cc < 75)
        return "the " + gpu + " is older than Turing (compute capability 7.5), the oldest GPU this program and " +
               runtime + " support" + code;
    if (is_one_of(p.error, {"cudaErrorNoKernelImageForDevice", "cudaErrorInvalidKernelImage",
                            "cudaErrorInvalidDeviceFunction", "cudaErrorSharedObjectInitFailed",
                            "cudaErrorJitCompilationDisabled"})) {
        const std::string target = p.cc > 0 ? std::to_string(p.cc) : std::string("<your GPU's, e.g. 86>");
        return "the " + gpu + " has no GPU code in this program, which was built for " +
               built_architectures_text(p.built_archs) +
               ": rebuild it for this GPU with scripts/build.sh, which builds for the GPU it finds, or configure "
               "with -DNBODY_CUDA_ARCHS=" + target + " (or portable, for every GPU from Turing on)" + code;
    }
    if (p.error == "cudaErrorUnsupportedPtxVersion")
        return driver + ", older than the " + runtime + " compiler that made this program's GPU code for the " + gpu +
               ": update the NVIDIA driver, or rebuild with -DNBODY_CUDA_ARCHS=" +
               (p.cc > 0 ? std::to_string(p.cc) : std::string("<your GPU's>")) + " so the driver compiles nothing" +
               code;
    if (p.error == "cudaErrorInsufficientDriver" && p.driver_cuda == 0)
        return "no NVIDIA GPU driver was found (this machine has no NVIDIA GPU, or its driver is not installed)" +
               code;
    if (p.error == "cudaErrorInsufficientDriver")
        return driver + ", older than the " + runtime +
               " this program was built with: update the NVIDIA driver (CUDA 13 needs the 580 series or newer), "
               "or build the program with the CUDA toolkit that matches the driver" + code;
    if (is_one_of(p.error, {"cudaErrorNoDevice", "cudaErrorNoDevicesAvailable"}))
        return "no NVIDIA GPU was found" +
               std::string(p.error == "cudaErrorNoDevicesAvailable" ? " that is free to use (all are busy or in "
                                                                      "exclusive mode)"
                                                                    : "") +
               code;
    if (p.error == "cudaErrorMemoryAllocation")
        return "the " + gpu + " has too little free memory for this scene" + code;
    return "the NVIDIA driver could not start the " + gpu + code;
}

namespace {
std::string fallback_words(const std::string& why) {
    std::string w = why;
    const std::string flag = "--backend cuda: ";
    if (w.rfind(flag, 0) == 0) w.erase(0, flag.size());
    if (const auto k = w.find("; keeping the previous state"); k != std::string::npos) w.erase(k);
    return w;
}
}  // namespace

std::string cpu_fallback_note(const std::string& why) {
    return "no usable CUDA device (" + fallback_words(why) + "); falling back to the CPU backend";
}

BackendChoice cpu_fallback_choice(BackendKind asked, const std::string& why) {
    return {asked, BackendKind::Cpu, fallback_words(why), cpu_fallback_note(why), ""};
}

}  // namespace nbody
