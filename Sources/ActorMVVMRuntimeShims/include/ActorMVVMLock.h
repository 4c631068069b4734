#ifndef ACTORMVVM_LOCK_H
#define ACTORMVVM_LOCK_H

#include <stdbool.h>
#include <stdint.h>

// The lock word under every `Locked` value on Linux: 0 free, 1 held,
// 2 held with (possibly) someone asleep on it (Drepper's "futexes are
// tricky", mutex 3). Four bytes beside the value it guards, where a
// `pthread_mutex_t` takes forty.
//
// The fast paths are `static inline`, so the Swift code that calls them
// compiles them into itself: one compare-and-swap to take the lock, one
// exchange to release it. The thread sanitizer instruments those atomics
// where they are inlined (acquire on taking, release on releasing), so it
// sees the order the lock imposes; the slow paths below are atomics too,
// and sleep in the kernel only between them.

/// Takes a held `word`: spins briefly (a hundred reads), then sleeps until
/// it is released and takes it (marked contended).
void actormvvm_lock_wait(uint32_t *word);
/// Wakes one sleeper on `word`.
void actormvvm_lock_wake(uint32_t *word);
/// Times the calling thread took the slow paths (went to sleep; woke a
/// sleeper), and the word's value now: for the test that proves them.
uint64_t actormvvm_lock_wait_count(void);
uint64_t actormvvm_lock_wake_count(void);
uint32_t actormvvm_lock_word(uint32_t *word);

static inline void actormvvm_lock(uint32_t *word) {
  uint32_t expected = 0;
  if (__builtin_expect(
        __atomic_compare_exchange_n(word, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
    return;
  }
  actormvvm_lock_wait(word);
}

static inline void actormvvm_unlock(uint32_t *word) {
  if (__builtin_expect(__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2, 0)) {
    actormvvm_lock_wake(word);
  }
}

#endif
