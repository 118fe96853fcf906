const char *s = R"x(/* __shfl(v, 0) )x";
// __ballot(1) \
 continued
__device__ int h(int v) { return ::__any(v) + x.__all(v) + ns::__shfl(v, 0); }
