import ActorMVVM

// This target is built as a new Xcode 26 app is: MainActor by default
// (`.defaultIsolation(MainActor.self)`) with the approachable-concurrency
// features on (`NonisolatedNonsendingByDefault`, `InferIsolatedConformances`).
// Nothing here says `nonisolated` or `@MainActor`: what a team writes in such
// a project compiles against ActorMVVM as it is.

/// What the counter's API can fail with.
enum CounterError: Error, Equatable {
  case offline
}

/// The use case, as a protocol: the screen's effects call it off the main actor.
protocol CounterService: Sendable {
  func load() async throws(CounterError) -> Int
}

/// A counter that loads its start value, counts taps, and says when it reached a goal.
struct Counter: StateMachine {
  struct State: Equatable {
    var count = 0
    var isLoading = false
    var error: CounterError?
  }
  enum Input: Equatable {
    case appeared
    case loaded(Int)
    case failed(CounterError)
    case incrementTapped
    case countEdited(Int)
  }
  enum Output: Equatable {
    case reachedGoal(Int)
  }

  let service: any CounterService
  let goal: Int

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .appeared:
      state.isLoading = true
      state.error = nil
      let service = self.service
      return .run { (send) async throws(CounterError) in
        send(.loaded(try await service.load()))
      } catch: {
        .failed($0)
      }
    case .loaded(let count):
      state.isLoading = false
      state.count = count
      return .none
    case .failed(let error):
      state.isLoading = false
      state.error = error
      return .none
    case .incrementTapped:
      state.count += 1
      return state.count == goal ? .emit(.reachedGoal(goal)) : .none
    case .countEdited(let count):
      state.count = count
      return .none
    }
  }
}
