import ActorMVVMRuntimeShims

/// Feeds inputs from a running effect back into its feature's mailbox.
///
/// ``Send`` is `Sendable` and never suspends: call it from any task or
/// thread. Each value is stamped with the generation of the effect run that
/// made it; when the input reaches the mailbox it is reduced only if that
/// run is still current (not cancelled, not superseded by a newer run with
/// the same id, and the feature not finished). Otherwise it is discarded
/// and counted (``Feature/discardedEffectInputCount``).
///
/// **Use it while the operation runs.** A run ends when its operation
/// returns; an input sent through its ``Send`` after that (a completion
/// handler that fires later, `DispatchQueue.main.asyncAfter { send(…) }`)
/// is discarded and counted in ``Feature/lateEffectInputCount``, and
/// `FeatureTester` fails the test that does it. Bridge a callback by
/// awaiting it instead:
///
/// ```swift
/// return .run { send in
///   let data = await withCheckedContinuation { continuation in
///     legacyLoad { continuation.resume(returning: $0) }
///   }
///   send(.loaded(data))
/// }
/// ```
public struct Send<Input: Sendable>: Sendable {
  @usableFromInline let run: EffectRunToken<Input>

  @inlinable
  init(run: EffectRunToken<Input>) { self.run = run }

  /// Sends `input` back to the feature.
  @inlinable
  public func callAsFunction(_ input: Input) {
    run.send(input)
  }
}

/// One started effect run, as its ``Send`` sees it: its generation, where its
/// inputs go, and whether its operation has returned.
///
/// The generation and sink are the buffer's header, written once by
/// ``make(generation:sink:)`` and never again; the "returned" flag is its
/// one element, read and written only by C atomics (`ActorMVVMAtomics.h`; an
/// element's address is stable, which an atomic needs). One allocation per run, as before.
///
/// `@unchecked Sendable` is safe because the header is immutable once made
/// (no other file names `EffectRunTokenStorage`)
/// (published to other threads only through the ``Send`` handed to the run's
/// task, after `make` returns) and the flag is touched only atomically
/// (release by ``markReturned()``, acquire by ``send(_:)``): no plain access
/// can race. `AtomicStressTests.sendRacingReturn` sends from tasks racing the run's
/// return under the thread sanitizer (`Scripts/stress.sh`).
@usableFromInline
struct EffectRunToken<Input: Sendable>: @unchecked Sendable {
  @usableFromInline let storage: EffectRunTokenStorage<Input>

  @inlinable init(storage: EffectRunTokenStorage<Input>) { self.storage = storage }

  @inlinable
  static func make(generation: UInt64, sink: @escaping @Sendable (EffectMessage<Input>) -> Void) -> EffectRunToken {
    let buffer = EffectRunTokenStorage<Input>.create(minimumCapacity: 1) { _ in
      EffectRunTokenHeader(generation: generation, sink: sink)
    }
    let storage = unsafeDowncast(buffer, to: EffectRunTokenStorage<Input>.self)
    storage.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
    return EffectRunToken(storage: storage)
  }

  @inlinable var generation: UInt64 { storage.header.generation }

  @inlinable
  func send(_ input: Input) {
    let returned = storage.withUnsafeMutablePointerToElements { actormvvm_word_load_acquire($0) } != 0
    let header = storage.header
    if returned {
      header.sink(.late(input, generation: header.generation))
    } else {
      header.sink(.sent(input, generation: header.generation))
    }
  }

  /// A token for a mapped effect (``Effect/map(input:output:)``): what
  /// the child run sends is transformed and sent through `parent`, whose
  /// generation and "returned" flag decide whether it lands.
  @inlinable
  static func mapping<ParentInput: Sendable>(
    _ parent: EffectRunToken<ParentInput>, _ transform: @escaping @Sendable (Input) -> ParentInput
  ) -> EffectRunToken {
    make(generation: parent.generation) { message in
      switch message {
      case .sent(let input, _), .late(let input, _): parent.send(transform(input))
      case .ended: break
      }
    }
  }

  /// Called by the run's task once its operation has returned, before it
  /// reports `ended`.
  @inlinable
  func markReturned() { storage.withUnsafeMutablePointerToElements { actormvvm_word_store_release($0, 1) } }
}

/// What an ``EffectRunToken`` holds besides its flag: written once, by `make`.
@usableFromInline
struct EffectRunTokenHeader<Input: Sendable> {
  @usableFromInline let generation: UInt64
  @usableFromInline let sink: @Sendable (EffectMessage<Input>) -> Void

  @inlinable
  init(generation: UInt64, sink: @escaping @Sendable (EffectMessage<Input>) -> Void) {
    self.generation = generation
    self.sink = sink
  }
}

/// The storage of an ``EffectRunToken``: the header, and the flag as its one element.
@usableFromInline
final class EffectRunTokenStorage<Input: Sendable>: ManagedBuffer<EffectRunTokenHeader<Input>, Int> {}

/// What a running effect tells its host.
@usableFromInline
enum EffectMessage<Input: Sendable>: Sendable {
  /// An input from the effect run with this generation.
  case sent(Input, generation: UInt64)
  /// An input sent through the run's ``Send`` after its operation returned:
  /// always discarded.
  case late(Input, generation: UInt64)
  /// The run with this generation has returned; nothing more will come from it.
  case ended(generation: UInt64)
}

/// Which effect run or binding the current task belongs to, if any: how a
/// lifecycle call (`finish()`, `idle()`) made from inside one of a host's
/// own effects knows not to wait for itself.
@usableFromInline
struct EffectScope: Sendable {
  @TaskLocal static var current: EffectScope?

  /// The scope of the current task (not inlinable: task-locals are looked up
  /// behind this call).
  @usableFromInline
  static func ofCurrentTask() -> EffectScope? { current }

  /// Runs `operation` with `scope` as the current task's scope.
  @usableFromInline
  static func with(_ scope: EffectScope, _ operation: () async -> Void) async {
    await $current.withValue(scope) { await operation() }
  }

  /// The host (a feature or tester) that started the run.
  @usableFromInline let host: UInt64
  /// The run's generation, or nil for a binding's task.
  @usableFromInline let generation: UInt64?
  /// The binding's id, or nil for an effect run.
  @usableFromInline let binding: UInt64?
  /// The cause the run was started under (``Cause``), if any.
  @usableFromInline let cause: Cause?

  @inlinable init(host: UInt64, generation: UInt64? = nil, binding: UInt64? = nil, cause: Cause? = nil) {
    self.host = host
    self.generation = generation
    self.binding = binding
    self.cause = cause
  }
}
