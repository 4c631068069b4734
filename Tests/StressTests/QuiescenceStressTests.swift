import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMSupport
import Testing

/// The test bubble's job count under load and under the thread sanitizer:
/// "idle" must never be declared while any of the bubble's tasks is queued
/// or running — on its executor, on a default actor, or queued on the main
/// actor (barrier rounds) — however the work fans out.
@Suite("Quiescence stress")
struct QuiescenceStressTests {
  final class InFlight: Sendable {
    private let count = Locked(0)
    func begin() { count.withLock { $0 += 1 } }
    func end() { count.withLock { $0 -= 1 } }
    var value: Int { count.withLock { $0 } }
  }

  actor Tally {
    var value = 0
    func add() { value += 1 }
  }

  @MainActor
  static func yieldOnMainActor(then inFlight: InFlight) async {
    await Task.yield()
    inFlight.end()
  }

  @Test(
    "Idle is never declared while work is in flight: 200 rounds of bubble tasks spawning tasks, hopping actors and the main actor, yielding there, sleeping"
  )
  func idleMeansNothingRuns() async {
    let scope = ScopeExecutor()
    let inFlight = InFlight()
    let tally = Tally()
    var spawned = 0
    for round in 0..<200 {
      let fanOut = 1 + round % 8
      for _ in 0..<fanOut {
        inFlight.begin()
        spawned += 1
        Task(executorPreference: scope) {
          // A child the test never awaits, and an actor hop.
          inFlight.begin()
          Task(executorPreference: scope) {
            await tally.add()
            inFlight.end()
          }
          // A main-actor task that yields there once: its second job is
          // queued behind the first round's barrier.
          inFlight.begin()
          Task(executorPreference: scope) { await Self.yieldOnMainActor(then: inFlight) }
          await Task.yield()
          await tally.add()
          inFlight.end()
        }
      }
      #expect(await scope.untilIdle() == .idle)
      #expect(inFlight.value == 0, "idle declared in round \(round)")
    }
    #expect(await tally.value == spawned * 2)
  }
}
