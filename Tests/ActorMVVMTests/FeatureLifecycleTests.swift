import Testing

@testable import ActorMVVM

/// `FeatureLifecycle` transition by transition, synchronously: waiters are
/// plain strings, and nothing suspends.
@Suite("FeatureLifecycle: the feature's life as a pure state machine")
struct FeatureLifecycleTests {
  typealias Lifecycle = FeatureLifecycle<String>

  @Test("Running: idle waits only while effects are active and only for a caller outside the feature")
  func idleWhileRunning() {
    var lifecycle = Lifecycle()
    #expect(lifecycle.phase == .running && lifecycle.isRunning)
    #expect(lifecycle.idle(fromOwnTask: false, activeEffects: 0) == .returnNow)
    #expect(lifecycle.idle(fromOwnTask: false, activeEffects: 2) == .wait)
    #expect(lifecycle.idle(fromOwnTask: true, activeEffects: 2) == .returnNow)  // it would wait for itself
    lifecycle.waitForIdle("a")
    lifecycle.waitForIdle("b")
    #expect(lifecycle.drained(activeEffects: 1) == nil)  // still busy: nobody released
    #expect(lifecycle.drained(activeEffects: 0) == ["a", "b"])  // in the order they came
    #expect(lifecycle.drained(activeEffects: 0) == nil)  // each released once
    #expect(lifecycle.idleWaiters.isEmpty)
  }

  @Test("The first finish begins; others wait, except the feature's own task; finished releases all, finish first")
  func finishing() {
    var lifecycle = Lifecycle()
    lifecycle.waitForIdle("idle")
    #expect(lifecycle.finish(fromOwnTask: false) == .begin)
    #expect(lifecycle.phase == .finishing && !lifecycle.isRunning)
    #expect(lifecycle.finish(fromOwnTask: false) == .wait)
    lifecycle.waitForFinish("second finish")
    #expect(lifecycle.finish(fromOwnTask: true) == .returnNow)  // the finish is awaiting this very task
    #expect(lifecycle.idle(fromOwnTask: false, activeEffects: 3) == .returnNow)  // not running: nothing to wait for
    #expect(lifecycle.drained(activeEffects: 3) == nil)
    #expect(lifecycle.finished() == ["second finish", "idle"])
    #expect(lifecycle.phase == .finished)
    #expect(lifecycle.idleWaiters.isEmpty && lifecycle.finishWaiters.isEmpty)
  }

  @Test("Finished: every call returns at once, from anywhere")
  func finished() {
    var lifecycle = Lifecycle()
    #expect(lifecycle.finish(fromOwnTask: true) == .begin)  // a feature may finish itself from an effect
    #expect(lifecycle.finished().isEmpty)
    #expect(lifecycle.finish(fromOwnTask: false) == .returnNow)
    #expect(lifecycle.finish(fromOwnTask: true) == .returnNow)
    #expect(lifecycle.idle(fromOwnTask: false, activeEffects: 1) == .returnNow)
    #expect(lifecycle.phase == .finished)
  }
}
