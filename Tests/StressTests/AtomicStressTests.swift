import ActorMVVMSupport
import Testing

@testable import ActorMVVM

/// The runtime's own atomics (`AtomicWords`, the effect run token's
/// "returned" flag), hammered from many tasks: under the thread sanitizer
/// (`Scripts/stress.sh`) a plain access racing an atomic one is reported,
/// and the counts show whether an update was lost.
@Suite("Atomics stress")
struct AtomicStressTests {
  @Test("AtomicWords: 8 tasks × 20,000 adds on two words, none lost")
  func atomicWords() async {
    let words = AtomicWords.make(count: 2)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for _ in 0..<20_000 {
            words.addRelaxed(task % 2, 1)
            _ = words.loadAcquiring(1 - task % 2)
          }
        }
      }
    }
    #expect(words.loadSequential(0) == 80_000)
    #expect(words.loadSequential(1) == 80_000)
  }

  @Test("LifetimeCounters: features and effects counted from many tasks at once come back to zero")
  func counters() async {
    let counters = LifetimeCounters()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<10_000 {
            counters.effectCount.increment()
            counters.effectCount.decrement()
          }
        }
      }
    }
    #expect(counters.effects == 0)
  }

  @Test("An effect run's Send racing its return: every input lands as sent or late, none lost")
  func sendRacingReturn() async {
    let received = Locked((sent: 0, late: 0, ended: 0))
    for round in 0..<200 {
      let token = EffectRunToken<Int>.make(generation: UInt64(round)) { message in
        received.withLock { counts in
          switch message {
          case .sent: counts.sent += 1
          case .late: counts.late += 1
          case .ended: counts.ended += 1
          }
        }
      }
      await withTaskGroup(of: Void.self) { group in
        for n in 0..<4 { group.addTask { for _ in 0..<25 { token.send(n) } } }
        group.addTask { token.markReturned() }
      }
    }
    let counts = received.withLock { $0 }
    #expect(counts.sent + counts.late == 200 * 4 * 25)
  }
}
