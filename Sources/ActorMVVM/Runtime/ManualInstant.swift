/// A point on the timeline of a clock whose time moves only when its owner
/// moves it: the time since the clock started. The `Instant` of
/// `TestClock` (ActorMVVMTesting) and of the REPL's `VirtualClock`.
public struct ManualInstant: InstantProtocol, Sendable, CustomStringConvertible {
  /// The time since the clock's start.
  public var offset: Duration

  /// The instant `offset` after the clock's start.
  public init(offset: Duration = .zero) { self.offset = offset }

  /// The instant `duration` later.
  public func advanced(by duration: Duration) -> ManualInstant { ManualInstant(offset: offset + duration) }
  /// The time from this instant to `other`.
  public func duration(to other: ManualInstant) -> Duration { other.offset - offset }
  /// Whether `lhs` is earlier than `rhs`.
  public static func < (lhs: ManualInstant, rhs: ManualInstant) -> Bool { lhs.offset < rhs.offset }
  /// The offset, as `Duration` prints it.
  public var description: String { "\(offset)" }
}
