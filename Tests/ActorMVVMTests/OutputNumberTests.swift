import ActorMVVM
import Synchronization
import Testing

/// Emits an output for every input.
private struct Ponger: StateMachine {
  struct State: Equatable, Sendable { var count = 0 }
  enum Input: Sendable { case ping }
  enum Output: Sendable, Equatable { case pong }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    state.count += 1
    return .emit(.pong)
  }
}

/// `outputsWithCauses()`: an output's number and its delivery under one rule
/// (issue #61, item 1) — what `AppCoordinator` credits a step's cause by.
@Suite("Output numbers against a new subscription")
struct OutputNumberTests {
  @Test("While outputs stream, every new subscription's first output is numbered emittedBefore + 1: 500 subscriptions")
  func firstOutputFollowsEmittedBefore() async {
    let feature = Feature(Ponger(), initialState: .init())
    // Made once before the race, so each subscription below only registers.
    _ = feature.outputsWithCauses()
    let stop = Atomic(false)
    let sender = Task.detached {
      var sent = 0
      while !stop.load(ordering: .relaxed) {
        feature.send(.ping)
        sent += 1
        if sent % 32 == 0 { await Task.yield() }
      }
    }
    var wrong: [(emittedBefore: Int, first: Int)] = []
    for _ in 0..<500 {
      let (emittedBefore, values) = feature.outputsWithCauses()
      var iterator = values.makeAsyncIterator()
      guard let first = await iterator.next() else { break }
      if first.number != emittedBefore + 1 { wrong.append((emittedBefore, first.number)) }
    }
    stop.store(true, ordering: .relaxed)
    await sender.value
    await feature.finish()
    #expect(wrong.isEmpty, "\(wrong.count) of 500 subscriptions: \(wrong.prefix(5))")
  }
}
