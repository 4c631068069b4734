import ActorMVVM
import ActorMVVMOperators

/// The shapes of RxSwift's own benchmark suite (`Tests/Benchmarks/Benchmarks.swift`
/// in ReactiveX/RxSwift), written with ActorMVVM: the same chains and the same
/// counts. *Pumping* sends `count` events through one chain; *creating* builds
/// `count` chains, feeds each one event and ends it.
///
/// Rx's `Observable.create` emits synchronously inside `subscribe`; the closest
/// ActorMVVM source is a relay subscribed before it is fed, so every workload
/// runs in one task: accept the events, finish, drain the chain. No producer
/// task races the consumer, so an instruction count is the same on every run.
/// Each workload returns the sum its subscriber saw, checked by the caller.
struct RxWorkload: Sendable {
  let name: String
  /// "event" (pumping) or "chain" (creating): what one unit of `count` is.
  let unit: String
  /// RxSwift's count for this workload (`iterations` = 10,000).
  let count: Int
  /// Whether a run over `count` saw the sum it should.
  let check: @Sendable (_ count: Int, _ sum: Int) -> Bool
  let run: @Sendable (Int) async -> Int
  /// The same work without ActorMVVM, where the standard library has one.
  let baseline: (@Sendable (Int) async -> Int)?
}

enum RxSuite {
  static let iterations = 10_000

  static let workloads: [RxWorkload] = [
    RxWorkload(
      name: "rx publish pumping", unit: "event", count: iterations * 100, check: { $1 == $0 },
      run: { count in await pumping(count) { $0 } },
      baseline: { count in await streamPumping(count) { $0 } }),
    RxWorkload(
      name: "rx publish pumping, two subscriptions", unit: "event", count: iterations * 100, check: { $1 == $0 * 2 },
      run: { count in await twoSubscriptions(count) }, baseline: nil),
    RxWorkload(
      name: "rx publish creating", unit: "chain", count: iterations * 10, check: { $1 == $0 },
      run: { count in await creating(count) { $0 } },
      baseline: { count in await streamCreating(count) { $0 } }),
    RxWorkload(
      name: "rx map+filter pumping", unit: "event", count: iterations * 10, check: { $1 == $0 },
      run: { count in await pumping(count, mapFilters) },
      baseline: { count in await streamPumping(count, standardMapFilters) }),
    RxWorkload(
      name: "rx map+filter creating", unit: "chain", count: iterations, check: { $1 == $0 },
      run: { count in await creating(count, mapFilters) },
      baseline: { count in await streamCreating(count, standardMapFilters) }),
    RxWorkload(
      name: "rx flatMaps pumping", unit: "event", count: iterations * 10, check: { $1 == $0 },
      run: { count in await pumping(count, flatMaps) }, baseline: nil),
    RxWorkload(
      name: "rx flatMaps creating", unit: "chain", count: iterations, check: { $1 == $0 },
      run: { count in await creating(count, flatMaps) }, baseline: nil),
    RxWorkload(
      name: "rx flatMapLatest pumping", unit: "event", count: iterations * 10,
      check: { count, sum in count == 0 ? sum == 0 : (1...count).contains(sum) },
      run: { count in await pumping(count, flatMapLatests) }, baseline: nil),
    RxWorkload(
      name: "rx flatMapLatest creating", unit: "chain", count: iterations, check: { $1 == $0 },
      run: { count in await creating(count, flatMapLatests) }, baseline: nil),
    RxWorkload(
      name: "rx 7 nested combineLatest pumping", unit: "event", count: iterations * 10,
      check: { count, sum in count == 0 ? sum == 0 : (1...count).contains(sum) },
      run: { count in await pumping(count, combineLatests) }, baseline: nil),
    RxWorkload(
      name: "rx 7 nested combineLatest creating", unit: "chain", count: iterations, check: { $1 == $0 },
      run: { count in await creating(count, combineLatestsSourceFirst) }, baseline: nil),
    // Issue #36: merge and zip with one live upstream beside an `AsyncJust`
    // (not in RxSwift's suite): the just's element, then the relay's.
    RxWorkload(
      name: "merge(just, relay) pumping", unit: "event", count: iterations * 10, check: { $1 == $0 },
      run: { count in await pumping(count) { merge(AsyncJust(0), $0) } }, baseline: nil),
    RxWorkload(
      name: "zip(just, relay) pumping", unit: "event", count: iterations * 10,
      check: { count, sum in sum == min(count, 1) },
      run: { count in await pumping(count) { zip(AsyncJust(1), $0).map { $0 * $1 } } }, baseline: nil),
    RxWorkload(
      name: "feature mailbox inputs", unit: "event", count: 2_000_000, check: { $1 == $0 },
      run: { count in await mailboxInputs(count) },
      baseline: { count in await plainActorInputs(count) }),
    // Issue #36's headline row: the same feature against a plain actor
    // awaited from one task, `await actor.add()` per input (no stream).
    RxWorkload(
      name: "feature mailbox inputs vs awaited actor calls", unit: "event", count: 2_000_000, check: { $1 == $0 },
      run: { count in await mailboxInputs(count) },
      baseline: { count in await awaitedActorInputs(count) }),
    // Issue #50: like for like — the awaited send against the awaited
    // plain actor, one task, one await per input.
    RxWorkload(
      name: "feature perform vs awaited actor calls", unit: "event", count: 2_000_000, check: { $1 == $0 },
      run: { count in await performedInputs(count) },
      baseline: { count in await awaitedActorInputs(count) }),
    RxWorkload(
      name: "feature perform vs awaited locking actor calls", unit: "event", count: 2_000_000,
      check: { $1 == $0 }, run: { count in await performedInputs(count) },
      baseline: { count in await awaitedLockingActorInputs(count) }),
    // Issue #62: the fair comparison for the awaited send — what a team
    // writes instead of a feature when it wants an awaited call: an actor
    // that holds the state, runs the same machine's `reduce` and publishes
    // the state to one observer. Both sides have that one observer.
    RxWorkload(
      name: "feature perform vs hand-written store actor", unit: "event", count: 2_000_000,
      check: { $1 == $0 }, run: { count in await performedObservedInputs(count) },
      baseline: { count in await handWrittenStoreInputs(count) }),
    // Creating a feature: made, one awaited input, finished (issue #62).
    RxWorkload(
      name: "feature creating", unit: "chain", count: iterations * 10, check: { $1 == $0 },
      run: { count in await featuresCreated(count) }, baseline: nil),
    // One effect run per input, each sending one input back: started
    // immediately here; through the start lane in a binary built with
    // ACTORMVVM_APPLE_BELOW_26 (Apple's path below OS 26).
    RxWorkload(
      name: "effect runs", unit: "event", count: 200_000, check: { $1 == $0 },
      run: { count in await effectRuns(count) }, baseline: nil),
  ]

  /// Runs `workload` (or its baseline) over `count` and checks the sum.
  static func run(_ workload: RxWorkload, count: Int, baseline: Bool = false) async -> Int {
    let sum = await (baseline ? workload.baseline! : workload.run)(count)
    precondition(workload.check(count, sum), "\(workload.name): wrong sum \(sum) for \(count)")
    return sum
  }

  /// Units of `workload` per second over `count`.
  static func rate(_ workload: RxWorkload, count: Int, baseline: Bool = false) async -> Double {
    let start = ContinuousClock.now
    _ = await run(workload, count: count, baseline: baseline)
    return Double(count) / seconds(ContinuousClock.now - start)
  }

  // MARK: the mailbox

  /// One sender's inputs through a feature, then its state read once.
  static func mailboxInputs(_ count: Int) async -> Int {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    for _ in 0..<count { feature.send(.add) }
    let sum = await feature.state.count
    await feature.finish()
    return sum
  }

  /// `count` features, each made, given one awaited input and finished.
  static func featuresCreated(_ count: Int) async -> Int {
    let counters = LifetimeCounters()
    var sum = 0
    for _ in 0..<count {
      let feature = Feature(Counter(), initialState: .init(), counters: counters)
      sum += await feature.perform(.add).count
      await feature.finish()
    }
    return sum
  }

  /// `count` inputs, each starting an effect run that sends one input back.
  static func effectRuns(_ count: Int) async -> Int {
    let feature = Feature(EchoRuns(), initialState: 0, counters: LifetimeCounters())
    for _ in 0..<count { feature.send(.start) }
    await feature.idle()
    let sum = await feature.state
    await feature.finish()
    return sum
  }

  /// One task awaiting each input's reduction: `await feature.perform(.add)`.
  static func performedInputs(_ count: Int) async -> Int {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    for _ in 0..<count { await feature.perform(.add) }
    let sum = await feature.state.count
    await feature.finish()
    return sum
  }

  /// The baseline a reader asks about first ("why not just use an
  /// actor?"): one task awaiting a plain actor's method per input.
  static func awaitedActorInputs(_ count: Int) async -> Int {
    let counter = PlainCounter()
    for _ in 0..<count { await counter.add() }
    return await counter.count
  }

  /// `perform` per input, with one observer of the feature's state (a task
  /// reading `states`, which conflates to the latest as the baseline's
  /// stream does): the sum is the last count it saw.
  static func performedObservedInputs(_ count: Int) async -> Int {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    let states = feature.states
    let observer = Task {
      var last = 0
      for await state in states { last = state.count }
      return last
    }
    for _ in 0..<count { await feature.perform(.add) }
    await feature.finish()
    return await observer.value
  }

  /// What a team writes instead of a feature for an awaited call
  /// (``StoreActor``): the same machine's `reduce` in an actor, the state
  /// published to one observer through an `AsyncStream` that keeps the
  /// newest, awaited per input.
  static func handWrittenStoreInputs(_ count: Int) async -> Int {
    let (states, continuation) = AsyncStream.makeStream(
      of: Counter.State.self, bufferingPolicy: .bufferingNewest(1))
    let store = StoreActor(Counter(), state: .init(), publishing: continuation)
    let observer = Task {
      var last = 0
      for await state in states { last = state.count }
      return last
    }
    for _ in 0..<count { await store.send(.add) }
    continuation.finish()
    return await observer.value
  }

  /// The same, with a method that takes a lock (``LockingCounter``).
  static func awaitedLockingActorInputs(_ count: Int) async -> Int {
    let counter = LockingCounter()
    for _ in 0..<count { await counter.add() }
    return await counter.count
  }

  /// The baseline: a plain actor that iterates an `AsyncStream` in its own
  /// isolation (no hop per input), the stream fed by the same one sender.
  static func plainActorInputs(_ count: Int) async -> Int {
    let counter = PlainCounter()
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    for _ in 0..<count { continuation.yield(()) }
    continuation.finish()
    await counter.consume(stream)
    return await counter.count
  }

  // MARK: the two shapes

  /// Pumping: one relay, `chain` over its subscription, `count` events
  /// accepted, the relay finished, the chain drained.
  @inline(__always)
  static func pumping<Chain: AsyncSequence<Int, Never>>(
    _ count: Int, _ chain: (EventRelay<Int>.Values) -> Chain
  ) async -> Int {
    let relay = EventRelay<Int>(counters: LifetimeCounters())
    let chained = chain(relay.values)
    for _ in 0..<count { relay.accept(1) }
    relay.finish()
    var sum = 0
    for await x in chained { sum += x }
    return sum
  }

  /// Creating: `count` times a relay, `chain` over it, one event, finished, drained.
  @inline(__always)
  static func creating<Chain: AsyncSequence<Int, Never>>(
    _ count: Int, _ chain: (EventRelay<Int>.Values) -> Chain
  ) async -> Int {
    let counters = LifetimeCounters()
    var sum = 0
    for _ in 0..<count {
      let relay = EventRelay<Int>(counters: counters)
      let chained = chain(relay.values)
      relay.accept(1)
      relay.finish()
      for await x in chained { sum += x }
    }
    return sum
  }

  /// The baselines' shapes: an `AsyncStream` instead of a relay.
  @inline(__always)
  static func streamPumping<Chain: AsyncSequence<Int, Never>>(
    _ count: Int, _ chain: (AsyncStream<Int>) -> Chain
  ) async -> Int {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let chained = chain(stream)
    for _ in 0..<count { continuation.yield(1) }
    continuation.finish()
    var sum = 0
    for await x in chained { sum += x }
    return sum
  }

  @inline(__always)
  static func streamCreating<Chain: AsyncSequence<Int, Never>>(
    _ count: Int, _ chain: (AsyncStream<Int>) -> Chain
  ) async -> Int {
    var sum = 0
    for _ in 0..<count {
      let (stream, continuation) = AsyncStream<Int>.makeStream()
      let chained = chain(stream)
      continuation.yield(1)
      continuation.finish()
      for await x in chained { sum += x }
    }
    return sum
  }

  /// Pumping to two subscriptions of one relay.
  static func twoSubscriptions(_ count: Int) async -> Int {
    let relay = EventRelay<Int>(counters: LifetimeCounters())
    let (first, second) = (relay.values, relay.values)
    for _ in 0..<count { relay.accept(1) }
    relay.finish()
    var sum = 0
    for await x in first { sum += x }
    for await x in second { sum += x }
    return sum
  }

  // MARK: chains

  /// RxSwift's `.map(\.self).filter { _ in true }` × 6, ActorMVVM's inline stages.
  @inline(__always)
  static func mapFilters(_ source: EventRelay<Int>.Values) -> some AsyncSequence<Int, Never> {
    source
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
  }

  /// The same chain with the standard library's `map` and `filter`.
  @inline(__always)
  static func standardMapFilters(_ source: AsyncStream<Int>) -> some AsyncSequence<Int, Never> {
    source
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
      .map { $0 }.filter { _ in true }
  }

  /// RxSwift's `.flatMap { x in Observable.just(x) }` × 5.
  static func flatMaps(_ source: EventRelay<Int>.Values) -> some AsyncSequence<Int, Never> & Sendable {
    source
      .flatMapMerge { AsyncJust($0) }
      .flatMapMerge { AsyncJust($0) }
      .flatMapMerge { AsyncJust($0) }
      .flatMapMerge { AsyncJust($0) }
      .flatMapMerge { AsyncJust($0) }
  }

  /// RxSwift's `.flatMapLatest { x in Observable.just(x) }` × 5. Pumped, a
  /// burst supersedes every inner but the last, as RxSwift's would if its
  /// source were asynchronous (Rx's synchronous `just` inners finish before
  /// the next element, so its subscriber sees every event): the sum is
  /// between 1 and the events pumped, which are what the rate counts.
  static func flatMapLatests(_ source: EventRelay<Int>.Values) -> some AsyncSequence<Int, Never> & Sendable {
    source
      .flatMapLatest { AsyncJust($0) }
      .flatMapLatest { AsyncJust($0) }
      .flatMapLatest { AsyncJust($0) }
      .flatMapLatest { AsyncJust($0) }
      .flatMapLatest { AsyncJust($0) }
  }

  /// RxSwift's `combineLatest(just(1), just(1), just(1), source) { _, _, _, x in x }`
  /// (pumping; the source first when creating, as there), nested seven levels deep.
  ///
  /// The upstreams are pumped by tasks of their own, so events the source
  /// delivers before every `just` has are not combined (Rx subscribes the
  /// `just`s first, synchronously): a pumping run's sum is between 1 and
  /// the events pumped, which are what its rate counts.
  static func combineLatests(_ source: EventRelay<Int>.Values) -> some AsyncSequence<Int, Never> & Sendable {
    let one = AsyncJust(1)
    func level<S: AsyncSequence<Int, Never> & Sendable>(_ inner: S) -> some AsyncSequence<Int, Never> & Sendable {
      combineLatest(one, one, one, inner).map { _, _, _, x in x }
    }
    return level(level(level(level(level(level(level(source)))))))
  }

  static func combineLatestsSourceFirst(_ source: EventRelay<Int>.Values) -> some AsyncSequence<Int, Never> & Sendable {
    let one = AsyncJust(1)
    func level<S: AsyncSequence<Int, Never> & Sendable>(_ inner: S) -> some AsyncSequence<Int, Never> & Sendable {
      combineLatest(inner, one, one, one).map { x, _, _, _ in x }
    }
    return level(level(level(level(level(level(level(source)))))))
  }
}

/// Each `.start` runs an effect that sends `.echo` back; the state counts the echoes.
private struct EchoRuns: StateMachine {
  enum Input: Sendable { case start, echo }

  func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .start: return .run { send in send(.echo) }
    case .echo:
      state += 1
      return .none
    }
  }
}
