import ActorMVVM

/// What the search API can fail with: the screen shows each one.
public enum SearchError: Error, Equatable, Sendable {
  case offline
  case server(status: Int)
}

/// A search screen: the query is debounced 300 ms on the injected clock, then
/// searched; a newer query cancels the pending one (latest wins: Rx's
/// `debounce` + `flatMapLatest`), with a loading flag and a typed error.
public struct Search: StateMachine {
  public struct State: Equatable, Sendable {
    public var query = ""
    public var results: [String] = []
    public var isLoading = false
    public var error: SearchError?
    public init() {}
  }
  public enum Input: Sendable, Equatable {
    case queryChanged(String)
    case loaded([String])
    case failed(SearchError)
    case resultTapped(String)
  }
  public enum Output: Sendable, Equatable { case open(String) }
  enum CancelID: Hashable, Sendable { case search }

  let clock: any Clock<Duration>
  let search: @Sendable (String) async throws(SearchError) -> [String]

  public init(clock: any Clock<Duration>, search: @escaping @Sendable (String) async throws(SearchError) -> [String]) {
    self.clock = clock
    self.search = search
  }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .queryChanged(let query):
      state.query = query
      state.error = nil
      guard !query.isEmpty else {
        state.isLoading = false
        state.results = []
        return .cancel(id: CancelID.search)
      }
      state.isLoading = true
      let (clock, search) = (self.clock, self.search)
      return .run(id: CancelID.search) { (send) async throws(SearchError) in
        do { try await clock.sleep(for: .milliseconds(300)) } catch { return }  // superseded while waiting
        send(.loaded(try await search(query)))
      } catch: {
        .failed($0)
      }
    case .loaded(let results):
      state.isLoading = false
      state.results = results
    case .failed(let error):
      state.isLoading = false
      state.error = error
    case .resultTapped(let item):
      return .emit(.open(item))
    }
    return .none
  }
}
