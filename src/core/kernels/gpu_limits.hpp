#pragma once
// What a GPU offers the kernels: its generation, SMs, what one SM and one block may hold, clock and fp64
// rate. Filled from the CUDA device (cuda/common/gpu_query.cu) or from a data sheet (gpu_classes(), so the
// launch rules and the shape model can be checked for GPUs this machine does not have). Plain C++: the host
// sees it.
#include <cstddef>
#include <string>
#include <vector>

namespace nbody {

struct FamilyInfo;   // core/kernels/kernel_family.hpp
struct KernelShape;  // core/kernels/kernel_config.hpp

struct GpuLimits {
    std::string name;
    int cc_major = 0, cc_minor = 0;    // compute capability: 7.5 Turing ... 12.0 consumer Blackwell
    int sms = 0;                       // multiprocessors
    int max_threads_per_sm = 0;        // 1,024 (Turing), 1,536 (GeForce Ampere to Blackwell), 2,048 (data centre)
    int regs_per_sm = 65536;           // 32-bit registers
    int shared_per_sm = 0;             // bytes of shared memory an SM holds for its blocks
    int shared_per_block_optin = 0;    // bytes one block may ask for, opted in (64 KiB on Turing, 99 KiB GeForce)
    double clock_ghz = 0;              // boost clock
    int fp32_per_fp64 = 2;             // fp32 over fp64 throughput: 2 on data-centre parts, 32 or 64 on GeForce
    std::size_t memory_bytes = 0;

    int cc() const { return cc_major * 10 + cc_minor; }
    std::string cc_text() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

// The GPU classes the rules and the model are checked against, from their published data: RTX 2080, RTX 3060,
// RTX 3090, RTX 4070, RTX 4090, A100, L4, H100, H200, B200, RTX 5090.
const std::vector<GpuLimits>& gpu_classes();

// Empty when family f with shape s can launch on g; otherwise why not, in words that name the GPU, what the
// family needs and what the GPU offers.
std::string gpu_refusal(const FamilyInfo& f, const KernelShape& s, const GpuLimits& g);

}  // namespace nbody
