import ActorMVVM

/// What a time operator's state machine asks of its one timer.
@usableFromInline
enum TimerCommand<Instant: InstantProtocol> {
  /// No timer runs: start one that wakes at the deadline.
  case startTimer(until: Instant)
  /// The timer woke before the current deadline: sleep again until it.
  case rearm(until: Instant)
}

/// A state machine with one timer (debounce, throttle, delay, buffer): it
/// starts the timer with ``TimerCommand/startTimer(until:)``, and answers
/// each wake-up with ``TimerCommand/rearm(until:)`` or nothing (the timer
/// ends). Its upstream's elements are `Input`s (its own `Element`s unless
/// it regroups them, as buffer does).
@usableFromInline
protocol TimedStateMachine: OperatorStateMachine
where Command == TimerCommand<Instant>, Event == TimedEvent<Input, Instant> {
  associatedtype Instant: InstantProtocol
  associatedtype Input: Sendable = Element
}

/// What reaches a time operator's state machine.
@usableFromInline
enum TimedEvent<Element: Sendable, Instant: InstantProtocol>: Sendable {
  /// An upstream element, stamped with the instant it arrived.
  case element(Element, at: Instant)
  /// The upstream's end, or its error, stamped with the instant it arrived.
  case ended((any Error)?, at: Instant)
  /// The timer woke at this instant.
  case timerFired(at: Instant)
}

extension OperatorReader where Machine: TimedStateMachine {
  /// The next element of a time operator over `base`: on the first call,
  /// starts the machine `make()` builds, one pump that stamps each element
  /// with `clock.now` on arrival, and the timer on `clock`.
  @inlinable @inline(__always)
  mutating func next<Base: AsyncSequence & Sendable, C: Clock>(
    base: Base, clock: C, make: @escaping () -> Machine, timerAtStart: C.Duration? = nil,
    isolation actor: isolated (any Actor)?
  ) async throws(Base.Failure) -> Machine.Element?
  where Base.Element == Machine.Input, C.Instant == Machine.Instant {
    try await next(
      start: {
        let core = OperatorCore(make())
        // A machine whose timer runs from the start (buffer) has it armed before the upstream is pulled.
        if let timerAtStart {
          core.performTimer(.startTimer(until: clock.now.advanced(by: timerAtStart)), clock: clock)
        }
        core.spawn { core in
          await pump(
            base, into: core, wrap: { .element($0, at: clock.now) }, end: { .ended($0, at: clock.now) },
            perform: { command, core in core.performTimer(command, clock: clock) })
        }
        return core
      }, failure: Base.Failure.self, isolation: actor)
  }
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
        do { try await DeadlineTimer.sleep(on: clock, until: deadline) } catch { return }
        let delivery = core.deliver(.timerFired(at: clock.now))
        guard delivery.open, case .rearm(let next)? = delivery.command else { return }
        deadline = next
      }
    }
  }
}
