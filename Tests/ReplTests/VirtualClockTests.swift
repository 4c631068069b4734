import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMSupport
import ActorMVVMTesting
import ReplCore
import Testing

/// The REPL's script clock runs on the test clock's engine: the same rules.
@Suite("VirtualClock shares TestClock's rules", .testBubble)
struct VirtualClockTests {
  @Test("Sleepers due at one instant wake in the order they began sleeping, each settled before the next")
  func sameInstantOrder() async {
    let clock = VirtualClock()
    let order = Locked<[String]>([])
    var tasks: [Task<Void, Never>] = []
    for name in ["b", "a", "c"] {
      tasks.append(
        TestBubble.task {
          try? await clock.sleep(until: .init(offset: .seconds(1)))
          for _ in 0..<5 { await Task.yield() }
          order.withLock { $0.append(name) }
        })
      #expect(await Quiescence.untilIdle() == .idle)  // this one is asleep before the next begins
    }
    #expect(clock.sleeperCount == 3)
    await clock.advance(to: .init(offset: .seconds(1)))
    #expect(order.withLock { $0 } == ["b", "a", "c"])
    #expect(clock.now == .init(offset: .seconds(1)))
  }

  @Test("A sleep cancelled before or after it parks throws at once and stops counting")
  func cancellation() async {
    let clock = VirtualClock()
    let sleeper = TestBubble.task { try await clock.sleep(until: .init(offset: .seconds(5))) }
    #expect(await Quiescence.untilIdle() == .idle)
    #expect(clock.sleeperCount == 1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }
}
