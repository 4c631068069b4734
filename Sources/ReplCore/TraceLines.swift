import ActorMVVM

/// `--trace`: the features' trace lines (inputs, state diffs, effects
/// started, superseded, cancelled and ended, stale results dropped,
/// outputs — see ``FeatureTrace``), held until the session renders the
/// instant they belong to, then printed before its other lines. Lines of
/// one feature keep their order; lines two features write at the same
/// instant keep the order they were written in. Each line keeps the
/// ``Cause`` current when it was written (the command whose work it
/// traces), and is credited to that command. `Sendable`.
public final class TraceLines: Sendable {
  private let lines = Inbox<(String, Cause?)>()

  /// An empty buffer.
  public init() {}

  /// Appends one line; any task may call it (a feature's trace does, on its actor).
  public func append(_ line: String) { lines.append((line, Cause.current)) }

  /// The lines appended since the last call, oldest first, each with its cause.
  func drain() -> [(line: String, cause: Cause?)] { lines.drain() }
}
