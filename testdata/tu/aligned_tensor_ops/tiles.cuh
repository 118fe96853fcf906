// Tensor-core helpers in the shape of a matmul library's header: each
// wraps one PTX instruction with the `.sync.aligned` qualifier, which
// requires every lane of the warp to execute it together.
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define TILES_HAVE_MMA
#endif

#define TILES_UNREACHABLE() __trap()

struct frag_a { int x[4]; };
struct frag_b { int x[2]; };
struct frag_c { float x[4]; };

// Loads a 16x16 fragment of halves from shared memory.
static __device__ __forceinline__ void load_frag(frag_a &t, const int *smem, int stride) {
#ifdef TILES_HAVE_MMA
    const int *p = smem + (threadIdx.x % 16) * stride + (threadIdx.x / 16) * 4;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(t.x[0]), "=r"(t.x[1]), "=r"(t.x[2]), "=r"(t.x[3])
                 : "l"(p));
#else
    TILES_UNREACHABLE();
#endif
}

// D = A * B + D on one warp.
static __device__ __forceinline__ void frag_mma(frag_c &d, const frag_a &a, const frag_b &b) {
#ifdef TILES_HAVE_MMA
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(d.x[0]), "+f"(d.x[1]), "+f"(d.x[2]), "+f"(d.x[3])
        : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]));
#else
    TILES_UNREACHABLE();
#endif
}
