// Lanes reaching matching primitives with different masks.
__global__ void split_syncwarp(int *data) {
    int lane = threadIdx.x & 31;
    if (lane < 16) {
        data[lane] += 1;
        __syncwarp(0x0000ffff);
    } else {
        data[lane] += 2;
        __syncwarp(0xffffffff); // expect: WL002
    }
}

__global__ void split_syncwarp_ok(int *data) {
    int lane = threadIdx.x & 31;
    if (lane < 16) {
        data[lane] += 1;
        __syncwarp(0x0000ffff);
    } else {
        data[lane] += 2;
        __syncwarp(0xffff0000);
    }
}

void launch(int *d) {
    split_syncwarp<<<1, 32>>>(d);
    split_syncwarp_ok<<<1, 32>>>(d);
}
