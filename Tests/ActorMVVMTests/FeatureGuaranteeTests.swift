import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// One test (at least) per guarantee of the Guarantees article
/// (`Sources/ActorMVVM/ActorMVVM.docc/Guarantees.md`), numbered as there.
@Suite("Feature guarantees", .testBubble)
struct FeatureGuaranteeTests {
  let testClock = TestClock()
  let counters = LifetimeCounters()

  func makeFeature() -> Feature<Probe> {
    Feature(Probe(clock: testClock), initialState: .init(), counters: counters)
  }

  @Test("1. Mailbox order: per-sender order kept, one input at a time")
  func mailboxOrder() async {
    let feature = makeFeature()
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<8 {
        group.addTask {
          for sequence in 0..<2_000 { feature.send(.record(sender: sender, sequence: sequence)) }
        }
      }
    }
    let state = await feature.state
    #expect(state.count == 16_000)
    #expect(state.outOfOrder == 0)
    #expect(state.lastSeen.count == 8)
    #expect(state.lastSeen.values.allSatisfy { $0 == 1_999 })
    await feature.finish()
  }

  @Test("2. No lost inputs: everything sent before finish is reduced; later inputs are dropped and counted")
  func noLostInputs() async {
    let feature = makeFeature()
    for value in 1...1_000 { feature.send(.add(value)) }
    await feature.finish()
    #expect(await feature.state.total == 500_500)
    feature.send(.add(1))
    feature.send(.add(2))
    #expect(feature.droppedInputCount == 2)
    #expect(await feature.state.total == 500_500)
  }

  @Test("3. State streams start with the current state and end on the final one")
  func stateStreams() async {
    let feature = makeFeature()
    feature.send(.add(5))
    await feature.flush()
    var states = feature.states.makeAsyncIterator()
    var fast = feature.stateValues.makeAsyncIterator()
    #expect(await states.next()?.count == 1)
    #expect(await fast.next()?.count == 1)
    let reader = TestBubble.task {
      var seen: [Int] = []
      while let state = await fast.next() { seen.append(state.count) }
      return seen
    }
    for _ in 0..<100 { feature.send(.add(1)) }
    await feature.finish()
    // Conflated: the slow stream skips to the latest state, then ends.
    #expect(await states.next()?.count == 101)
    #expect(await states.next() == nil)
    // The concurrent reader saw increasing states and ended on the final one.
    let seen = await reader.value
    #expect(seen.last == 101)
    #expect(seen == seen.sorted() && Set(seen).count == seen.count)
  }

  @Test("3. A subscriber that joins later starts with the state current at that time")
  func lateSubscriberStartsWithCurrent() async {
    let feature = makeFeature()
    feature.send(.add(3))
    await feature.flush()
    var iterator = feature.stateValues.makeAsyncIterator()
    #expect(await iterator.next()?.total == 3)
    await feature.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("4. Every subscriber gets every output emitted while it was subscribed, in order")
  func outputStreams() async {
    let feature = makeFeature()
    let first = feature.outputs
    let second = feature.outputValues
    for value in 0..<500 { feature.send(.emit(value)) }
    await feature.flush()
    let late = feature.outputs
    feature.send(.emit(500))
    await feature.finish()
    let expected = (0...500).map(Probe.Output.emitted)
    #expect(await Array(first) == expected)
    #expect(await Array(second) == expected)
    #expect(await Array(late) == [.emitted(500)])
  }

  @Test("4. Outputs emitted before anyone subscribed reach no one; the first subscriber gets the later ones")
  func outputsBeforeTheFirstSubscriber() async {
    // The output relay is made by the first subscription: what came before
    // had no subscriber, as with a relay that existed all along.
    let feature = makeFeature()
    for value in 0..<3 { feature.send(.emit(value)) }
    await feature.flush()
    #expect(feature.emittedOutputCount == 3)
    let first = feature.outputValues
    feature.send(.emit(3))
    await feature.finish()
    #expect(await Array(first) == [.emitted(3)])
  }

  @Test("4. Outputs subscribed after finish (never subscribed before) end at once", .timeLimit(.minutes(1)))
  func outputsAfterFinish() async {
    let feature = makeFeature()
    feature.send(.emit(0))
    await feature.finish()
    #expect(await Array(feature.outputs).isEmpty)
    #expect(await Array(feature.outputValues).isEmpty)
    #expect(counters.subscriptions == 0)
  }

  @Test("5. A superseded effect's result never lands")
  func supersededEffect() async {
    let feature = makeFeature()
    feature.send(.load(1, after: .seconds(10)))
    await testClock.waitForSleepers(1)
    feature.send(.load(2, after: .seconds(5)))
    await testClock.waitForSleeper(until: .init(offset: .seconds(5)))
    await testClock.advance(by: .seconds(10))
    await feature.idle()
    #expect(await feature.state.loaded == [2])
    #expect(await feature.state.errors.isEmpty)  // the cancellation error was discarded too
    await feature.finish()
  }

  @Test("5. Cancelling by id discards the effect's result; other effects keep running")
  func cancelByID() async {
    let feature = makeFeature()
    feature.send(.load(1, after: .seconds(1)))
    await testClock.waitForSleepers(1)
    feature.send(.cancelLoad)
    feature.send(.stream(count: 10))
    await feature.idle()
    await testClock.advance(by: .seconds(2))
    let state = await feature.state
    #expect(state.loaded.isEmpty)
    #expect(state.total == 45)
    #expect(await feature.runningEffectCount == 0)
    await feature.finish()
  }

  @Test("6. finish cancels effects, ends streams and leaves nothing alive")
  func lifetime() async {
    let feature = makeFeature()
    let states = feature.states
    let outputs = feature.outputValues
    let (inputs, continuation) = AsyncStream<Probe.Input>.makeStream()
    feature.bind(inputs)
    feature.send(.load(1, after: .seconds(60)))
    await testClock.waitForSleepers(1)
    #expect(counters.snapshot == .init(features: 1, effects: 1, bindings: 1, subscriptions: 2))
    await feature.finish()
    #expect(counters.effects == 0)
    #expect(counters.bindings == 0)
    var count = 0
    for await _ in states { count += 1 }
    for await _ in outputs { count += 1 }
    #expect(count == 1)  // the state stream's current state, then both ended
    #expect(counters.subscriptions == 0)
    #expect(testClock.sleeperCount == 0)
    continuation.finish()
  }

  @Test(
    "6. Releasing an unfinished feature cancels its effects and ends its streams (its runs' tasks, started on either path, do not hold it)",
    arguments: StartPath.all)
  func releaseWithoutFinish(path: StartPath) async {
    var feature: Feature<Probe>? = makeFeature()
    await path.apply(to: feature!)
    let outputs = feature!.outputs
    feature!.send(.load(1, after: .seconds(60)))
    await testClock.waitForSleepers(1)
    feature = nil
    for await _ in outputs {}
    #expect(counters.features == 0)
    // The deinit cancels effect tasks before it ends the streams, and a
    // cancelled sleep leaves the clock at once: the 60 s sleeper is gone.
    #expect(testClock.sleeperCount == 0)
  }

  @Test("7. A throwing effect becomes a typed failure input")
  func failuresAreValues() async {
    let feature = makeFeature()
    feature.send(.fail("no network"))
    await feature.idle()
    #expect(await feature.state.errors == ["no network"])
    await feature.finish()
  }

  @Test("8. Time comes from the injected testClock")
  func injectedTime() async {
    let feature = makeFeature()
    feature.send(.load(7, after: .milliseconds(300)))
    await testClock.waitForSleepers(1)
    await testClock.advance(by: .milliseconds(299))
    await feature.flush()
    #expect(await feature.state.loaded.isEmpty)
    await testClock.advance(by: .milliseconds(1))
    await feature.idle()
    #expect(await feature.state.loaded == [7])
    await feature.finish()
  }

  @Test("bind feeds a sequence's elements in order, until it ends")
  func binding() async {
    let feature = makeFeature()
    let task = feature.bind((1...100).map(Probe.Input.add).async)
    await task?.value
    #expect(await feature.state.total == 5_050)
    await feature.finish()
    #expect(feature.bind([Probe.Input.add(1)].async) == nil)
  }

  @Test("Effects feed back their inputs in the order they sent them")
  func effectOrder() async {
    let feature = makeFeature()
    feature.send(.stream(count: 1_000))
    await feature.idle()
    #expect(await feature.state.total == 499_500)
    await feature.finish()
  }

  @Test(
    "1. reduce mutates the state alone: what it can read of its feature meanwhile is a published state, never the one being reduced"
  )
  func reduceSeesOnlyItsState() async {
    // The feature's state storage is `@exclusivity(unchecked)` because no
    // access can overlap reduce's `inout` one; if `publishedState` (all a
    // machine can read of its feature synchronously) read that storage,
    // it would show the count mid-reduce, one ahead.
    let peek = FeaturePeek()
    let feature = Feature(Peeking(peek: peek), initialState: 0, counters: counters)
    peek.feature.withLock { $0 = feature }
    for _ in 0..<100 { feature.send(()) }
    await feature.idle()
    #expect(await feature.state == 100)
    // The i-th input (from 0) sees at most i: states are published after
    // a batch, never mid-reduce. Reading the storage reduce is mutating
    // would show i + 1.
    let seen = peek.seen.withLock { $0 }
    #expect(seen.count == 100)
    #expect(seen.enumerated().allSatisfy { index, published in published <= index })
    await feature.finish()
  }
}

/// A machine whose failure input carries its own error type.
struct TypedFailure: StateMachine {
  enum LoadError: Error, Equatable { case offline }
  struct State: Equatable, Sendable { var errors: [LoadError] = [] }
  enum Input: Sendable, Equatable { case load, loadOne, loaded(Int), failed(LoadError) }
  typealias Output = Never

  static func fetch() async throws(LoadError) -> Int { throw .offline }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .load:
      return .run { (send) async throws(LoadError) in
        send(.loaded(try await Self.fetch()))
      } catch: {
        .failed($0)
      }
    case .loadOne:
      return .task { () async throws(LoadError) in
        .loaded(try await Self.fetch())
      } catch: {
        .failed($0)
      }
    case .loaded: return .none
    case .failed(let error):
      state.errors.append(error)
      return .none
    }
  }
}

@Test("7. Typed failures: catch receives the operation's own error type")
func typedFailures() async {
  let tester = FeatureTester(TypedFailure(), initialState: .init())
  await tester.send(.load)
  await tester.receive(.failed(.offline)) { $0.errors = [.offline] }
  await tester.send(.loadOne)
  await tester.receive(.failed(.offline)) { $0.errors = [.offline, .offline] }
  await tester.finish()
}

/// Where a `Peeking` machine finds its own feature.
final class FeaturePeek: Sendable {
  let feature = Locked<Feature<Peeking>?>(nil)
  let seen = Locked<[Int]>([])
}

/// Counts inputs, and reads its feature's published state in the middle of each.
struct Peeking: StateMachine {
  let peek: FeaturePeek

  func reduce(into state: inout Int, _ input: Void) -> Effect<Void, Never> {
    state += 1
    if let published = peek.feature.withLock({ $0?.publishedState }) {
      peek.seen.withLock { $0.append(published) }
    }
    return .none
  }
}
