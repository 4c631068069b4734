#ifndef BENCHMARK_SHIMS_H
#define BENCHMARK_SHIMS_H

#include <stdint.h>

/// Bytes of the heap in use, malloc's own chunk overhead included (glibc's
/// `mallinfo2().uordblks`), or -1 where the C library has no such count.
/// For the Benchmarks' memory rows: exact, where resident pages move in
/// steps of a page.
int64_t benchmark_heap_bytes_in_use(void);

#endif
