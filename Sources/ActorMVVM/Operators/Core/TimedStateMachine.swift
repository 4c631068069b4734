/// What a time operator's state machine asks of its one timer.
@usableFromInline
enum TimerCommand<Instant: InstantProtocol> {
  /// No timer runs: start one that wakes at the deadline.
  case startTimer(until: Instant)
  /// The timer woke before the current deadline: sleep again until it.
  case rearm(until: Instant)
}

/// A state machine with one timer (debounce, throttle): it starts the timer
/// with ``TimerCommand/startTimer(until:)``, and answers each wake-up with
/// ``TimerCommand/rearm(until:)`` or nothing (the timer ends).
@usableFromInline
protocol TimedStateMachine: OperatorStateMachine where Command == TimerCommand<Instant> {
  associatedtype Instant: InstantProtocol
  /// The event a wake-up of the timer at `now` delivers.
  static func timerFired(at now: Instant) -> Event
}

extension OperatorCore where Machine: TimedStateMachine {
  /// Performs a time operator's command: starts its one timer task on
  /// `clock`, which sleeps until the deadline, delivers the wake-up, and
  /// sleeps again for as long as the machine asks it to.
  @inlinable
  func performTimer<C: Clock>(_ command: Machine.Command, clock: C) where C.Instant == Machine.Instant {
    guard case .startTimer(let deadline) = command else { return }
    spawn(immediate: true) { core in
      var deadline = deadline
      while true {
        do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
        let delivery = core.deliver(Machine.timerFired(at: clock.now))
        guard delivery.open, case .rearm(let next)? = delivery.command else { return }
        deadline = next
      }
    }
  }
}
