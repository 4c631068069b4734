import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

@testable import ActorMVVMOperators

/// RxTest's hot observable: an iteration sees only what is sent after it
/// began. Counts its iterations and how many are running.
struct HotSource: AsyncSequence, Sendable {
  enum Event: Sendable {
    case next(Int)
    case error
    case completed
  }

  let relay = EventRelay<Event>()
  let iterations = TestCounter()

  struct Iterator: AsyncIteratorProtocol {
    var base: EventRelay<Event>.Values.Iterator

    mutating func next() async throws(MarbleError) -> Int? {
      switch await base.next() {
      case .next(let value)?: return value
      case .error?: throw MarbleError()
      case .completed?, nil: return nil
      }
    }
  }

  func makeAsyncIterator() -> Iterator {
    iterations.increment()
    return Iterator(base: relay.values.makeAsyncIterator())
  }

  /// Iterations of this source running now (RxTest's open subscriptions).
  var running: Int { relay.subscriberCount }
}

/// What one subscriber saw, as RxTest's recorded events: "time:value",
/// "time:|", "time:^", times in milliseconds on the test clock.
final class SubscriberLog: Sendable {
  private let events = Locked<[String]>([])
  func record(_ event: String, at clock: TestClock) {
    let time =
      clock.now.offset.components.seconds * 1000 + clock.now.offset.components.attoseconds / 1_000_000_000_000_000
    events.withLock { $0.append("\(time):\(event)") }
  }
  var recorded: [String] { events.withLock { $0 } }
}

/// A scheduled scenario on the test clock: actions at instants (RxTest's
/// `scheduleAt`), everything settled after each.
struct Scenario {
  let clock = TestClock()
  var actions: [(time: Int, action: @Sendable () async -> Void)] = []

  mutating func at(_ time: Int, _ action: @escaping @Sendable () async -> Void) { actions.append((time, action)) }

  func run(until end: Int = 1000) async {
    for (time, action) in actions.sorted(by: { $0.time < $1.time }) {
      await clock.advance(to: ManualInstant(offset: .milliseconds(time)))
      await action()
      await clock.settle()
    }
    await clock.advance(to: ManualInstant(offset: .milliseconds(end)))
  }
}

/// Subscribes in a task of its own: records into `log`, and on an end
/// subscribes again into `then` if given (RxSwift's tests re-subscribe in
/// the error and completion handlers).
func subscribe(
  _ shared: AsyncShareSequence<HotSource>, _ log: SubscriberLog, then: SubscriberLog? = nil, clock: TestClock
) -> Task<Void, Never> {
  TestBubble.task {
    var logs = [log] + (then.map { [$0] } ?? [])
    while !logs.isEmpty {
      let log = logs.removeFirst()
      do {
        for try await value in shared { log.record("\(value)", at: clock) }
        if Task.isCancelled { return }  // disposed: RxTest records nothing
        log.record("|", at: clock)
      } catch {
        log.record("^", at: clock)
      }
      if Task.isCancelled { return }
    }
  }
}

/// A cell for a task started by one scheduled action and cancelled by a
/// later one.
final class TaskCell: Sendable {
  private let task = Locked<Task<Void, Never>?>(nil)
  func set(_ new: Task<Void, Never>) { task.withLock { $0 = new } }
  func cancel() { task.withLock { $0 }?.cancel() }
}

/// RxSwift's Observable+ShareReplayScopeTests.swift on `share(replay:)`:
/// the hot source sends 1…5 at 210…250, 6 at 320, 7 at 550; subscribers
/// at 200 and 300 are disposed at 350 and 400; a third from 500 to 600.
@Suite("RxSwift's vectors: share(replay:) while connected", .testBubble)
struct ShareVectorTests {
  static let values: [(Int, Int)] = [(210, 1), (220, 2), (230, 3), (240, 4), (250, 5), (320, 6), (550, 7)]

  @Test(
    "test_whileConnected_receivesCorrectElements (and test_testDefaultArguments at 0): replay to the second, none to the third",
    arguments: 0..<5)
  func receivesCorrectElements(replay: Int) async {
    var scenario = Scenario()
    let clock = scenario.clock
    let xs = HotSource()
    let shared = xs.share(replay: replay)
    let (log1, log2, log3) = (SubscriberLog(), SubscriberLog(), SubscriberLog())
    let (task1, task2, task3) = (TaskCell(), TaskCell(), TaskCell())
    for (time, value) in Self.values { scenario.at(time) { xs.relay.accept(.next(value)) } }
    scenario.at(200) { task1.set(subscribe(shared, log1, clock: clock)) }
    scenario.at(300) { task2.set(subscribe(shared, log2, clock: clock)) }
    scenario.at(350) { task1.cancel() }
    scenario.at(400) { task2.cancel() }
    scenario.at(401) { #expect(xs.running == 0) }  // Subscription(200, 400)
    scenario.at(500) { task3.set(subscribe(shared, log3, clock: clock)) }
    scenario.at(600) { task3.cancel() }
    await scenario.run()

    #expect(log1.recorded == ["210:1", "220:2", "230:3", "240:4", "250:5", "320:6"])
    let replayed = (0..<replay).map { "300:\(6 - replay + $0)" }
    #expect(log2.recorded == replayed + ["320:6"])
    #expect(log3.recorded == ["550:7"])
    #expect(xs.iterations.value == 2)  // Subscription(200, 400), Subscription(500, 600)
    #expect(xs.running == 0)
  }

  func endsAndResubscribes(replay: Int, end: HotSource.Event, symbol: String) async {
    var scenario = Scenario()
    let clock = scenario.clock
    let xs = HotSource()
    let shared = xs.share(replay: replay)
    let (log1, log2, log3, log1b, log2b) = (
      SubscriberLog(), SubscriberLog(), SubscriberLog(), SubscriberLog(), SubscriberLog()
    )
    let (task1, task2, task3) = (TaskCell(), TaskCell(), TaskCell())
    for (time, value) in Self.values { scenario.at(time) { xs.relay.accept(.next(value)) } }
    scenario.at(330) { xs.relay.accept(end) }
    scenario.at(340) { xs.relay.accept(.next(-1)) }
    scenario.at(200) { task1.set(subscribe(shared, log1, then: log1b, clock: clock)) }
    scenario.at(300) { task2.set(subscribe(shared, log2, then: log2b, clock: clock)) }
    scenario.at(350) { task1.cancel() }
    scenario.at(400) { task2.cancel() }
    scenario.at(500) { task3.set(subscribe(shared, log3, clock: clock)) }
    scenario.at(600) { task3.cancel() }
    await scenario.run()

    #expect(log1.recorded == ["210:1", "220:2", "230:3", "240:4", "250:5", "320:6", "330:\(symbol)"])
    #expect(log1b.recorded == ["340:-1"])
    #expect(log2b.recorded == ["340:-1"])
    let replayed = (0..<replay).map { "300:\(6 - replay + $0)" }
    #expect(log2.recorded == replayed + ["320:6", "330:\(symbol)"])
    #expect(log3.recorded == ["550:7"])
    // Subscription(200, 330), Subscription(330, 400), Subscription(500, 600)
    #expect(xs.iterations.value == 3)
    #expect(xs.running == 0)
  }

  @Test("test_whileConnected_error: the error to both, who re-subscribe to a new iteration", arguments: 0..<5)
  func error(replay: Int) async {
    await endsAndResubscribes(replay: replay, end: .error, symbol: "^")
  }

  @Test("test_whileConnected_completed: the end to both, who re-subscribe to a new iteration", arguments: 0..<5)
  func completed(replay: Int) async {
    await endsAndResubscribes(replay: replay, end: .completed, symbol: "|")
  }
}

@Suite("share(replay:): one upstream iteration, lossless per subscriber, cancelled with the last one", .testBubble)
struct ShareTests {
  @Test("The upstream is iterated once for every subscriber, and each gets every element in order")
  func oneIterationLossless() async {
    let xs = HotSource()
    let shared = xs.share()
    let clock = TestClock()
    let logs = (0..<3).map { _ in SubscriberLog() }
    let tasks = logs.map { subscribe(shared, $0, clock: clock) }
    await clock.settle()
    for value in 1...500 { xs.relay.accept(.next(value)) }
    xs.relay.accept(.completed)
    for task in tasks { await task.value }
    for log in logs { #expect(log.recorded == (1...500).map { "0:\($0)" } + ["0:|"]) }
    #expect(xs.iterations.value == 1)
  }

  @Test("Dropping the last iterator cancels the upstream; the next one starts a new iteration with no replay")
  func lastOneOutCancels() async throws {
    let xs = HotSource()
    let shared = xs.share(replay: 2)
    let clock = TestClock()
    do {
      var iterator = shared.makeAsyncIterator()
      let first = TestBubble.task { try await iterator.next() }
      await clock.settle()
      xs.relay.accept(.next(1))
      #expect(try await first.value == 1)
      #expect(xs.running == 1)
    }
    await clock.settle()
    #expect(xs.running == 0)
    var again = shared.makeAsyncIterator()
    let second = TestBubble.task { try await again.next() }
    await clock.settle()
    #expect(xs.iterations.value == 2)
    xs.relay.accept(.next(2))
    #expect(try await second.value == 2)  // not 1: the replay went with the first iteration
  }

  @Test("A cancelled subscriber ends; the others keep the upstream")
  func cancelledSubscriberLeaves() async {
    let xs = HotSource()
    let shared = xs.share()
    let clock = TestClock()
    let (staying, leaving) = (SubscriberLog(), SubscriberLog())
    let stay = subscribe(shared, staying, clock: clock)
    let leave = subscribe(shared, leaving, clock: clock)
    await clock.settle()
    xs.relay.accept(.next(1))
    await clock.settle()
    leave.cancel()
    await leave.value
    xs.relay.accept(.next(2))
    xs.relay.accept(.completed)
    await stay.value
    #expect(staying.recorded == ["0:1", "0:2", "0:|"])
    #expect(leaving.recorded == ["0:1"])
    #expect(xs.iterations.value == 1)
  }
}

/// The pure state machine, without tasks.
@Suite("share(replay:)'s state machine")
struct ShareStateMachineTests {
  @Test("A late subscriber's backlog starts with the last `replay` elements, oldest first")
  func replayRing() {
    var machine = ShareStateMachine<Int, Never>(replay: 3)
    let first = machine.subscribe()
    var delivery: [Int] = []
    guard case .wait(let generation?) = machine.poll(first, into: &delivery) else {
      Issue.record("the first poll did not start an iteration")
      return
    }
    var waiters: [UnsafeContinuation<Void, Never>] = []
    for value in 1...5 { #expect(machine.element(value, generation: generation, waking: &waiters)) }
    let late = machine.subscribe()
    guard case .delivered = machine.poll(late, into: &delivery) else {
      Issue.record("the late subscriber got nothing")
      return
    }
    #expect(delivery == [3, 4, 5])
    #expect(!machine.element(6, generation: generation + 1, waking: &waiters))  // a stale iteration is refused
  }
}
