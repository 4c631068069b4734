#include "BenchmarkShims.h"

#if defined(__GLIBC__)
#include <malloc.h>

int64_t benchmark_heap_bytes_in_use(void) { return (int64_t)mallinfo2().uordblks; }
#else
int64_t benchmark_heap_bytes_in_use(void) { return -1; }
#endif
