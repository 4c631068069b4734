import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import ActorMVVMUI
import Observation
import Testing

/// A search screen's machine: three fields, one effect, one output.
struct Finder: StateMachine {
  struct State: Equatable, Sendable {
    var query = ""
    var results: [String] = []
    var isLoading = false
  }
  enum Input: Sendable {
    case queryChanged(String)
    case searchTapped
    case loaded([String])
    case resultsReplaced([String])
    case openTapped(String)
  }
  enum Output: Sendable, Equatable { case open(String) }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .queryChanged(let query):
      state.query = query
      return .none
    case .searchTapped:
      state.isLoading = true
      let query = state.query
      return .run { send in send(.loaded([query + "1", query + "2"])) }
    case .loaded(let results):
      state.isLoading = false
      state.results = results
      return .none
    case .resultsReplaced(let results):
      state.results = results
      return .none
    case .openTapped(let item):
      return .emit(.open(item))
    }
  }
}

/// Whether `apply` invalidated what `read` tracked.
@MainActor
final class Invalidations {
  var count = 0
  func track(_ read: @escaping @MainActor () -> Void) {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      MainActor.assumeIsolated { self?.count += 1 }
    }
  }
}

@MainActor
@Suite struct FeatureModelTests {
  @Test func aFieldReaderIsInvalidatedByItsFieldOnly() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let model = FeatureModel(feature)
    let queryReader = Invalidations()
    queryReader.track { _ = model.query }
    let resultsReader = Invalidations()
    resultsReader.track { _ = model.results }

    model.send(.resultsReplaced(["a"]))
    try await model.settled()
    #expect(model.results == ["a"])
    #expect(queryReader.count == 0, "only `results` changed")
    #expect(resultsReader.count == 1)

    model.send(.queryChanged("swift"))
    try await model.settled()
    #expect(model.query == "swift")
    #expect(queryReader.count == 1)
    #expect(resultsReader.count == 1, "already fired; not tracking any more")
    await feature.finish()
  }

  @Test func wholeStateReaderSeesEveryChange() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let model = FeatureModel(feature)
    let reader = Invalidations()
    reader.track { _ = model.state }
    model.send(.resultsReplaced(["a"]))
    try await model.settled()
    #expect(reader.count == 1)
    await feature.finish()
  }

  @Test func oneAppliedStatePerPublishedBatch() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let model = FeatureModel(feature)
    try await model.settled()
    let before = model.appliedStateCount
    model.send(.searchTapped)  // isLoading, then query-derived results and isLoading again
    await feature.flush()
    try await model.settled()
    #expect(model.results == ["1", "2"])
    #expect(model.isLoading == false)
    // At most two published states (loading; loaded), each applied once,
    // however many fields each changed; conflation may merge them.
    #expect((1...2).contains(model.appliedStateCount - before))
    await feature.finish()
  }

  @Test func outputsArriveOnceEachInOrderAfterTheirState() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let received = Locked<[String]>([])
    final class Seen { var queries: [String] = []; weak var model: FeatureModel<Finder>? }
    let seen = Seen()
    let model = FeatureModel(feature) { output in
      guard case .open(let item) = output else { return }
      received.withLock { $0.append(item) }
      seen.queries.append(seen.model?.query ?? "")
    }
    seen.model = model
    for item in ["a", "b", "c"] {
      model.send(.queryChanged(item))
      model.send(.openTapped(item))
    }
    try await model.settled()
    #expect(received.withLock { $0 } == ["a", "b", "c"])
    // Each output was handled with its state (or a later one) in the model.
    #expect(zip(seen.queries, ["a", "b", "c"]).allSatisfy { $0 >= $1 })
    await feature.finish()
    try await model.settled()
    #expect(received.withLock { $0.count } == 3)
  }

  @Test("init subscribes but starts no task; the first read starts it, and what came between is delivered")
  func initStartsNothing() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let received = Locked<[String]>([])
    let model = FeatureModel(feature) { output in
      if case .open(let item) = output { received.withLock { $0.append(item) } }
    }
    #expect(!model.isStarted)
    feature.send(.queryChanged("a"))  // to the feature, not through the model
    feature.send(.openTapped("a"))
    await feature.flush()
    #expect(!model.isStarted)
    #expect(received.withLock { $0 }.isEmpty)  // no task exists to deliver it
    _ = model.query  // the first read starts it
    #expect(model.isStarted)
    try await model.settled()
    #expect(received.withLock { $0 } == ["a"])
    #expect(model.query == "a")
    await feature.finish()
  }

  @Test("A model kept only for its outputs delivers them once start() is called", .timeLimit(.minutes(1)))
  func startForOutputsAlone() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let (delivered, continuation) = AsyncStream.makeStream(of: String.self)
    let model = FeatureModel(feature) { output in
      if case .open(let item) = output { continuation.yield(item) }
    }
    model.start()
    model.start()  // idempotent
    feature.send(.openTapped("x"))
    var iterator = delivered.makeAsyncIterator()
    #expect(await iterator.next() == "x")
    #expect(model.isStarted)
    await feature.finish()
  }

  @Test func bindingWritesAtOnceAndSendsItsInput() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let model = FeatureModel(feature)
    let query = model.binding(\.query, send: Finder.Input.queryChanged)
    query.wrappedValue = "sw"
    #expect(query.wrappedValue == "sw", "the control reads back what was typed")
    query.set("swift")
    try await model.settled()
    #expect(query.get() == "swift")
    #expect(await feature.state.query == "swift")
    await feature.finish()
  }

  @Test func caughtUpDoesNotWaitForEffects() async throws {
    let gate = TestGate()
    struct Waiting: StateMachine {
      let gate: TestGate
      typealias State = Int
      func reduce(into state: inout Int, _ input: Int) -> Effect<Int, Never> {
        state = input
        let gate = self.gate
        return input == 1
          ? .run { send in
            await gate.wait(); send(2)
          } : .none
      }
    }
    let feature = Feature(Waiting(gate: gate), initialState: 0)
    let model = FeatureModel(feature)
    model.send(1)
    await model.caughtUp()  // the effect is still waiting on its gate
    #expect(model.state == 1)
    gate.open()
    try await model.settled()
    #expect(model.state == 2)
    await feature.finish()
  }

  @Test func finishedFeatureKeepsItsFinalState() async throws {
    let feature = Feature(Finder(), initialState: .init())
    let model = FeatureModel(feature)
    model.send(.queryChanged("last"))
    await feature.finish()
    try await model.settled()
    #expect(model.query == "last")
  }

  @Test func releasedModelStopsFollowing() async throws {
    let feature = Feature(Finder(), initialState: .init())
    var model: FeatureModel<Finder>? = FeatureModel(feature)
    try await model?.settled()
    weak let released = model
    model = nil
    #expect(released == nil, "its tasks do not keep the model alive")
    await feature.finish()
  }
}
