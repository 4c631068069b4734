import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMSupport
import DirectionsFeature

/// A command's name and usage line, and for a global command its aliases
/// and whether it takes words after its name.
struct CommandSpec: Sendable {
  let name: String
  let usage: String
  var aliases: [String] = []
  var takesNoArguments = false

  /// The name and its aliases.
  var names: [String] { [name] + aliases }
}

/// A command a screen takes: its spec and what it does. The action reads
/// its words through ``CommandArguments``, which throws the usage line for
/// words it cannot take, so a bad line changes nothing.
struct ScreenCommand: Sendable {
  let spec: CommandSpec
  let run: @Sendable (CommandArguments) async throws(ReplError) -> Void

  /// A command; `usage` defaults to the bare name (a command without words).
  init(
    _ name: String, usage: String? = nil, _ run: @escaping @Sendable (CommandArguments) async throws(ReplError) -> Void
  ) {
    spec = CommandSpec(name: name, usage: usage ?? name)
    self.run = run
  }
}

extension ScreenCommand {
  /// A command that takes no words and sends `input` to `feature`.
  static func sending<Machine: StateMachine>(
    _ name: String, _ input: Machine.Input, to feature: Feature<Machine>
  ) -> ScreenCommand {
    ScreenCommand(name) { arguments throws(ReplError) in
      try arguments.none()
      feature.send(input)
    }
  }
}

/// The words after a screen command's name, read the way its usage says.
struct CommandArguments: Sendable {
  /// Everything after the name, trimmed.
  let rest: String
  let usage: String
  /// Why the command may change nothing, if the command knows: printed
  /// with its `· no change` (`· no change: no route yet …`).
  let reason = Locked<String?>(nil)

  init(rest: String, usage: String) {
    self.rest = rest
    self.usage = usage
  }

  /// Says why this command is expected to change nothing.
  func noChange(because why: String) { reason.withLock { $0 = why } }

  private var words: [String] { Words.split(rest) }
  private var usageError: ReplError { .usage(usage) }

  /// No words at all.
  func none() throws(ReplError) { if !rest.isEmpty { throw usageError } }

  /// Some text (not empty).
  func text() throws(ReplError) -> String {
    guard !rest.isEmpty else { throw usageError }
    return rest
  }

  /// One integer, within `range` if given.
  func int(in range: ClosedRange<Int>? = nil) throws(ReplError) -> Int {
    guard words.count == 1, let value = Int(words[0]), range?.contains(value) ?? true else { throw usageError }
    return value
  }

  /// A latitude and a longitude, in range.
  func coordinate() throws(ReplError) -> Coordinate {
    let words = self.words
    guard words.count == 2, let lat = Double(words[0]), let lng = Double(words[1]), (-90...90).contains(lat),
      (-180...180).contains(lng)
    else { throw usageError }
    return Coordinate(latitude: lat, longitude: lng)
  }
}
