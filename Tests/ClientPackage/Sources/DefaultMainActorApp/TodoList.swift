import ActorMVVM

// A to-do list whose store is a plain class of this target: main-actor, as
// everything is under MainActor default isolation. Its effects call the store
// across the main actor, and a test's virtual time must wait for those calls.

/// The app's store of to-dos: main-actor (so `Sendable`), answers at once.
final class TodoStore {
  private(set) var titles: [String]

  init(titles: [String]) { self.titles = titles }

  /// The titles stored now.
  func load() async -> [String] { titles }

  /// Removes `title`; returns what is left.
  func remove(_ title: String) async -> [String] {
    titles.removeAll { $0 == title }
    return titles
  }
}

/// A list that refreshes from the store after a short delay, and deletes by position.
struct TodoList: StateMachine {
  struct State: Equatable {
    var titles: [String] = []
    var isLoading = false
    /// A delete that found nothing at its position.
    var missed: [Int] = []
  }
  enum Input: Equatable {
    case refresh
    case loaded([String])
    case delete(Int)
    case deleted([String])
  }
  typealias Output = Never

  let store: TodoStore
  let clock: any Clock<Duration>

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .refresh:
      state.isLoading = true
      let (store, clock) = (self.store, self.clock)
      return .run { send in
        try? await clock.sleep(for: .milliseconds(100))
        send(.loaded(await store.load()))
      }
    case .loaded(let titles):
      state.isLoading = false
      state.titles = titles
      return .none
    case .delete(let index):
      guard state.titles.indices.contains(index) else {
        state.missed.append(index)
        return .none
      }
      let (store, title) = (self.store, state.titles[index])
      return .run { send in send(.deleted(await store.remove(title))) }
    case .deleted(let titles):
      state.titles = titles
      return .none
    }
  }
}
