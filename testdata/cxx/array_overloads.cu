// Overloads told apart by an array argument. `Sort(keys, values)` with two
// local arrays is the overload of two arrays; the IR has no types, and by
// argument count alone the keys-only `Sort(keys, begin_bit = 0, …)` (whose
// `int begin_bit` would take the array) and `Sort(keys, decomposer)` (whose
// template parameter takes anything) fit as well. Taking either made the
// radix passes' exit read the array's contents, different in each thread:
// a WL007 "lanes stop looping at different times" on every barrier of a
// correct sort (CUB's `BlockRadixSort(temp).Sort(keys, values)`; here on
// a declared object).
// strict: WL007

struct Bits {
  int lo;
  __device__ int end() const { return lo + 8; }
};

template <int Threads, int RadixBits>
struct BlockSorter {
  struct Scratch {
    int ranks[Threads];
  };
  Scratch& scratch;
  __device__ explicit BlockSorter(Scratch& s) : scratch(s) {}

  __device__ void Passes(int (&keys)[1], int (&values)[1], int begin_bit, int end_bit) {
    while (true) {
      scratch.ranks[threadIdx.x] = keys[0] >> begin_bit;
      __syncthreads();
      keys[0] = scratch.ranks[(threadIdx.x + 1) % Threads];
      values[0] += begin_bit;
      begin_bit += RadixBits;
      if (begin_bit >= end_bit) {
        break;
      }
      __syncthreads();
    }
  }

  __device__ void Sort(int (&keys)[1], int begin_bit = 0, int end_bit = 32) {
    int unused[1] = {0};
    Passes(keys, unused, begin_bit, end_bit);
  }

  template <typename Decomposer>
  __device__ void Sort(int (&keys)[1], Decomposer d) {
    int unused[1] = {0};
    Passes(keys, unused, d.lo, d.end());
  }

  __device__ void Sort(int (&keys)[1], int (&values)[1], int begin_bit = 0, int end_bit = 32) {
    Passes(keys, values, begin_bit, end_bit);
  }
};

// Every thread runs the same passes: clean.
__global__ void sort_pairs(int* k, int* v) {
  __shared__ BlockSorter<128, 4>::Scratch scratch;
  int keys[1] = {k[threadIdx.x]};
  int values[1] = {v[threadIdx.x]};
  BlockSorter<128, 4> sorter(scratch);
  sorter.Sort(keys, values);
  k[threadIdx.x] = keys[0];
  v[threadIdx.x] = values[0];
}

void launch_all(int* k, int* v) {
  sort_pairs<<<4, 128>>>(k, v);
}
