import ActorMVVMSupport

/// An opt-in trace of what a ``Feature`` does: Rx's `.debug()` for a whole
/// screen. Pass one to `Feature(_:initialState:trace:)`.
///
/// ```swift
/// let weather = Feature(WeatherMachine(…), initialState: .init(), trace: .printing("weather"))
/// // [weather] input cityEntered("Seoul")
/// // [weather]   state isLoading: false → true
/// // [weather]   effect #1 superseded (id: lookup)
/// // [weather]   effect #2 started (id: lookup)
/// // [weather]   stale result dropped: loaded(…)
/// ```
///
/// - **Events**, in the order the feature handles them: each input, then
///   the state fields it changed, the runs it started, superseded or
///   cancelled and the outputs it emitted; runs ending, and results of
///   superseded or cancelled runs (or sent late) being dropped, as their messages reach
///   the mailbox.
/// - **Isolation.** The sink is called on the feature's actor, inside its
///   transition: keep it short (the printer formats and prints one line).
/// - **Causes.** While the sink handles a transition caused by a
///   ``Cause`` (an input sent under one, or a result of a run started by
///   one), ``Cause/current`` is that cause.
/// - **Secrets.** Field changes arrive as text in which the values of
///   fields named like secrets (password, token, secret, key,
///   authorization: ``Secrets/isSecret(_:)``, the rule the REPL and the
///   network log use) are masked; the printer describes inputs and outputs
///   the same way (``Secrets/describe(_:)``). Inputs and outputs reach a
///   custom sink as values: redact before printing them.
/// - **Cost.** Off (nil, the default), a feature pays one branch per
///   input; on, a copy and a reflection-based diff of the state per input.
public struct FeatureTrace<Machine: StateMachine>: Sendable {
  /// One thing the feature did.
  public enum Event: Sendable {
    /// An input about to be reduced (sent, bound or fed back by a run).
    case input(Machine.Input)
    /// The fields the last input changed, redacted.
    case stateChanged([FieldChange])
    /// A run started, was superseded or cancelled, or ended.
    case effect(EffectRunEvent)
    /// A result from a run that was superseded or cancelled: not reduced.
    case staleResultDropped(Machine.Input)
    /// A result sent through a run's ``Send`` after its operation returned:
    /// not reduced (await the callback inside the operation instead).
    case lateResultDropped(Machine.Input)
    /// An output emitted to subscribers.
    case output(Machine.Output)
  }

  /// One changed state field: its path (`route.start.latitude`) and both
  /// values as text, masked if the field is a secret.
  public struct FieldChange: Sendable, Equatable {
    /// The field's path from the state, by stored property names.
    public let path: String
    /// The value before the input, as text (masked if secret).
    public let old: String
    /// The value after the input, as text (masked if secret).
    public let new: String

    /// A change of the field at `path` from `old` to `new`.
    public init(path: String, old: String, new: String) {
      self.path = path
      self.old = old
      self.new = new
    }
  }

  @usableFromInline let sink: @Sendable (Event) -> Void

  /// A trace that hands every event to `sink`, on the feature's actor.
  public init(_ sink: @escaping @Sendable (Event) -> Void) {
    self.sink = sink
  }

  /// A trace that writes one line per event, prefixed `[name]`, to `write`
  /// (standard output by default), with secrets masked. An input reduced
  /// under a ``Cause`` says so: `input cityEntered("Seoul") (caused by #7)`.
  public static func printing(
    _ name: String, to write: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> FeatureTrace {
    FeatureTrace { event in
      var line = "[\(name)] " + describe(event)
      if case .input = event, let cause = Cause.current { line += " (caused by \(cause))" }
      write(line)
    }
  }

  /// The printer's line for `event` (without its prefix).
  public static func describe(_ event: Event) -> String {
    switch event {
    case .input(let input): "input \(Secrets.describe(input))"
    case .stateChanged(let changes):
      "  state "
        + changes.map { "\($0.path.isEmpty ? "(value)" : $0.path): \($0.old) → \($0.new)" }
        .joined(separator: ", ")
    case .effect(let run):
      switch run {
      case .started(let number, let id): "  effect #\(number) started" + suffix(id)
      case .superseded(let number, let id): "  effect #\(number) superseded" + suffix(id)
      case .cancelled(let number, let id): "  effect #\(number) cancelled" + suffix(id)
      case .ended(let number, let id): "  effect #\(number) ended" + suffix(id)
      }
    case .staleResultDropped(let input): "  stale result dropped: \(Secrets.describe(input))"
    case .lateResultDropped(let input): "  late result dropped: \(Secrets.describe(input))"
    case .output(let output): "  output \(Secrets.describe(output))"
    }
  }

  static func suffix(_ id: String?) -> String { id.map { " (id: \($0))" } ?? "" }

  /// The redacted field changes from `old` to `new`: a field under a
  /// secret path is masked whole; any other value is described by
  /// ``Secrets/describe(_:)``, which masks what it holds (an optional that
  /// became a value, an enum case with a payload, collections, dictionaries).
  static func changes(from old: Machine.State, to new: Machine.State) -> [FieldChange] {
    StateDiff.changes(from: old, to: new, describe: Secrets.describe).map { change in
      let secret = change.path.split(separator: ".").contains { Secrets.isSecret(String($0)) }
      return FieldChange(
        path: change.path, old: secret ? Secrets.mask : change.old, new: secret ? Secrets.mask : change.new)
    }
  }
}
