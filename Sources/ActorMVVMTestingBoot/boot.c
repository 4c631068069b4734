#include "ActorMVVMTestingBoot.h"

// Defined in ActorMVVMJobCount (Quiescence.swift, @_cdecl): replaces the
// runtime's main and default executors with the counting ones where this
// build has them (a no-op elsewhere).
extern void actormvvm_quiescence_install_at_load(void);
// Defined in ActorMVVMTesting (TestFailure.swift, @_cdecl): registers the
// XCTest observer that tells the tools' failures which case is running.
extern void actormvvm_testing_observe_xctest_at_load(void);

static int booted = 0;

// A test process links ActorMVVMTesting, and so this constructor, which runs
// when the process is loaded: before `main`, before the test runner or any
// task exists. Installing here is what makes the executor swap race-free
// (nothing can be reading the runtime's executor variables yet) and what
// makes every job of the process counted, the first test's included. The
// XCTest observer is registered here for the same reason: it sees the first
// case start.
__attribute__((constructor)) static void actormvvm_testing_boot(void) {
  actormvvm_quiescence_install_at_load();
  actormvvm_testing_observe_xctest_at_load();
  booted = 1;
}

int actormvvm_testing_booted(void) { return booted; }

