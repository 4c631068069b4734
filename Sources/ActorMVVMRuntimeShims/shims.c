#include "ActorMVVMRuntimeShims.h"

uint64_t actormvvm_subscriber_ids = 0;
uint64_t actormvvm_child_run_ids = 0;
bool actormvvm_cause_ever_used = false;
bool actormvvm_task_scope_ever_bound = false;

#include "ActorMVVMLock.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

// Per thread, so a test can tell its own threads' slow paths from others'.
static _Thread_local uint64_t lock_waits = 0;
static _Thread_local uint64_t lock_wakes = 0;

void actormvvm_lock_wait(uint32_t *word) {
  // The sections under these locks are a few dozen instructions: the
  // holder is almost always about to release, so a short spin (reading,
  // not writing, the word) usually takes the lock without a system call.
  for (int spin = 0; spin < 100; spin++) {
    uint32_t state = __atomic_load_n(word, __ATOMIC_RELAXED);
    if (state == 0) {
      uint32_t expected = 0;
      if (__atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    } else if (state == 2) {
      break;  // others sleep already: join them
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
  }
  lock_waits += 1;
  // Marked contended whoever held it, so its release wakes a sleeper; the
  // exchange that finds it free takes it (still marked: one spare wake at worst).
  while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) {
    // Returns at once if the word is no longer 2 (released meanwhile), or
    // when woken, or spuriously: each case retries the exchange.
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
  }
}

void actormvvm_lock_wake(uint32_t *word) {
  lock_wakes += 1;
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#else
#include <sched.h>

// Per thread, so a test can tell its own threads' slow paths from others'.
static _Thread_local uint64_t lock_waits = 0;
static _Thread_local uint64_t lock_wakes = 0;

// Elsewhere `Locked` uses a pthread mutex; this fallback only keeps the
// shim whole (it yields instead of sleeping).
void actormvvm_lock_wait(uint32_t *word) {
  lock_waits += 1;
  while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) { sched_yield(); }
}

void actormvvm_lock_wake(uint32_t *word) { lock_wakes += 1; }
#endif

uint64_t actormvvm_lock_wait_count(void) { return lock_waits; }
uint64_t actormvvm_lock_wake_count(void) { return lock_wakes; }

uint32_t actormvvm_lock_word(uint32_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
