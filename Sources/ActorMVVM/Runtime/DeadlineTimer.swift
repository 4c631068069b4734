/// Marks a sleep as an operator's deadline timer (timeout, debounce,
/// throttle, delay, …), so a virtual clock can order it after every other
/// sleeper due at the same instant: an element that arrives at T is handled
/// before a timer due at T, on every run (RxTest's rule for hot inputs).
/// A real clock ignores the mark.
///
/// For operator authors and virtual clocks: an operator sleeps through
/// ``sleep(on:until:)``; a virtual clock reads ``isActive`` while it
/// registers a sleeper.
public enum DeadlineTimer {
  /// Whether the sleep being registered by the current task is a deadline timer.
  public static var isActive: Bool { marked }

  /// The mark's storage: set only by ``sleep(on:until:)``.
  @TaskLocal static var marked = false

  /// Sleeps on `clock` until `deadline`, marked as a deadline timer.
  /// Cancellation ends the sleep by throwing, as `Clock.sleep` does.
  public static func sleep<C: Clock>(on clock: C, until deadline: C.Instant) async throws {
    try await $marked.withValue(true) { try await clock.sleep(until: deadline, tolerance: nil) }
  }
}
