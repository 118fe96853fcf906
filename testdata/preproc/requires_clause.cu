// Concept-emulation macros in a template head, defined in a header this
// file does not include: `LIB_TEMPLATE(…)` opens the head, `LIB_REQUIRES(…)`
// constrains it, `LIB_TRAILING_REQUIRES(ret)(cond)` is a trailing return
// type with a constraint. The constraint only selects the overload.

LIB_TEMPLATE(class T)
LIB_REQUIRES(is_small_v<T> LIB_AND(!is_const_v<T>))
__device__ T half_warp_broadcast(T v) {
    if (threadIdx.x < 16) {
        v = __shfl_sync(0xffffffff, v, 0); // expect: WL002
    }
    return v;
}

LIB_TEMPLATE(class T)
LIB_REQUIRES((is_small_v<T> || is_enum_v<T>)
             && !is_const_v<T>)
__device__ T whole_warp_broadcast(T v) {
    // Every lane reaches the shuffle: clean.
    return __shfl_sync(0xffffffff, v, 0);
}

template <class T, LIB_REQUIRES(is_small_v<T>)>
__device__ T odd_lanes_sum(T v) {
    if (threadIdx.x & 1) {
        v += __shfl_xor_sync(0xffffffff, v, 2); // expect: WL002
    }
    return v;
}

template <class T>
__device__ auto lane_total(T v) LIB_TRAILING_REQUIRES(T)(is_small_v<T>) {
    if (threadIdx.x < 8) {
        return __reduce_add_sync(0xffffffff, v); // expect: WL002
    }
    return v;
}

template <class T>
__device__ auto all_lanes_total(T v) LIB_TRAILING_REQUIRES(T)(is_small_v<T>) {
    return __reduce_add_sync(0xffffffff, v);
}
