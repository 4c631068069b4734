import ActorMVVMTestSupport
import Testing

@testable import ActorMVVM
@testable import ActorMVVMOperators

/// The operators' pure state machines, transition by transition (STYLE §14):
/// no tasks, no clocks, just events in and decisions out.
@Suite("Operator state machines")
struct OperatorStateMachineTests {
  typealias Instant = ContinuousClock.Instant
  let zero = ContinuousClock.now

  func at(_ milliseconds: Int) -> Instant { zero.advanced(by: .milliseconds(milliseconds)) }

  @Test("Debounce: one timer at a time; a newer element moves the deadline; an early wake re-arms")
  func debounce() {
    var machine = DebounceStateMachine<Int, Instant>(interval: .milliseconds(100))
    var output = OperatorOutput<Int>()
    guard case .startTimer(let first)? = machine.handle(.element(1, at: at(0)), output: &output) else {
      Issue.record("expected a timer to start")
      return
    }
    #expect(first == at(100))
    #expect(machine.handle(.element(2, at: at(50)), output: &output) == nil)  // the timer runs: no second one
    guard case .rearm(let second)? = machine.handle(.timerFired(at: at(100)), output: &output) else {
      Issue.record("expected the timer to re-arm for the moved deadline")
      return
    }
    #expect(second == at(150))
    #expect(output.elements.isEmpty)
    #expect(machine.handle(.timerFired(at: at(150)), output: &output) == nil)
    #expect(output.elements == [2])
    #expect(machine.handle(.ended(nil, at: at(500)), output: &output) == nil)
    #expect(output.end.map { if case .finished = $0 { true } else { false } } == true)
  }

  @Test("Debounce: an arrival after a missed deadline emits the due element first")
  func debounceDueOnArrival() {
    var machine = DebounceStateMachine<Int, Instant>(interval: .milliseconds(100))
    var output = OperatorOutput<Int>()
    _ = machine.handle(.element(1, at: at(0)), output: &output)
    _ = machine.handle(.element(2, at: at(101)), output: &output)  // the timer task has not run yet
    #expect(output.elements == [1])
  }

  @Test("Debounce: an arrival at the very instant the pending element is due replaces it (RxSwift's order)")
  func debounceArrivalAtTheDeadline() {
    var machine = DebounceStateMachine<Int, Instant>(interval: .milliseconds(100))
    var output = OperatorOutput<Int>()
    _ = machine.handle(.element(1, at: at(0)), output: &output)
    _ = machine.handle(.element(2, at: at(100)), output: &output)
    #expect(output.elements.isEmpty)
  }

  @Test("Throttle (latest): first passes, the window's last is held and emitted at the close")
  func throttle() {
    var machine = ThrottleStateMachine<Int, Instant>(interval: .milliseconds(100), latest: true)
    var output = OperatorOutput<Int>()
    #expect(machine.handle(.element(1, at: at(0)), output: &output) == nil)
    #expect(output.elements == [1])
    guard case .startTimer(let close)? = machine.handle(.element(2, at: at(30)), output: &output) else {
      Issue.record("expected a timer for the window's close")
      return
    }
    #expect(close == at(100))
    #expect(machine.handle(.element(3, at: at(60)), output: &output) == nil)
    #expect(machine.handle(.timerFired(at: at(100)), output: &output) == nil)
    #expect(output.elements == [1, 3])
  }

  @Test("flatMapLatest: a new outer element switches generations; stale inner events are dropped")
  func flatMapLatest() {
    var machine = FlatMapLatestStateMachine<String, Int>()
    var output = OperatorOutput<Int>()
    guard case .switchInner(_, let first)? = machine.handle(.outer("a"), output: &output),
      case .switchInner(_, let second)? = machine.handle(.outer("b"), output: &output)
    else {
      Issue.record("expected two switches")
      return
    }
    _ = machine.handle(.inner(1, generation: first), output: &output)
    _ = machine.handle(.inner(2, generation: second), output: &output)
    _ = machine.handle(.innerEnded(nil, generation: first), output: &output)
    _ = machine.handle(.outerEnded(nil), output: &output)
    #expect(output.elements == [2])
    #expect(output.end == nil)  // the current inner still runs
    _ = machine.handle(.innerEnded(nil, generation: second), output: &output)
    #expect(output.end != nil)
  }
}

extension TimerCommand: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.startTimer(let a), .startTimer(let b)), (.rearm(let a), .rearm(let b)): a == b
    default: false
    }
  }
}
