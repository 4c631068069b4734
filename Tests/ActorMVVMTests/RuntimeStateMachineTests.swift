import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

@testable import ActorMVVM

/// The effect runner, transition by transition, without a feature around it.
@Suite("EffectRunner", .testBubble)
struct EffectRunnerTests {
  typealias Runner = EffectRunner<Int, String>

  final class Sink: Sendable {
    let messages = Locked<[EffectMessage<Int>]>([])
    let arrived = EventRelay<Void>()
    func push(_ message: EffectMessage<Int>) {
      messages.withLock { $0.append(message) }
      arrived.accept(())
    }
  }

  @Test("A run whose work finished before it was superseded is stale: the generation check drops it")
  func staleAfterCompletion() async {
    let sink = Sink()
    var runner = Runner()
    var arrivals = sink.arrived.values.makeAsyncIterator()
    runner.perform(.run(id: "load") { send in send(1) }) { _ in
    } sendBack: { _ in
    }
    runner.startPending(host: 1, counters: LifetimeCounters()) { sink.push($0) }
    // Wait until run 1 has sent its result *and* ended: its work is done.
    _ = await arrivals.next()
    _ = await arrivals.next()
    let first = sink.messages.withLock { $0 }
    guard case .sent(1, let generation) = first.first else {
      Issue.record("expected run 1's result first, got \(first)")
      return
    }
    #expect(runner.isLive(generation))
    // A newer run with the same id supersedes it before the host handles its result.
    runner.perform(.run(id: "load") { _ in }) { _ in
    } sendBack: { _ in
    }
    runner.startPending(host: 1, counters: LifetimeCounters()) { sink.push($0) }
    #expect(!runner.isLive(generation))
    for task in runner.cancelAll() { await task.value }
  }

  @Test("cancel(id:) ends liveness; other ids are untouched")
  func cancelByID() async {
    var runner = Runner()
    let testClock = TestClock()  // never advanced: "a" runs until cancelled
    runner.perform(.merge(.run(id: "a") { _ in try? await testClock.sleep(for: .seconds(60)) }, .run(id: "b") { _ in }))
    {
      _ in
    } sendBack: { _ in
    }
    runner.startPending(host: 1, counters: LifetimeCounters()) { _ in }
    #expect(runner.liveCount == 2)
    runner.perform(.cancel(id: "a")) { _ in
    } sendBack: { _ in
    }
    #expect(runner.liveCount == 1)
    for task in runner.cancelAll() { await task.value }
    #expect(runner.liveCount == 0)
  }

  /// The proof obligation of `EffectRunner.Storage`'s `@unchecked
  /// Sendable`: the books are copied on write, so two runner values never
  /// share storage one of them is changing. An idle runner allocates none.
  @Test("The runner's books: none until the first run, changed in place, copied on write")
  func storageCopiedOnWrite() async {
    var runner = Runner()
    #expect(runner.storage == nil)
    #expect(runner.liveCount == 0)  // reading allocates nothing
    #expect(runner.storage == nil)
    runner.perform(.run(id: "a") { _ in }) { _ in
    } sendBack: { _ in
    }
    let first = runner.storage.map(ObjectIdentifier.init)
    #expect(first != nil)
    runner.perform(.run(id: "b") { _ in }) { _ in
    } sendBack: { _ in
    }
    #expect(runner.storage.map(ObjectIdentifier.init) == first)  // unique: changed in place
    var copy = runner
    copy.perform(.cancel(id: "a")) { _ in
    } sendBack: { _ in
    }
    #expect(copy.storage.map(ObjectIdentifier.init) != first)  // shared: copied first
    #expect(runner.storage.map(ObjectIdentifier.init) == first)
    #expect(copy.liveCount == 1)
    #expect(runner.liveCount == 2)  // the original is untouched
    for task in copy.cancelAll() { await task.value }
    for task in runner.cancelAll() { await task.value }
  }

  @Test("Runs start at startPending; one superseded or cancelled before then never starts")
  func deferredStart() async {
    let counters = LifetimeCounters()
    let started = Locked<[Int]>([])
    var runner = Runner()
    func run(_ n: Int, id: String?) -> Effect<Int, String> {
      .run(id: id) { _ in started.withLock { $0.append(n) } }
    }
    runner.perform(run(1, id: "search")) { _ in
    } sendBack: { _ in
    }
    runner.perform(run(2, id: nil)) { _ in
    } sendBack: { _ in
    }
    runner.perform(run(3, id: "search")) { _ in
    } sendBack: { _ in
    }  // supersedes 1
    runner.perform(run(4, id: "save")) { _ in
    } sendBack: { _ in
    }
    runner.perform(.cancel(id: "save")) { _ in
    } sendBack: { _ in
    }  // cancels 4
    #expect(runner.liveCount == 2)
    #expect(counters.effects == 0)  // recorded, not started
    runner.startPending(host: 1, counters: counters) { _ in }
    #expect(counters.effects + started.withLock(\.count) >= 2)
    for task in runner.cancelAll() { await task.value }
    #expect(started.withLock { $0.sorted() } == [2, 3])
    #expect(counters.effects == 0)
  }

  /// A machine whose one input asks for a run that counts its starts.
  struct Saver: StateMachine {
    struct State: Equatable, Sendable {}
    typealias Input = Int
    typealias Output = Never
    let starts: Locked<Int>
    func reduce(into state: inout State, _ input: Int) -> Effect<Int, Never> {
      .run(id: "save") { [starts] _ in starts.withLock { $0 += 1 } }
    }
  }

  @Test("finish() still starts the runs its last batch asked for (a last save is not lost), then cancels them")
  func finishStartsLastBatch() async {
    let counters = LifetimeCounters()
    let starts = Locked(0)
    let feature = Feature(Saver(starts: starts), initialState: .init(), counters: counters)
    feature.send(1)
    await feature.finish()  // reduces the pending input, then cancels and awaits its run
    #expect(starts.withLock { $0 } == 1)
    #expect(counters.effects == 0)
  }

  @Test("Outputs are emitted synchronously, in merge order")
  func outputOrder() {
    var runner = Runner()
    var emitted: [String] = []
    runner.perform(.merge(.emit("a"), .none, .merge(.emit("b"), .emit("c")))) {
      emitted.append($0)
    } sendBack: { _ in
    }
    #expect(emitted == ["a", "b", "c"])
  }

  @Test("Cancel ids compare by type and value")
  func cancelIDs() {
    enum CancelID: Hashable, Sendable { case one }
    #expect(AnyCancelID("x") == AnyCancelID("x"))
    #expect(AnyCancelID("x") != AnyCancelID("y"))
    #expect(AnyCancelID(1) != AnyCancelID("1"))
    #expect(AnyCancelID(CancelID.one) == AnyCancelID(CancelID.one))
    #expect(AnyCancelID(CancelID.one).hashValue == AnyCancelID(CancelID.one).hashValue)
  }
}

@Suite("ActivityTracker", .testBubble)
struct ActivityTrackerTests {
  struct Failure: Error {}

  @Test("Overlapping work stays loading until the last ends; throwing and cancelled work balance")
  func balanced() async throws {
    let tracker = ActivityTracker(counters: LifetimeCounters())
    var changes = tracker.isLoadingValues.makeAsyncIterator()
    #expect(await changes.next() == false)
    let testClock = TestClock()  // never advanced: the slow work holds until cancelled
    let slow = Task { await tracker.track { try? await testClock.sleep(for: .seconds(3_600)) } }
    #expect(await changes.next() == true)  // the slow work is in flight
    #expect(tracker.inFlight == 1)
    // Overlapping work that throws: the count goes up and back down, and
    // loading stays true because the slow work is still running.
    await #expect(throws: Failure.self) { try await tracker.track { throw Failure() } }
    #expect(tracker.inFlight == 1)
    #expect(tracker.isLoading)
    slow.cancel()  // cancelled work balances too
    await slow.value
    #expect(tracker.inFlight == 0)
    #expect(await changes.next() == false)
  }
}
