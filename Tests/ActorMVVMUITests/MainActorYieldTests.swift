import ActorMVVM
import ActorMVVMTesting
import Testing

@testable import ActorMVVMUI

/// What the runtime does on the main actor in a task with an executor
/// preference (a test bubble), and what FeatureModel does about it.
@MainActor
@Suite("The main actor in a test bubble", .timeLimit(.minutes(1)))
struct MainActorYieldTests {
  /// Set by a main-actor job enqueued before an `await`.
  final class Flag {
    var isSet = false
  }

  /// Whether a main-actor job enqueued just before
  /// `withCheckedContinuation` runs before its body does.
  func jobRunsBeforeTheBody() async -> Bool {
    let flag = Flag()
    Task { @MainActor in flag.isSet = true }
    return await withCheckedContinuation { $0.resume(returning: flag.isSet) }
  }

  @Test(
    "On this toolchain, an await from the main actor in a task with an executor preference lets main-actor jobs enqueued before it run first; without the preference it does not"
  )
  func theAwaitYieldsTheMainActor() async {
    #expect(await jobRunsBeforeTheBody() == false, "no preference: the body runs first")
    let yielded = await withTestBubble { await jobRunsBeforeTheBody() }
    #expect(yielded, "in a bubble the task is enqueued on the main actor again, behind the job")
  }

  @Test(
    "caughtUp()'s wait registers itself and re-checks in one step: a follower that settles the model as the wait begins wakes it"
  )
  func wakeUpAsTheWaitBegins() async {
    let feature = Feature(CodeEntry(), initialState: .init())
    let model = FeatureModel(feature)
    model.start()
    await withTestBubble {
      model.resyncs = 1  // a binding write the model has not caught up with
      // Each await below yields the main actor once: the call lets the first
      // job run, which enqueues the second; the wait's own await then lets
      // the second run — between the wait's check and its registration.
      Task { @MainActor in
        Task { @MainActor in
          model.resyncs = 0
          model.resumeSettledWaiters()
        }
      }
      await model.waitUntilCaughtUp()
    }
    #expect(model.isSettled)
    await feature.finish()
  }
}
