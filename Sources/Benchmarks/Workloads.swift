import ActorMVVM
import ActorMVVMOperators
import ActorMVVMSupport
import BenchmarkShims
import Foundation

/// A counter: the cheapest possible transition, so the runtime is what is measured.
struct Counter: StateMachine {
  struct State: Equatable, Sendable { var count = 0 }
  enum Input: Sendable {
    case add
    case search(Int)
    case found(Int)
  }
  typealias Output = Never
  enum CancelID: Hashable, Sendable { case search }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .add:
      state.count += 1
      return .none
    case .search(let query):
      return .run(id: CancelID.search) { send in send(.found(query)) }
    case .found:
      state.count += 1
      return .none
    }
  }
}

/// The baseline for the mailbox: a plain actor fed through a raw AsyncStream.
actor PlainCounter {
  var count = 0
  func add() { count += 1 }

  /// Counts `stream`'s elements in this actor's isolation: no hop per element.
  func consume(_ stream: AsyncStream<Void>) async {
    for await _ in stream { count += 1 }
  }
}

/// A plain actor whose method also takes a lock, as a feature's awaited
/// input takes its mailbox's: the awaited call with a body the optimizer
/// cannot see through. (With `add()`'s body alone it keeps the task on the
/// actor between calls and the call costs one switch; with any call it
/// cannot inline, the task goes back to the generic executor after each.)
actor LockingCounter {
  var count = 0
  let log = Locked(0)
  func add() {
    count += 1
    log.withLock { $0 += 1 }
  }
}

/// The hand-written store a team writes instead of a feature when it wants
/// an awaited call: it holds the state, runs the machine's `reduce` (its
/// effects are not run: the benchmark's inputs have none) and publishes the
/// new state to its observer.
actor StoreActor<Machine: StateMachine> {
  let machine: Machine
  var state: Machine.State
  let observer: AsyncStream<Machine.State>.Continuation

  init(_ machine: Machine, state: Machine.State, publishing observer: AsyncStream<Machine.State>.Continuation) {
    self.machine = machine
    self.state = state
    self.observer = observer
  }

  func send(_ input: Machine.Input) {
    _ = machine.reduce(into: &state, input)
    observer.yield(state)
  }
}

/// The baseline for superseding effects: a plain actor cancelling a task per request.
actor Latest {
  var task: Task<Void, Never>?
  var results = 0
  func search(_ query: Int) {
    task?.cancel()
    task = Task { self.found(query) }
  }
  func found(_ query: Int) { results += 1 }
  func wait() async { await task?.value }
}

/// The baseline for fan-out: one AsyncStream continuation per subscriber.
final class StreamMulticast<Value: Sendable>: Sendable {
  let continuations: [AsyncStream<Value>.Continuation]
  let streams: [AsyncStream<Value>]

  init(subscribers: Int) {
    var continuations: [AsyncStream<Value>.Continuation] = []
    var streams: [AsyncStream<Value>] = []
    for _ in 0..<subscribers {
      let (stream, continuation) = AsyncStream<Value>.makeStream()
      streams.append(stream)
      continuations.append(continuation)
    }
    self.continuations = continuations
    self.streams = streams
  }

  func send(_ value: Value) { for continuation in continuations { continuation.yield(value) } }
  func finish() { for continuation in continuations { continuation.finish() } }
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The bytes a memory row counts: the heap's bytes in use, malloc's chunk
/// overhead included, where the C library reports them (glibc); resident
/// pages elsewhere, which move a page at a time.
func heapBytes() -> Int {
  let inUse = benchmark_heap_bytes_in_use()
  return inUse >= 0 ? Int(inUse) : residentBytes()
}

/// Resident memory of this process, in bytes.
func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

enum Workloads {
  // MARK: Mailbox

  static func inputs(senders: Int, perSender: Int) async -> Double {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    let start = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<senders {
        group.addTask { for _ in 0..<perSender { feature.send(.add) } }
      }
    }
    let count = await feature.state.count
    let elapsed = ContinuousClock.now - start
    precondition(count == senders * perSender, "lost inputs: \(count)")
    await feature.finish()
    return Double(count) / seconds(elapsed)
  }

  static func inputsBaseline(senders: Int, perSender: Int) async -> Double {
    let counter = PlainCounter()
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let start = ContinuousClock.now
    let consumer = Task {
      for await _ in stream { await counter.add() }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<senders {
        group.addTask { for _ in 0..<perSender { continuation.yield(()) } }
      }
    }
    continuation.finish()
    await consumer.value
    let count = await counter.count
    let elapsed = ContinuousClock.now - start
    precondition(count == senders * perSender)
    return Double(count) / seconds(elapsed)
  }

  // MARK: Fan-out

  enum Path: String { case fast, stream }

  /// Reads a subscription to its end: how many elements, and the last.
  static func read<Values: AsyncSequence & Sendable>(
    _ values: Values
  ) -> Task<(count: Int, last: Int), Never> where Values.Element == Int, Values.Failure == Never {
    Task {
      var count = 0
      var last = -1
      for await value in values {
        count += 1
        last = value
      }
      return (count, last)
    }
  }

  static func eventFanOut(subscribers: Int, events: Int, path: Path) async -> Double {
    let relay = EventRelay<Int>(counters: LifetimeCounters())
    let readers = (0..<subscribers).map { _ in
      path == .fast ? read(relay.values) : read(relay.stream)
    }
    let start = ContinuousClock.now
    for value in 0..<events { relay.accept(value) }
    relay.finish()
    var delivered = 0
    for reader in readers { delivered += await reader.value.count }
    let elapsed = ContinuousClock.now - start
    precondition(delivered == subscribers * events, "lost events")
    return Double(delivered) / seconds(elapsed)
  }

  static func eventFanOutBaseline(subscribers: Int, events: Int) async -> Double {
    let multicast = StreamMulticast<Int>(subscribers: subscribers)
    let readers = multicast.streams.map { stream in
      Task {
        var count = 0
        for await _ in stream { count += 1 }
        return count
      }
    }
    let start = ContinuousClock.now
    for value in 0..<events { multicast.send(value) }
    multicast.finish()
    var delivered = 0
    for reader in readers { delivered += await reader.value }
    let elapsed = ContinuousClock.now - start
    return Double(delivered) / seconds(elapsed)
  }

  /// State fan-out conflates: a subscriber slower than the producer skips to
  /// the latest state, so counting the states it happened to receive would
  /// reward a slow producer. The figure is updates × subscribers per second,
  /// with every subscriber checked to end on the final state: the rate at
  /// which N observers are kept current.
  static func stateFanOut(subscribers: Int, updates: Int, path: Path) async -> Double {
    let relay = StateRelay(0, counters: LifetimeCounters())
    let readers = (0..<subscribers).map { _ in
      path == .fast ? read(relay.values) : read(relay.stream)
    }
    let start = ContinuousClock.now
    for value in 1...updates { relay.accept(value) }
    relay.finish()
    for reader in readers {
      let (_, last) = await reader.value
      precondition(last == updates, "a subscriber missed the final state")
    }
    let elapsed = ContinuousClock.now - start
    return Double(updates * subscribers) / seconds(elapsed)
  }

  /// The baseline for state fan-out: one `AsyncStream` per subscriber that
  /// keeps only the newest value (`.bufferingNewest(1)`), the hand-rolled
  /// conflating multicast.
  static func stateFanOutBaseline(subscribers: Int, updates: Int) async -> Double {
    let pairs = (0..<subscribers).map { _ in AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1)) }
    let readers = pairs.map { pair in
      Task {
        var last = -1
        for await value in pair.stream { last = value }
        return last
      }
    }
    let start = ContinuousClock.now
    for value in 1...updates {
      for pair in pairs { pair.continuation.yield(value) }
    }
    for pair in pairs { pair.continuation.finish() }
    for reader in readers {
      let last = await reader.value
      precondition(last == updates, "a baseline subscriber missed the final state")
    }
    let elapsed = ContinuousClock.now - start
    return Double(updates * subscribers) / seconds(elapsed)
  }

  // MARK: Operators and effects

  static func combineLatestEvents(events: Int) async -> Double {
    let a = AsyncStream<Int> { continuation in
      for value in 0..<events { continuation.yield(value) }
      continuation.finish()
    }
    let b = AsyncStream<Int> { continuation in
      for value in 0..<events { continuation.yield(value) }
      continuation.finish()
    }
    let start = ContinuousClock.now
    var count = 0
    for await _ in combineLatest(a, b) { count += 1 }
    let elapsed = ContinuousClock.now - start
    return Double(count) / seconds(elapsed)
  }

  /// combineLatest over two relays' own sequences, fed by one producer
  /// alternating between them: the shape of the login screen's
  /// `combineLatest(idValid, passwordValid)`.
  static func combineLatestRelays(events: Int) async -> Double {
    let counters = LifetimeCounters()
    let a = EventRelay<Int>(counters: counters)
    let b = EventRelay<Int>(counters: counters)
    let combined = combineLatest(a.values, b.values)
    let start = ContinuousClock.now
    let producer = Task {
      for value in 0..<events {
        a.accept(value)
        b.accept(value)
      }
      a.finish()
      b.finish()
    }
    var count = 0
    var last = (-1, -1)
    for await pair in combined {
      count += 1
      last = pair
    }
    await producer.value
    let elapsed = ContinuousClock.now - start
    // How the two sides interleave decides how many pairs there are (one per
    // element once both sides have one), but the last is always the final pair.
    precondition(count >= events && last == (events - 1, events - 1), "combineLatest lost pairs: \(count)")
    return Double(count) / seconds(elapsed)
  }

  /// flatMapLatest the operator: outer elements from a relay, each mapped
  /// to an inner sequence of one element (Rx's `flatMapLatest { .just($0) }`).
  /// Counts outer elements per second; superseded inners emit nothing.
  static func flatMapLatestOperator(events: Int) async -> Double {
    let relay = EventRelay<Int>(counters: LifetimeCounters())
    let switched = relay.values.flatMapLatest { OneElement(value: $0) }
    let start = ContinuousClock.now
    let producer = Task {
      for value in 0..<events { relay.accept(value) }
      relay.finish()
    }
    var last = -1
    for await value in switched { last = value }
    await producer.value
    let elapsed = ContinuousClock.now - start
    precondition(last == events - 1, "flatMapLatest lost the last inner: \(last)")
    return Double(events) / seconds(elapsed)
  }

  /// flatMapMerge (Rx's `flatMap`): outer elements from a relay, each
  /// mapped to an inner sequence of one element; every inner's element is
  /// delivered. Counts elements per second.
  static func flatMapMergeOperator(events: Int) async -> Double {
    let relay = EventRelay<Int>(counters: LifetimeCounters())
    let merged = relay.values.flatMapMerge { OneElement(value: $0) }
    let start = ContinuousClock.now
    let producer = Task {
      for value in 0..<events { relay.accept(value) }
      relay.finish()
    }
    var count = 0
    for await _ in merged { count += 1 }
    await producer.value
    let elapsed = ContinuousClock.now - start
    precondition(count == events, "flatMapMerge lost inners: \(count)")
    return Double(events) / seconds(elapsed)
  }

  /// share(replay: 1): one pre-filled `AsyncStream` iterated once for
  /// `subscribers` consumers, each receiving every element. Counts
  /// deliveries (elements × subscribers) per second.
  static func shareOperator(subscribers: Int, events: Int) async -> Double {
    let (upstream, continuation) = AsyncStream<Int>.makeStream()
    for value in 0..<events { continuation.yield(value) }
    continuation.finish()
    let shared = upstream.share(replay: 1)
    let iterators = (0..<subscribers).map { _ in shared.makeAsyncIterator() }
    let start = ContinuousClock.now
    let counts = await withTaskGroup(of: Int.self) { group in
      for iterator in iterators {
        group.addTask {
          var (iterator, count) = (iterator, 0)
          while await iterator.next() != nil { count += 1 }
          return count
        }
      }
      return await group.reduce(0, +)
    }
    let elapsed = ContinuousClock.now - start
    precondition(counts == events * subscribers, "share lost elements: \(counts)")
    return Double(counts) / seconds(elapsed)
  }

  /// The hand-rolled multicast: one task iterates the same pre-filled
  /// stream and yields every element into one `AsyncStream` per consumer.
  static func shareOperatorBaseline(subscribers: Int, events: Int) async -> Double {
    let (upstream, continuation) = AsyncStream<Int>.makeStream()
    for value in 0..<events { continuation.yield(value) }
    continuation.finish()
    let multicast = StreamMulticast<Int>(subscribers: subscribers)
    let start = ContinuousClock.now
    let counts = await withTaskGroup(of: Int.self) { group in
      group.addTask {
        for await value in upstream { multicast.send(value) }
        multicast.finish()
        return 0
      }
      for stream in multicast.streams {
        group.addTask {
          var count = 0
          for await _ in stream { count += 1 }
          return count
        }
      }
      return await group.reduce(0, +)
    }
    let elapsed = ContinuousClock.now - start
    precondition(counts == events * subscribers, "baseline lost elements: \(counts)")
    return Double(counts) / seconds(elapsed)
  }

  /// The hand-rolled flatMap: one child task per outer element, in a task
  /// group, each yielding its one element into a shared stream.
  static func flatMapMergeOperatorBaseline(events: Int) async -> Double {
    let relay = EventRelay<Int>(counters: LifetimeCounters())
    let outer = relay.values
    let (output, continuation) = AsyncStream<Int>.makeStream()
    let start = ContinuousClock.now
    let driver = Task {
      await withTaskGroup(of: Void.self) { group in
        for await value in outer { group.addTask { continuation.yield(value) } }
      }
      continuation.finish()
    }
    let producer = Task {
      for value in 0..<events { relay.accept(value) }
      relay.finish()
    }
    var count = 0
    for await _ in output { count += 1 }
    await producer.value
    await driver.value
    let elapsed = ContinuousClock.now - start
    precondition(count == events, "baseline lost inners: \(count)")
    return Double(events) / seconds(elapsed)
  }

  /// The hand-rolled flatMapLatest: cancel the previous task and start a
  /// new one per outer element, which yields its one element.
  static func flatMapLatestOperatorBaseline(events: Int) async -> Double {
    let relay = EventRelay<Int>(counters: LifetimeCounters())
    let outer = relay.values
    let (output, continuation) = AsyncStream<Int>.makeStream()
    let start = ContinuousClock.now
    let driver = Task {
      var current: Task<Void, Never>?
      for await value in outer {
        current?.cancel()
        current = Task { if !Task.isCancelled { continuation.yield(value) } }
      }
      await current?.value
      continuation.finish()
    }
    let producer = Task {
      for value in 0..<events { relay.accept(value) }
      relay.finish()
    }
    var last = -1
    for await value in output { last = value }
    await producer.value
    await driver.value
    let elapsed = ContinuousClock.now - start
    precondition(last == events - 1, "baseline lost the last inner: \(last)")
    return Double(events) / seconds(elapsed)
  }

  /// The baselines' combineLatest: side-tagged values from one stream,
  /// counting a pair for each once both sides have one.
  static func combineByHand(_ merged: AsyncStream<(Int, Int)>) async -> Int {
    var latest: (Int?, Int?) = (nil, nil)
    var count = 0
    for await (side, value) in merged {
      if side == 0 { latest.0 = value } else { latest.1 = value }
      if latest.0 != nil, latest.1 != nil { count += 1 }
    }
    return count
  }

  /// The baseline for relay-fed combineLatest: the same producer through one
  /// raw AsyncStream of tagged values, combined by hand.
  static func combineLatestRelaysBaseline(events: Int) async -> Double {
    let (merged, continuation) = AsyncStream<(Int, Int)>.makeStream()
    let start = ContinuousClock.now
    let producer = Task {
      for value in 0..<events {
        continuation.yield((0, value))
        continuation.yield((1, value))
      }
      continuation.finish()
    }
    let count = await combineByHand(merged)
    await producer.value
    let elapsed = ContinuousClock.now - start
    return Double(count) / seconds(elapsed)
  }

  /// How fast one pre-filled `AsyncStream` can be iterated at all: the
  /// ceiling for any operator fed by AsyncStreams.
  static func asyncStreamIteration(events: Int) async -> Double {
    let stream = AsyncStream<Int> { continuation in
      for value in 0..<events { continuation.yield(value) }
      continuation.finish()
    }
    let start = ContinuousClock.now
    var count = 0
    for await _ in stream { count += 1 }
    let elapsed = ContinuousClock.now - start
    return Double(count) / seconds(elapsed)
  }

  static func combineLatestBaseline(events: Int) async -> Double {
    let (merged, continuation) = AsyncStream<(Int, Int)>.makeStream()
    let start = ContinuousClock.now
    let producers = (0..<2).map { side in
      Task {
        for value in 0..<events { continuation.yield((side, value)) }
      }
    }
    let finisher = Task {
      for producer in producers { await producer.value }
      continuation.finish()
    }
    let count = await combineByHand(merged)
    await finisher.value
    let elapsed = ContinuousClock.now - start
    return Double(count) / seconds(elapsed)
  }

  static func supersedingEffects(count: Int) async -> Double {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    let start = ContinuousClock.now
    for query in 0..<count { feature.send(.search(query)) }
    await feature.idle()
    let elapsed = ContinuousClock.now - start
    await feature.finish()
    return Double(count) / seconds(elapsed)
  }

  static func supersedingBaseline(count: Int) async -> Double {
    let latest = Latest()
    let start = ContinuousClock.now
    for query in 0..<count { await latest.search(query) }
    await latest.wait()
    let elapsed = ContinuousClock.now - start
    return Double(count) / seconds(elapsed)
  }

  // MARK: Latency

  /// send → state observed, per round trip, in microseconds (sorted).
  static func latency(samples: Int) async -> [Double] {
    let feature = Feature(Counter(), initialState: .init(), counters: LifetimeCounters())
    var states = feature.stateValues.makeAsyncIterator()
    _ = await states.next()
    var result: [Double] = []
    result.reserveCapacity(samples)
    for expected in 1...samples {
      let start = ContinuousClock.now
      feature.send(.add)
      while let state = await states.next(), state.count < expected {}
      result.append(seconds(ContinuousClock.now - start) * 1e6)
    }
    await feature.finish()
    return result.sorted()
  }

  static func latencyBaseline(samples: Int) async -> [Double] {
    let (requests, requestContinuation) = AsyncStream<Void>.makeStream()
    let (replies, replyContinuation) = AsyncStream<Int>.makeStream()
    let worker = Task {
      var count = 0
      for await _ in requests {
        count += 1
        replyContinuation.yield(count)
      }
      replyContinuation.finish()
    }
    var iterator = replies.makeAsyncIterator()
    var result: [Double] = []
    for _ in 1...samples {
      let start = ContinuousClock.now
      requestContinuation.yield(())
      _ = await iterator.next()
      result.append(seconds(ContinuousClock.now - start) * 1e6)
    }
    requestContinuation.finish()
    await worker.value
    return result.sorted()
  }

  // MARK: Memory and lifecycle

  /// Bytes per idle feature holding one state subscription.
  /// Returns the bytes per feature and what it allocated, for the caller to
  /// keep alive so a later measurement cannot reuse that memory.
  ///
  /// Counted on the main thread, whose allocations glibc serves from the
  /// arena `mallinfo2` reports (``heapBytes()``); the arrays that keep the
  /// features alive are reserved before the first count, so they are not
  /// charged to the features.
  static func idleFeatureBytes(count: Int) async -> (Double, any Sendable) {
    await MainActor.run {
      var features: [Feature<Counter>] = []
      var subscriptions: [StateRelay<Counter.State>.Values] = []
      features.reserveCapacity(count)
      subscriptions.reserveCapacity(count)
      let counters = LifetimeCounters()
      let before = heapBytes()
      for _ in 0..<count {
        let feature = Feature(Counter(), initialState: .init(), counters: counters)
        subscriptions.append(feature.stateValues)
        features.append(feature)
      }
      let after = heapBytes()
      return (Double(after - before) / Double(count), (features, subscriptions))
    }
  }

  /// Bytes per idle baseline: an actor with an AsyncStream subscription,
  /// counted as ``idleFeatureBytes(count:)`` counts.
  static func idleBaselineBytes(count: Int) async -> (Double, any Sendable) {
    await MainActor.run {
      var actors: [PlainCounter] = []
      var streams: [(AsyncStream<Int>, AsyncStream<Int>.Continuation)] = []
      actors.reserveCapacity(count)
      streams.reserveCapacity(count)
      let before = heapBytes()
      for _ in 0..<count {
        actors.append(PlainCounter())
        streams.append(AsyncStream<Int>.makeStream())
      }
      let after = heapBytes()
      return (Double(after - before) / Double(count), (actors, streams))
    }
  }

  /// Seconds to create `features`, drive each with `inputs` inputs and finish them all.
  static func driveAndFinish(features: Int, inputs: Int) async -> Double {
    let counters = LifetimeCounters()
    let start = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
      for lane in 0..<4 {
        group.addTask {
          for _ in stride(from: lane, to: features, by: 4) {
            let feature = Feature(Counter(), initialState: .init(), counters: counters)
            for _ in 0..<inputs { feature.send(.add) }
            await feature.finish()
          }
        }
      }
    }
    let elapsed = ContinuousClock.now - start
    // Features deinit on their own executor a moment later; effects and subscriptions are gone now.
    precondition(counters.effects == 0 && counters.subscriptions == 0, "leak: \(counters.snapshot)")
    return seconds(elapsed)
  }
}

/// A sequence of exactly one element that never suspends: the inner
/// sequence of the flatMapLatest benchmark (Rx's `Observable.just`).
struct OneElement: AsyncSequence, Sendable {
  typealias Failure = Never
  let value: Int

  func makeAsyncIterator() -> Iterator { Iterator(value: value) }

  struct Iterator: AsyncIteratorProtocol {
    typealias Failure = Never
    var value: Int?

    mutating func next() async -> Int? {
      defer { value = nil }
      return value
    }

    mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
      defer { value = nil }
      return value
    }
  }
}
