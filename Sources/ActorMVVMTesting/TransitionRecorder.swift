import ActorMVVM
import ActorMVVMSupport

/// The values one field of a ``FeatureTester``'s state took, transition by
/// transition (see ``FeatureTester/record(_:_:)``). Read ``values`` from any
/// task; the tester appends as it reduces.
public final class TransitionRecorder<Value: Equatable & Sendable>: Sendable {
  private let recorded: Locked<[Value]>
  private let keepsRepeats: Bool

  init(first: Value, keepsRepeats: Bool) {
    recorded = Locked([first])
    self.keepsRepeats = keepsRepeats
  }

  /// Every value so far, oldest first: the value when recording began,
  /// then each change (a reduce that leaves the field equal records
  /// nothing), or, recording `.everyTransition`, the value after each reduce.
  public var values: [Value] { recorded.withLock { $0 } }

  func append(_ value: Value) {
    recorded.withLock { values in
      if keepsRepeats || values.last != value { values.append(value) }
    }
  }
}

/// What ``FeatureTester/record(_:_:)`` records of a field.
public enum RecordingMode: Sendable, Equatable {
  /// Each value that differs from the one before (the default).
  case changes
  /// The value after every reduce, equal to the one before or not.
  case everyTransition
}
