import ActorMVVM
import AppCoordinator
import Foundation
import InterviewFeature
import Storage

/// The REPL's core: reads one command at a time, sends it to the current
/// screen (or the coordinator), waits until the app has settled, then
/// renders what happened: navigation, outputs, and the fields of the
/// screen on top that changed. The view layer only: no business logic.
///
/// Deterministic by construction: each command's effects finish (the
/// coordinator's `settle`) before anything is rendered, and rendering
/// follows a fixed order, so a script prints the same lines on every run.
/// Bad input prints one error line and changes nothing.
public actor ReplSession {
  public enum Format: Sendable { case text, json }

  private let coordinator: AppCoordinator
  private let format: Format
  private let write: @Sendable (String) -> Void
  /// The screen last rendered on top, and its fields as rendered. Holding
  /// the screen keeps its feature alive, so no new feature can reuse its
  /// identity and be mistaken for it.
  private var lastTop: Screen?
  private var lastFields: [(String, JSONValue)] = []

  public init(coordinator: AppCoordinator, format: Format = .text, write: @escaping @Sendable (String) -> Void) {
    self.coordinator = coordinator
    self.format = format
    self.write = write
  }

  /// Starts the app and renders its first screen.
  public func start() async {
    await coordinator.start()
    await render()
  }

  /// The name of the screen on top, for a prompt.
  public func currentScreenName() async -> String { await coordinator.state.top?.name ?? "app" }

  /// Handles one line. Returns false when the line was `quit`.
  public func handle(_ line: String) async -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return true }
    let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
    let command = parts[0].lowercased()
    let rest = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    do {
      switch command {
      case "quit", "exit":
        return false
      case "help":
        await help()
        return true
      case "state":
        await renderAllFields()
        return true
      case "back":
        guard await coordinator.back() else { throw ReplError.invalid("already at the root screen") }
      case "open":
        await coordinator.open(try Self.route(rest))
      case "deeplink":
        guard !rest.isEmpty else { throw ReplError.usage("deeplink <actormvvm://…>") }
        do {
          try await coordinator.handle(deepLink: rest)
        } catch {
          throw ReplError.invalid(error.description)
        }
      default:
        guard let (route, screen) = await top() else { throw ReplError.invalid("no screen is open") }
        let names = ScreenView.commands(for: route).map(\.name)
        guard names.contains(command) else {
          let all = names + ScreenView.global.map(\.name)
          throw ReplError.unknown(
            command, suggestion: ScreenView.suggestion(for: command, among: all), commands: all)
        }
        try ScreenView.perform(command, rest, on: screen, route: route)
      }
    } catch let error as ReplError {
      emitError(error.message)
      return true
    } catch {
      emitError("\(error)")
      return true
    }
    await render()
    return true
  }

  /// Finishes every screen cleanly.
  public func finish() async {
    await coordinator.finish()
  }

  // MARK: Rendering

  private func top() async -> (Route, Screen)? {
    await coordinator.screens.last
  }

  private func render() async {
    await coordinator.settle()
    for entry in await coordinator.drainLog() {
      switch entry {
      case .navigation(let event, let state):
        switch format {
        case .text: write("→ \(event)")
        case .json:
          write(
            JSONText.object([
              ("type", .string("navigation")), ("event", .string(event.description)),
              ("stack", .array(state.stack.map { .string($0.description) })),
              ("modal", state.modal.map { .string($0.description) } ?? .null),
            ]))
        }
      case .output(let route, let output):
        let (name, value, text) = Reflect.output(output)
        switch format {
        case .text: write("\(route.name) ! \(name)" + (text.isEmpty ? "" : ": \(text)"))
        case .json:
          write(
            JSONText.object([
              ("type", .string("output")), ("screen", .string(route.name)), ("name", .string(name)), ("value", value),
            ]))
        }
      }
    }
    guard let (route, screen) = await top() else { return }
    let fields = await ScreenView.fields(of: screen)
    let sameScreen = lastTop.map { Self.identity(of: $0) == Self.identity(of: screen) } ?? false
    let before = sameScreen ? lastFields : nil
    lastTop = screen
    lastFields = fields
    for (index, field) in fields.enumerated() where before?[index].1 != field.1 {
      emitField(route, field)
    }
  }

  private func renderAllFields() async {
    guard let (route, screen) = await top() else { return }
    let fields = await ScreenView.fields(of: screen)
    lastTop = screen
    lastFields = fields
    for field in fields { emitField(route, field) }
  }

  private func emitField(_ route: Route, _ field: (String, JSONValue)) {
    switch format {
    case .text: write("\(route.name).\(field.0) = \(JSONText.encode(field.1))")
    case .json:
      write(
        JSONText.object([
          ("type", .string("state")), ("screen", .string(route.name)), ("field", .string(field.0)), ("value", field.1),
        ]))
    }
  }

  private func emitError(_ message: String) {
    switch format {
    case .text: write("error: \(message)")
    case .json: write(JSONText.object([("type", .string("error")), ("message", .string(message))]))
    }
  }

  private func help() async {
    guard let (route, _) = await top() else { return }
    let screen = ScreenView.commands(for: route).map(\.usage)
    let global = ScreenView.global.map(\.usage)
    switch format {
    case .text:
      write("\(route.name) commands: " + screen.joined(separator: "; "))
      write("global commands: " + global.joined(separator: "; "))
    case .json:
      write(
        JSONText.object([
          ("type", .string("help")), ("screen", .string(route.name)),
          ("commands", .array(screen.map(JSONValue.string))), ("global", .array(global.map(JSONValue.string))),
        ]))
    }
  }

  static func route(_ text: String) throws(ReplError) -> Route {
    let words = text.lowercased().split(separator: " ").map(String.init)
    let usage = ReplError.usage(ScreenView.global.first { $0.name == "open" }!.usage)
    switch words.first {
    case "weather": return .weather
    case "login": return .login
    case "findnumber": return .findNumber
    case "directions": return .directions
    case "messages": return .messages
    case "mypage": return .myPage
    case "home": return .home
    case "report":
      guard words.count == 2, let termNo = Int(words[1]) else { throw .usage("open report <termNo>") }
      return .report(termNo: termNo)
    default: throw usage
    }
  }

  static func identity(of screen: Screen) -> ObjectIdentifier {
    switch screen {
    case .intro(let feature): ObjectIdentifier(feature)
    case .home(let feature): ObjectIdentifier(feature)
    case .weather(let feature): ObjectIdentifier(feature)
    case .login(let feature): ObjectIdentifier(feature)
    case .findNumber(let feature): ObjectIdentifier(feature)
    case .directions(let feature): ObjectIdentifier(feature)
    case .report(let feature): ObjectIdentifier(feature)
    case .messages(let feature): ObjectIdentifier(feature)
    case .declare(let feature): ObjectIdentifier(feature)
    case .myPage(let feature): ObjectIdentifier(feature)
    }
  }
}
