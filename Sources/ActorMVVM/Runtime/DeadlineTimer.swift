/// Marks a sleep as an operator's deadline timer (timeout, debounce,
/// throttle, delay, …), so a virtual clock can order it after every other
/// sleeper due at the same instant: an element that arrives at T is handled
/// before a timer due at T, on every run (RxTest's rule for hot inputs).
/// A real clock ignores the mark.
@usableFromInline
package enum DeadlineTimer {
  /// Whether the sleep being registered by the current task is a deadline timer.
  @TaskLocal package static var isActive = false

  /// Sleeps on `clock` until `deadline`, marked as a deadline timer.
  @usableFromInline
  package static func sleep<C: Clock>(on clock: C, until deadline: C.Instant) async throws {
    try await $isActive.withValue(true) { try await clock.sleep(until: deadline, tolerance: nil) }
  }
}
