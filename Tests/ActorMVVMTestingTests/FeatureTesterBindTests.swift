import ActorMVVM
import ActorMVVMTesting
import Testing

/// A reactor that hears a shared service's events from its creation (a
/// task was edited elsewhere) as well as its own inputs.
private struct TaskList: StateMachine {
  enum Event: Equatable, Sendable {
    case renamed(Int, String)
    case deleted(Int)
  }
  struct State: Equatable, Sendable {
    var titles: [Int: String] = [1: "Milk", 2: "Eggs"]
    var edits = 0
  }
  enum Input: Equatable, Sendable {
    case event(Event)
    case clear
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .event(.renamed(let id, let title)):
      state.titles[id] = title
      state.edits += 1
    case .event(.deleted(let id)):
      state.titles[id] = nil
      state.edits += 1
    case .clear:
      state.titles = [:]
    }
    return .none
  }
}

@Suite("FeatureTester.bind: a service's event stream, asserted as received inputs", .testBubble)
struct FeatureTesterBindTests {
  @Test("What the binding delivers is received, in order, between the tester's own sends")
  func boundInputsAreReceived() async {
    let (events, service) = AsyncStream.makeStream(of: TaskList.Event.self)
    let tester = FeatureTester(TaskList(), initialState: .init())
    await tester.bind(events, to: TaskList.Input.event)
    service.yield(.renamed(1, "Oat milk"))
    await tester.receive(.event(.renamed(1, "Oat milk"))) {
      $0.titles[1] = "Oat milk"
      $0.edits = 1
    }
    await tester.send(.clear) { $0.titles = [:] }
    service.yield(.deleted(2))
    await tester.receive(.event(.deleted(2))) { $0.edits = 2 }
    await tester.finish()
  }

  @Test("A receive waits for a live binding while no effect runs")
  func receiveWaitsForTheBinding() async {
    let clock = TestClock()
    let (events, service) = AsyncStream.makeStream(of: TaskList.Event.self)
    // The event reaches the feature one second of virtual time after it is sent.
    let late = events.map { event in
      try? await clock.sleep(for: .seconds(1))
      return event
    }
    let tester = FeatureTester(TaskList(), initialState: .init(), clock: clock)
    await tester.bind(late, to: TaskList.Input.event)
    service.yield(.deleted(1))
    // The receive is parked, with no effect running, when time moves.
    async let received: Void = tester.receive(.event(.deleted(1))) {
      $0.titles[1] = nil
      $0.edits = 1
    }
    await clock.advance(by: .seconds(1))
    await received
    await tester.finish()
  }

  @Test("An unasserted bound input fails finish; one the tester sent is checked by send")
  func unassertedBoundInputFailsFinish() async {
    let (events, service) = AsyncStream.makeStream(of: TaskList.Event.self)
    let tester = FeatureTester(TaskList(), initialState: .init())
    await tester.bind(events, to: TaskList.Input.event)
    service.yield(.deleted(1))
    service.finish()
    // The stream has ended: once the binding has delivered, nothing more can arrive.
    await tester.settle()
    await withKnownIssue {
      await tester.finish()
    } matching: { issue in
      issue.description.contains("1 unasserted received input(s) (fed back or bound)")
    }
  }

  @Test("A receive after the bound sequence ended, with nothing delivered, fails at once")
  func endedBindingDeliversNothing() async {
    let (events, service) = AsyncStream.makeStream(of: TaskList.Event.self)
    let tester = FeatureTester(TaskList(), initialState: .init())
    await tester.bind(events, to: TaskList.Input.event)
    service.finish()
    await withKnownIssue {
      await tester.receive(.event(.deleted(1)), timeout: .seconds(60))
    } matching: { issue in
      issue.description.contains("no effect is running")
    }
    await tester.finish()
  }

  @Test("finish cancels a binding whose sequence never ends")
  func finishCancelsTheBinding() async {
    let (events, service) = AsyncStream.makeStream(of: TaskList.Event.self)
    let tester = FeatureTester(TaskList(), initialState: .init())
    await tester.bind(events, to: TaskList.Input.event)
    await tester.finish()
    service.yield(.deleted(1))
    #expect(await tester.state == TaskList.State())
  }
}
