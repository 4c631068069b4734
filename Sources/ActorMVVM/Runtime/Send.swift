/// Feeds inputs from a running effect back into its feature's mailbox.
///
/// `Send` is `Sendable` and never suspends: call it from any task. Each
/// value is stamped with the generation of the effect run that made it; when
/// the input reaches the mailbox it is reduced only if that run is still
/// current (not cancelled, not superseded by a newer run with the same id,
/// and the feature not finished). Otherwise it is discarded.
public struct Send<Input: Sendable>: Sendable {
  @usableFromInline let generation: UInt64
  @usableFromInline let sink: @Sendable (EffectMessage<Input>) -> Void

  @inlinable
  init(generation: UInt64, sink: @escaping @Sendable (EffectMessage<Input>) -> Void) {
    self.generation = generation
    self.sink = sink
  }

  /// Sends `input` back to the feature.
  @inlinable
  public func callAsFunction(_ input: Input) {
    sink(.sent(input, generation: generation))
  }
}

/// What a running effect tells its host.
@usableFromInline
package enum EffectMessage<Input: Sendable>: Sendable {
  /// An input from the effect run with this generation.
  case sent(Input, generation: UInt64)
  /// The run with this generation has returned; nothing more will come from it.
  case ended(generation: UInt64)
}
