// What a memory-bound kernel can reach on this machine, without the JVM: up2x's traffic (read
// 2048 rows of 32768 floats of gradOut, write 2048 rows of 16384 of out, out[j] = g[2j] + g[2j+1]
// with AVX-512), on 2 threads, against memcpy of the same number of bytes; K rows interleaved per
// thread (a block of 4096 out elements of each row in turn, as the operator's tasks take blocks of
// 4096 inputs), and EXTRA more vector operations per 16 out elements (a permute, two multiplies, an
// add) to see whether compute hides under the memory time. Prints the best of 5 calls in ms, three times. See docs/PERFORMANCE.md, "Why the
// missed targets are missed".
//
//   gcc -O2 -mavx512f -o /tmp/streams bench/native/streams.c -lpthread && /tmp/streams 0 && /tmp/streams 3
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define ROWS 2048
#define RL 32768
#define BLK 4096

static float *src, *dst;
static int K, EXTRA;
typedef struct { int r0, r1; } range;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *kernel(void *p) {
    range *a = p;
    __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
    for (int r = a->r0; r < a->r1; r += K)
        for (int b = 0; b < RL; b += 2 * BLK)
            for (int k = 0; k < K && r + k < a->r1; k++) {
                float *s = src + (long) (r + k) * RL + b;
                float *d = dst + (long) (r + k) * (RL / 2) + b / 2;
                for (int j = 0; j < 2 * BLK; j += 32) {
                    __m512 x = _mm512_loadu_ps(s + j), y = _mm512_loadu_ps(s + j + 16);
                    __m512 e = _mm512_permutex2var_ps(x, even, y), o = _mm512_permutex2var_ps(x, odd, y);
                    __m512 acc = _mm512_add_ps(e, o);
                    for (int q = 0; q < EXTRA; q++) {
                        e = _mm512_permutexvar_ps(even, e);
                        o = _mm512_mul_ps(o, o);
                        acc = _mm512_add_ps(acc, _mm512_mul_ps(e, o));
                    }
                    _mm512_storeu_ps(d + j / 2, acc);
                }
            }
    return 0;
}

static void *copy(void *p) {
    range *a = p;  // (gradOut bytes + out bytes) / 2 of this thread's rows
    long bytes = (long) (a->r1 - a->r0) * RL * 4 * 3 / 4, at = (long) a->r0 * RL * 4 * 3 / 4;
    memcpy((char *) dst + at, (char *) src + at, bytes);
    return 0;
}

int main(int argc, char **argv) {
    EXTRA = argc > 1 ? atoi(argv[1]) : 0;
    size_t size = (size_t) ROWS * RL * 4;
    src = mmap(0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    dst = mmap(0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(src, size, MADV_HUGEPAGE);
    madvise(dst, size, MADV_HUGEPAGE);
    memset(src, 1, size);
    memset(dst, 1, size);
    int ks[] = {0, 1, 2, 4, 6, 8};  // 0: the copy
    printf("EXTRA=%d\n", EXTRA);
    for (int rep = 0; rep < 3; rep++) {
        for (int q = 0; q < 6; q++) {
            K = ks[q] == 0 ? 1 : ks[q];
            double best = 1e9;
            for (int it = 0; it < 5; it++) {
                pthread_t t[2];
                range a[2] = {{0, ROWS / 2}, {ROWS / 2, ROWS}};
                double s = now();
                for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, ks[q] == 0 ? copy : kernel, &a[i]);
                for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
                double took = now() - s;
                if (took < best) best = took;
            }
            if (ks[q] == 0) printf("copy %.2f ms", best * 1e3);
            else printf("  K=%d %.2f", K, best * 1e3);
        }
        printf("\n");
    }
    return 0;
}
