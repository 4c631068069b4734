#ifndef ACTORMVVM_ATOMICS_H
#define ACTORMVVM_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

// The runtime's atomics, in C: words kept in a `ManagedBuffer` element or a
// C global rather than in `Synchronization.Atomic` values, so one buffer
// holds several and a flag costs no allocation. Each is a compiler builtin on a word whose address is stable (a C global below, or
// an element of a `ManagedBuffer`), `static inline` so the Swift code that
// calls it compiles it into itself: the same instruction `Atomic` emits.
// The thread sanitizer instruments these where they are inlined.

// MARK: Words (an `AtomicWords` element)

static inline intptr_t actormvvm_word_load_relaxed(intptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_RELAXED);
}
static inline intptr_t actormvvm_word_load_acquire(intptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}
static inline intptr_t actormvvm_word_load_seq_cst(intptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}
static inline void actormvvm_word_store_release(intptr_t *word, intptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}
static inline void actormvvm_word_store_seq_cst(intptr_t *word, intptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
}
/// Adds `delta`; returns the new value.
static inline intptr_t actormvvm_word_add_relaxed(intptr_t *word, intptr_t delta) {
  return __atomic_add_fetch(word, delta, __ATOMIC_RELAXED);
}
static inline intptr_t actormvvm_word_add_release(intptr_t *word, intptr_t delta) {
  return __atomic_add_fetch(word, delta, __ATOMIC_RELEASE);
}
static inline intptr_t actormvvm_word_add_seq_cst(intptr_t *word, intptr_t delta) {
  return __atomic_add_fetch(word, delta, __ATOMIC_SEQ_CST);
}

// MARK: Process-wide counters and flags

/// Subscriber ids: unique in the process.
extern uint64_t actormvvm_subscriber_ids;
/// Ids for child runs without an id of their own: unique in the process.
extern uint64_t actormvvm_child_run_ids;
/// Set once any `Cause` has been made current: until then nothing looks one up.
extern bool actormvvm_cause_ever_used;

/// Set once any task scope has been bound (a test's job scope): until then
/// the runtime's tasks do not look one up.
extern bool actormvvm_task_scope_ever_bound;

static inline uint64_t actormvvm_next_subscriber_id(void) {
  return __atomic_add_fetch(&actormvvm_subscriber_ids, 1, __ATOMIC_RELAXED);
}
static inline uint64_t actormvvm_next_child_run_id(void) {
  return __atomic_add_fetch(&actormvvm_child_run_ids, 1, __ATOMIC_RELAXED);
}
static inline bool actormvvm_cause_is_ever_used(void) {
  return __atomic_load_n(&actormvvm_cause_ever_used, __ATOMIC_RELAXED);
}
static inline void actormvvm_cause_mark_used(void) {
  __atomic_store_n(&actormvvm_cause_ever_used, true, __ATOMIC_RELAXED);
}
static inline bool actormvvm_task_scope_is_ever_bound(void) {
  return __atomic_load_n(&actormvvm_task_scope_ever_bound, __ATOMIC_RELAXED);
}
static inline void actormvvm_task_scope_mark_bound(void) {
  __atomic_store_n(&actormvvm_task_scope_ever_bound, true, __ATOMIC_RELAXED);
}

#endif
