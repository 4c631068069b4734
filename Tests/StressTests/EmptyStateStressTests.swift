import ActorMVVM
import Testing

/// The minimal reproduction of the one thread-sanitizer report this
/// project has seen, a false positive: a `Feature` (a generic actor) whose
/// `State` is an empty struct, sent inputs from several tasks. Specialised
/// for the empty state, `reduce` modified the zero-sized stored state at
/// the actor's base address while `send(_:)` read the object header on
/// another thread. Run by `Scripts/stress.sh` under TSan: it halted there
/// with the state stored bare (checked on the commit before `StateSlot`);
/// `Feature` now stores it in a `StateSlot`, which has an address of its
/// own, and it passes with no suppression.
@Suite("Empty state under the thread sanitizer")
struct EmptyStateStressTests {
  struct Stateless: StateMachine {
    struct State: Equatable, Sendable {}
    enum Input: Sendable { case tap, tapped }
    enum Output: Sendable { case tapped }

    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
      switch input {
      case .tap: .run { send in send(.tapped) }
      case .tapped: .emit(.tapped)
      }
    }
  }

  @Test("A feature with an empty State: 8 senders × 1,000 taps, every output delivered")
  func emptyState() async {
    let feature = Feature(Stateless(), initialState: .init(), counters: LifetimeCounters())
    let outputs = feature.outputValues
    let states = feature.stateValues
    let reader = Task {
      var count = 0
      for await _ in outputs {
        count += 1
        if count == 8_000 { break }
      }
      return count
    }
    let stateReader = Task {
      var count = 0
      for await _ in states { count += 1 }
      return count
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<1_000 { feature.send(.tap) } }
      }
    }
    #expect(await reader.value == 8_000)
    await feature.finish()
    #expect(await stateReader.value == 1)  // an empty state never changes
  }
}
