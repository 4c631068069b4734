import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMSupport
import Testing

/// The job count behind every virtual-time tool, under load and under the
/// thread sanitizer: jobs handed from the runtime's hook to Dispatch threads
/// (`Quiescence.Handoff`) must not race, and "idle" must never be declared
/// while any task is queued or running.
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

  @Test(
    "Idle is never declared while work is in flight: 200 rounds of tasks spawning tasks, hopping actors and the main actor, yielding, sleeping"
  )
  func idleMeansNothingRuns() async {
    #expect(Quiescence.install())
    #expect(Quiescence.wasInstalledAtLoad)
    let inFlight = InFlight()
    let tally = Tally()
    var spawned = 0
    for round in 0..<200 {
      let fanOut = 1 + round % 8
      for _ in 0..<fanOut {
        inFlight.begin()
        spawned += 1
        Task {
          // A child the test never awaits, and an actor hop.
          inFlight.begin()
          Task {
            await tally.add()
            inFlight.end()
          }
          inFlight.begin()
          Task { @MainActor in
            await Task.yield()
            inFlight.end()
          }
          await Task.yield()
          // A sleep due at once is counted at once. (A real-time sleep is a
          // pending timer, which idle does not wait for; JobCountTests covers it.)
          try? await Task.sleep(for: .zero)
          await tally.add()
          inFlight.end()
        }
      }
      #expect(await Quiescence.untilIdle() == .idle)
      #expect(inFlight.value == 0, "idle declared in round \(round)")
    }
    #expect(await tally.value == spawned * 2)
  }
}
