import ActorMVVM
import ActorMVVMSupport

/// The values one field of a ``FeatureTester``'s state took, transition by
/// transition (see ``FeatureTester/record(_:_:)``), each with the time on the
/// tester's ``TestClock`` it was recorded at. Read ``values`` or ``events``
/// from any task; the tester appends as it reduces.
public final class TransitionRecorder<Value: Equatable & Sendable>: Sendable {
  private let recorded: Locked<[Recorded<Value>]>
  private let keepsRepeats: Bool

  init(first: Value, at time: Duration, keepsRepeats: Bool) {
    recorded = Locked([Recorded(time, first)])
    self.keepsRepeats = keepsRepeats
  }

  /// Every value so far, oldest first: the value when recording began,
  /// then each change (a reduce that leaves the field equal records
  /// nothing), or, recording `.everyTransition`, the value after each reduce.
  public var values: [Value] { recorded.withLock { $0.map(\.value) } }

  /// ``values`` with the time each was recorded at: RxTest's
  /// `TestableObserver.events` (`[.next(0, true), .next(100, true),
  /// .next(200, false)]` is `[Recorded(.zero, true), Recorded(.milliseconds(100), true), …]`).
  /// The time is the tester's clock's offset from its start when the
  /// transition was reduced; zero throughout for a tester made without a clock.
  public var events: [Recorded<Value>] { recorded.withLock { $0 } }

  func append(_ value: Value, at time: Duration) {
    recorded.withLock { recorded in
      if keepsRepeats || recorded.last?.value != value { recorded.append(Recorded(time, value)) }
    }
  }
}

/// One recorded value and the virtual time it was recorded at.
public struct Recorded<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
  /// The time on the tester's clock (its offset from the clock's start).
  public let time: Duration
  /// The field's value.
  public let value: Value

  /// A recorded value, for comparing with ``TransitionRecorder/events``.
  public init(_ time: Duration, _ value: Value) {
    self.time = time
    self.value = value
  }

  /// `value @ time`.
  public var description: String { "\(value) @ \(time)" }
}

/// What ``FeatureTester/record(_:_:)`` records of a field.
public enum RecordingMode: Sendable, Equatable {
  /// Each value that differs from the one before (the default).
  case changes
  /// The value after every reduce, equal to the one before or not.
  case everyTransition
}
