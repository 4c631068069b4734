import ActorMVVM
import AppCoordinator
import EmbeddedBackend
import Foundation
import InterviewApp
import Storage

/// The REPL's core: reads one command at a time, sends it to the current
/// screen (or the coordinator), and renders what happens as it happens:
/// navigation, outputs, and the fields of the screen on top that changed.
/// The view layer only: no business logic.
///
/// **Time.** With a ``VirtualClock`` (scripts), the app runs on virtual
/// time: after a command the session waits until nothing can happen
/// without time moving — known from the runtime's job count, not polled,
/// so however long the real work takes (a slow backend answer) — renders
/// that instant, then moves the clock to the next deadline, and so on
/// until no effect is left. Each instant's lines carry
/// the virtual time since the command (`+300ms `); the command's own
/// instant has none. So a request's loading state shows before its result,
/// and a script prints the same bytes on every run. A command ending in
/// ` &` renders its own instant and returns without moving time (the next
/// command overlaps it); `wait <ms>` moves time forward by that much,
/// rendering each instant on the way. Without a clock (a terminal), time
/// is real: the command's instant renders at once and ``watch(every:then:)``
/// renders later changes as they land.
///
/// **Bad input** prints one `error:` line (the offending text escaped and
/// cut short) and changes nothing. A command that changed nothing visible
/// says so (`· no change`).
public actor ReplSession {
  public enum Format: Sendable { case text, json }

  private let coordinator: AppCoordinator<InterviewApp>
  private let clock: VirtualClock?
  private let trace: TraceLines?
  private let format: Format
  private let write: @Sendable (String) -> Void
  /// What the coordinator reported since the last render (its ``AppCoordinator/observe(_:)``).
  private let changes = Inbox<NavigationChange>()
  /// Why the command being handled may change nothing, if it said so.
  private var noChangeReason: String?
  /// The screen last rendered on top, and its fields as rendered. Holding
  /// the screen keeps its feature alive, so no new feature can reuse its
  /// identity and be mistaken for it.
  private var lastTop: Screen?
  private var lastFields: [(String, JSONValue)] = []
  /// The masked fields' fingerprints when last rendered (see `ScreenView.secretFingerprints()`).
  private var lastFingerprints: [String: Int] = [:]
  /// When the last command was entered: the origin of the `+Nms` prefix.
  private var commandStartedVirtual = VirtualClock.Instant()
  private var commandStartedReal = ContinuousClock.now
  /// Lines rendered since the last command was entered.
  private var renderedSinceCommand = 0
  /// On real time, set while a command (or the start) is being handled: its
  /// lines are its own instant and carry no `+Nms`, however long rendering
  /// them took; lines the watcher renders later carry the time since.
  private var handlingOnRealTime = false
  /// Real time: the commands whose work has not settled yet, oldest first.
  /// A line that lands later is credited to the oldest of them.
  private var unsettled: [Unsettled] = []
  private var commandCount = 0
  /// Real time: the task waiting for the app to settle, if one is.
  private var settling: Task<Void, Never>?

  /// A command on real time whose work may still print.
  private struct Unsettled {
    let number: Int
    let name: String
    let started: ContinuousClock.Instant
    var printed: Int
    /// Why it may change nothing, if it said so.
    let reason: String?
  }

  /// A session over `coordinator`. Pass the ``VirtualClock`` the app's
  /// effects sleep on to run on virtual time (scripts, tests); nil runs on
  /// real time. Pass the ``TraceLines`` the app traces into to print them
  /// (`--trace`). `write` receives every line, in order, from the session's actor.
  ///
  /// `outsideWork`: on virtual time, how long (real time) a command may wait
  /// for work the job count cannot see — requests on the real network
  /// (`--live`) — once nothing else can move: the screens' effects are
  /// awaited until they end or the bound passes, and a line says it gave
  /// up. Nil (the default): such work is not waited for, as the embedded
  /// backend's answers are on the virtual clock.
  public init(
    coordinator: AppCoordinator<InterviewApp>, clock: VirtualClock? = nil, trace: TraceLines? = nil,
    format: Format = .text, outsideWork: Duration? = nil,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.coordinator = coordinator
    self.clock = clock
    self.outsideWork = outsideWork
    // Real time knows a command has settled from the runtime's job count too.
    if clock == nil { _ = Quiescence.install() }
    self.trace = trace
    self.format = format
    let written = self.written
    self.write = { line in
      written.withLock { $0 += 1 }
      write(line)
    }
  }

  /// See ``init(coordinator:clock:trace:format:outsideWork:write:)``.
  private let outsideWork: Duration?

  /// Lines written so far, on any path (a command's, a settling's, a
  /// watcher's): how ``watch(every:then:)`` knows something was printed.
  private let written = Locked(0)

  /// Starts the app and renders its first screen (on virtual time, once
  /// its first requests have landed).
  public func start() async {
    let changes = self.changes
    await coordinator.observe { changes.append($0) }
    beginCommand()
    handlingOnRealTime = clock == nil
    defer { handlingOnRealTime = false }
    await coordinator.start()
    await runUntilSettled()
  }

  /// The name of the screen on top, for a prompt.
  public func currentScreenName() async -> String { await coordinator.state.top?.name ?? "app" }

  /// What Tab completes on the current screen: its commands and the global
  /// ones (key `""`), the screens `open` takes, and the deep-link forms.
  public func completions() async -> [String: [String]] {
    var commands = GlobalCommands.all.flatMap(\.names)
    if let (_, screen) = await top() { commands += screen.commands().map(\.spec.name) }
    return [
      "": commands,
      "open": openableScreens(InterviewApp.screens).map { $0.name },
      "deeplink": InterviewApp.deepLinkExamples,
    ]
  }

  /// Handles one line. Returns false when the line was `quit` (or `exit`).
  public func handle(_ line: String) async -> Bool {
    var trimmed = Words.trimmed(line)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return true }
    beginCommand()
    handlingOnRealTime = clock == nil
    defer { handlingOnRealTime = false }
    var overlapping = false
    if trimmed == "&" || trimmed.hasSuffix("&") && trimmed.dropLast().last?.isWhitespace == true {
      overlapping = true
      trimmed = Words.trimmed(trimmed.dropLast())
    }
    let (first, rest) = Words.command(trimmed)
    guard !first.isEmpty else {
      emitError(ReplError.usage("<command> &").message)
      return true
    }
    let command = first.lowercased()
    do {
      if let global = GlobalCommand.named(command) {
        let spec = global.spec
        if spec.takesNoArguments, !rest.isEmpty { throw ReplError.usage(spec.usage) }
        switch global {
        case .quit: return false
        case .help:
          await help()
          return true
        case .state:
          guard rest.isEmpty || rest == "--all" else { throw ReplError.usage(spec.usage) }
          await renderAllFields(hidden: rest == "--all")
          return true
        case .wait:
          guard let milliseconds = Int(rest), (1...3_600_000).contains(milliseconds) else {
            throw ReplError.usage(spec.usage)
          }
          await wait(milliseconds: milliseconds)
          if renderedSinceCommand == 0 { acknowledge(command) }
          return true
        case .back:
          guard await coordinator.back() else { throw ReplError.invalid("already at the root screen") }
        case .open:
          await coordinator.open(try Self.route(rest))
        case .maintenance:
          try await maintenance(rest, usage: spec.usage)
        case .deeplink:
          guard !rest.isEmpty else { throw ReplError.usage(spec.usage) }
          let disposition: DeepLinkDisposition
          if let link = try? coordinator.app.flow.parse(deepLink: rest) {
            noChangeReason = InterviewApp.whyIgnored(link)
          }
          do {
            disposition = try await coordinator.handle(deepLink: rest)
          } catch {
            throw ReplError.invalid(String(describing: error))
          }
          if disposition == .kept {
            switch format {
            case .text: emit("· deep link kept until login")
            case .json: emit(json: [("type", .string("deeplink")), ("disposition", .string("keptUntilLogin"))])
            }
          }
        }
      } else {
        guard let (_, screen) = await top() else { throw ReplError.invalid("no screen is open") }
        let commands = screen.commands()
        guard let action = commands.first(where: { $0.spec.name == command }) else {
          let all = commands.map(\.spec.name) + GlobalCommands.all.map(\.name)
          let screens = openableScreens(InterviewApp.screens).map { $0.name }
          throw ReplError.unknown(
            first, suggestion: GlobalCommands.suggestion(forCommand: command, among: all, screens: screens),
            commands: all)
        }
        let arguments = CommandArguments(rest: rest, usage: action.spec.usage)
        try await action.run(arguments)
        noChangeReason = arguments.reason.withLock { $0 }
      }
    } catch let error as ReplError {
      emitError(error.message)
      return true
    } catch {
      emitError("\(error)")
      return true
    }
    if overlapping {
      await renderNow()
    } else if clock == nil {
      // Real time: the command's own instant now; its acknowledgement,
      // if nothing it did shows, once the app has settled.
      await renderNow()
      unsettled.append(
        Unsettled(
          number: commandCount, name: command, started: commandStartedReal, printed: renderedSinceCommand,
          reason: noChangeReason))
      awaitSettling()
    } else {
      await runUntilSettled()
      if renderedSinceCommand == 0 { acknowledge(command) }
    }
    return true
  }

  /// Real time: returns once the work of every command handled so far has
  /// settled and its acknowledgement (if any) is printed. For tests; the
  /// terminal never waits.
  public func settled() async {
    while let settling {
      await settling.value
      if self.settling == settling { self.settling = nil }
    }
  }

  /// Real time: waits in a task of its own for the app to settle, then
  /// renders what landed and acknowledges the commands that showed nothing.
  /// One such task at a time; commands handled while it waits are left for
  /// the next.
  private func awaitSettling() {
    guard settling == nil, let through = unsettled.last?.number else { return }
    let coordinator = self.coordinator
    settling = Task {
      // The screens are idle and their outputs handled; then whatever that
      // handling set running (a navigation between two of its steps) has
      // run too: nothing is runnable (the runtime's job count, `Quiescence`;
      // a timer asleep on real time is not runnable).
      await coordinator.settle()
      _ = await Quiescence.untilIdle()
      await coordinator.settle()
      await self.settle(through: through)
    }
  }

  /// The commands up to number `through` have settled.
  private func settle(through: Int) async {
    await render()
    // No suspension from here on: `unsettled` is read and changed in one go.
    for entry in unsettled where entry.number <= through && entry.printed == 0 {
      // Not the command's work: no time, no credit.
      switch format {
      case .text:
        let why = entry.reason.map { ": \($0)" } ?? ""
        write(entry.number == commandCount ? "· no change\(why)" : "· no change [\(entry.name)]\(why)")
      case .json:
        let since = (ContinuousClock.now - entry.started).components
        let milliseconds = Int(since.seconds) * 1_000 + Int(since.attoseconds / 1_000_000_000_000_000)
        write(
          JSONText.object(
            [("type", .string("unchanged")), ("command", .string(entry.name))]
              + (entry.reason.map { [("reason", JSONValue.string($0))] } ?? []) + [
                ("ms", .number(Double(milliseconds)))
              ]))
      }
    }
    unsettled.removeAll { $0.number <= through }
    settling = nil
    awaitSettling()
  }

  /// Finishes every screen cleanly.
  public func finish() async {
    await coordinator.finish()
  }

  /// On real time (no clock): renders whatever changed every `interval`
  /// until the task is cancelled, calling `then` after each tick in which
  /// anything was printed — by this render or by a command's settling — to
  /// redraw the prompt for the screen now on top. Commands handled meanwhile
  /// never wait for the app: their own instant renders at once, and what
  /// lands later is rendered here, prefixed with the time since the command.
  public func watch(every interval: Duration, then: @escaping @Sendable () -> Void) async {
    await watch(every: interval, on: ContinuousClock(), then: then)
  }

  /// ``watch(every:then:)`` with its ticks timed by `clock` (a test's clock).
  public func watch<C: Clock<Duration>>(every interval: Duration, on clock: C, then: @escaping @Sendable () -> Void)
    async
  {
    var seen = written.withLock { $0 }
    while !Task.isCancelled {
      do { try await clock.sleep(for: interval) } catch { return }
      await renderNow()
      // Anything printed since the last tick — by this render or by a
      // command's settling — may have moved the screen on top.
      let now = written.withLock { $0 }
      if now != seen { then() }
      seen = now
    }
  }

  // MARK: Time

  private func beginCommand() {
    renderedSinceCommand = 0
    noChangeReason = nil
    commandCount += 1
    if let clock { commandStartedVirtual = clock.now } else { commandStartedReal = .now }
  }

  /// The time since the command, as its lines' prefix ("" at its own instant).
  private var elapsed: Duration {
    if let clock { return commandStartedVirtual.duration(to: clock.now) }
    return handlingOnRealTime ? .zero : .now - commandStartedReal
  }

  private var elapsedMilliseconds: Int {
    let components = elapsed.components
    return Int(components.seconds) * 1_000 + Int(components.attoseconds / 1_000_000_000_000_000)
  }

  /// Virtual time: renders each instant until no effect is left. Real
  /// time: renders what the command did at once.
  private func runUntilSettled() async {
    guard let clock else { return await renderNow() }
    while true {
      await waitUntilWaitingOnTime()
      await render()
      guard let next = clock.nextDeadline else {
        guard await awaitOutsideWork() else { return }
        continue
      }
      await clock.advance(to: next)
    }
  }

  /// With `outsideWork` set, once nothing can move on virtual time: waits
  /// for the screens' effects still running (requests on the real network)
  /// to end, at most `outsideWork` each; true if there was any to wait for
  /// (the caller looks again), false if none — or if it gave up, which one
  /// line says.
  private func awaitOutsideWork() async -> Bool {
    guard let bound = outsideWork else { return false }
    var waited = false
    for (route, screen) in await coordinator.screens where await screen.feature.activeEffectCount > 0 {
      waited = true
      do {
        try await screen.idle(timeout: bound)
      } catch {
        let message =
          "gave up waiting for \(route.name)'s requests after \(bound) (still running: \(error.runningEffects.joined(separator: ", ")))"
        switch format {
        case .text: emit("· \(message)")
        case .json:
          emit(json: [("type", .string("gaveUp")), ("screen", .string(route.name)), ("message", .string(message))])
        }
        return false
      }
    }
    return waited
  }

  /// `wait <ms>`: moves virtual time forward, rendering each instant on
  /// the way; on real time, waits that long.
  private func wait(milliseconds: Int) async {
    guard let clock else {
      try? await Task.sleep(for: .milliseconds(milliseconds))
      handlingOnRealTime = false  // what it renders now is a later instant
      return await renderNow()
    }
    let target = clock.now.advanced(by: .milliseconds(milliseconds))
    while true {
      await waitUntilWaitingOnTime()
      await render()
      guard let next = clock.nextDeadline, next <= target else { break }
      await clock.advance(to: next)
    }
    await clock.advance(to: target)
    await waitUntilWaitingOnTime()
    await render()
  }

  /// Renders the current instant once it is quiet (virtual time) or at once (real time).
  private func renderNow() async {
    if clock != nil { await waitUntilWaitingOnTime() }
    await render()
  }

  /// Returns once nothing can happen until the clock moves: no job in the
  /// process can run (the runtime's exact count, installed by
  /// ``VirtualClock``), so every effect is asleep on the clock, awaits
  /// something outside, or has returned, and every output has been handled.
  /// Known, not polled: however long the real work takes (a slow backend
  /// answer), the instant is rendered once it is done.
  private func waitUntilWaitingOnTime() async {
    _ = await Quiescence.untilIdle()
  }

  // MARK: Rendering

  private func top() async -> (Route, Screen)? {
    await coordinator.screens.last
  }

  /// Renders everything since the last render: navigation and outputs in
  /// the order they happened, then the changed fields of the screen on top.
  private func render() async {
    for line in trace?.drain() ?? [] {
      switch format {
      case .text: emit(line)
      case .json: emit(json: [("type", .string("trace")), ("line", .string(line))])
      }
    }
    for change in changes.drain() {
      switch change {
      case .navigation(let event, let state):
        switch format {
        case .text: emit("→ \(event)")
        case .json:
          emit(
            json: [
              ("type", .string("navigation")), ("event", .string(event.description)),
              ("stack", .array(state.stack.map { .string($0.description) })),
              ("modal", state.modal.map { .string($0.description) } ?? .null),
            ])
        }
      case .output(let route, let output):
        let (name, value, text) = Reflect.output(output)
        switch format {
        case .text: emit("\(route.name) ! \(name)" + (text.isEmpty ? "" : ": \(text)"))
        case .json:
          emit(
            json: [
              ("type", .string("output")), ("screen", .string(route.name)), ("name", .string(name)), ("value", value),
            ])
        }
      case .refused(let what):
        switch format {
        case .text: emit("· refused after the app finished: \(what)")
        case .json: emit(json: [("type", .string("refused")), ("command", .string(what))])
        }
      }
    }
    guard let (route, screen) = await top() else { return }
    let fields = await screen.fields()
    let fingerprints = await screen.secretFingerprints()
    let same = lastTop?.identity == screen.identity
    let before = same ? lastFields : nil
    let beforeFingerprints = same ? lastFingerprints : [:]
    lastTop = screen
    lastFields = fields
    lastFingerprints = fingerprints
    for (index, field) in fields.enumerated()
    where before?[index].1 != field.1 || beforeFingerprints[field.0] != fingerprints[field.0] {
      emitField(route, field)
    }
  }

  private func renderAllFields(hidden: Bool) async {
    guard let (route, screen) = await top() else { return }
    let fields = await screen.fields()
    lastTop = screen
    lastFields = fields
    lastFingerprints = await screen.secretFingerprints()
    for field in fields + (hidden ? await screen.hiddenFields() : []) { emitField(route, field) }
  }

  private func emitField(_ route: Route, _ field: (String, JSONValue)) {
    switch format {
    case .text: emit("\(route.name).\(field.0) = \(Self.cut(JSONText.encode(field.1)))")
    case .json:
      emit(json: [
        ("type", .string("state")), ("screen", .string(route.name)), ("field", .string(field.0)), ("value", field.1),
      ])
    }
  }

  /// One line at the current instant: text lines after the command's own
  /// instant start with `+Nms `; JSON lines carry `"ms"` always. On real
  /// time a line that lands later is credited to the oldest command still
  /// at work, timed from it, and names it (`+1517ms [login] …`) when it is
  /// not the last command typed.
  private func emit(_ text: String) {
    let (milliseconds, credit) = creditLine()
    let named = credit.map { "[\($0)] " } ?? ""
    write(milliseconds == 0 ? text : "+\(milliseconds)ms \(named)\(text)")
  }

  private func emit(json pairs: [(String, JSONValue)]) {
    let (milliseconds, credit) = creditLine()
    write(
      JSONText.object(
        pairs + [("ms", .number(Double(milliseconds)))] + (credit.map { [("command", JSONValue.string($0))] } ?? [])))
  }

  /// Counts a line, and says how long after its command it lands and which
  /// command to name (nil: the last one typed, or virtual time).
  private func creditLine() -> (milliseconds: Int, command: String?) {
    renderedSinceCommand += 1
    guard clock == nil, !handlingOnRealTime, !unsettled.isEmpty else { return (elapsedMilliseconds, nil) }
    unsettled[0].printed += 1
    let since = ContinuousClock.now - unsettled[0].started
    let milliseconds = Int(since.components.seconds) * 1_000 + Int(since.components.attoseconds / 1_000_000_000_000_000)
    return (max(milliseconds, 1), unsettled[0].number == commandCount ? nil : unsettled[0].name)
  }

  private func emitError(_ message: String) {
    let message = Self.printable(message)
    switch format {
    case .text: emit("error: \(message)")
    case .json: emit(json: [("type", .string("error")), ("message", .string(message))])
    }
  }

  /// For a command that changed nothing on screen: says it was heard (on
  /// real time, ``settle(through:)`` does, once its work has settled).
  private func acknowledge(_ command: String, reason: String? = nil) {
    let reason = reason ?? noChangeReason
    switch format {
    case .text: emit("· no change" + (reason.map { ": \($0)" } ?? ""))
    case .json:
      emit(
        json: [("type", .string("unchanged")), ("command", .string(command))]
          + (reason.map { [("reason", JSONValue.string($0))] } ?? []))
    }
  }

  private func help() async {
    guard let (route, screen) = await top() else { return }
    let commands = screen.commands().map(\.spec.usage)
    let global = GlobalCommands.all.map(\.usage)
    switch format {
    case .text:
      emit("\(route.name) commands: " + commands.joined(separator: "; "))
      emit("global commands: " + global.joined(separator: "; "))
      emit("deep links: " + Self.deepLinkForms)
      emit("end a command with \" &\" to type the next one while it runs")
    case .json:
      emit(
        json: [
          ("type", .string("help")), ("screen", .string(route.name)),
          ("commands", .array(commands.map(JSONValue.string))), ("global", .array(global.map(JSONValue.string))),
          ("deepLinks", .array(InterviewApp.deepLinkExamples.map(JSONValue.string))),
        ])
    }
  }

  /// Every deep-link form, as `help` lists them.
  static let deepLinkForms =
    "deeplink actormvvm://analysis-complete?memIdx=<member>&termNo=<interview> (opens the report when it is the member logged in; e.g. memIdx=1&termNo=101); deeplink actormvvm://expiration?days=1|3|7 (opens My Page); any other link is ignored, and a link that arrives before login waits for it"

  /// `message` safe for a terminal: control characters escaped as `\u{…}`,
  /// at most 300 characters.
  static func printable(_ message: String) -> String {
    var out = ""
    for scalar in message.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return cut(out)
  }

  /// `text` cut to 300 characters, as error lines are (a 100 KB field is
  /// one readable line, not a page).
  static func cut(_ text: String) -> String { text.count > 300 ? String(text.prefix(300)) + "…" : text }

  /// The route `open` names: a screen that opens by name, and its number
  /// if it takes one (`report 101`).
  /// `maintenance on [notice]` puts the embedded interview service under
  /// maintenance (the article's service notice: the intro, on its next
  /// check — `retry`, or a logout's return to it — shows the notice and
  /// stays); `maintenance off` brings it back.
  private func maintenance(_ rest: String, usage: String) async throws(ReplError) {
    let (switchWord, notice) = Words.command(rest)
    let client = coordinator.app.dependencies.configuration.httpClient
    guard let backend = client as? EmbeddedBackend ?? (client as? LiveRouter)?.embedded as? EmbeddedBackend else {
      throw .invalid("maintenance: the interview service here is not the embedded one")
    }
    switch switchWord.lowercased() {
    case "on": await backend.setInterviewMaintenance(notice.isEmpty ? "The service is under maintenance" : notice)
    case "off" where notice.isEmpty: await backend.setInterviewMaintenance(nil)
    default: throw .usage(usage)
    }
  }

  static func route(_ text: String) throws(ReplError) -> Route {
    let words = Words.split(text.lowercased())
    let screens = openableScreens(InterviewApp.screens)
    guard let screen = screens.first(where: { $0.name == words.first }) else {
      if let word = words.first, let near = GlobalCommands.suggestion(for: word, among: screens.map { $0.name }) {
        throw .invalid(
          "no screen \(ReplError.quote(word)); did you mean \"open \(near)\"? usage: \(GlobalCommands.openUsage)")
      }
      throw .usage(GlobalCommands.openUsage)
    }
    guard let parameterName = screen.parameterName else {
      guard words.count == 1 else { throw .usage(GlobalCommands.openUsage) }
      return Route(screen)
    }
    guard words.count == 2, let parameter = Int(words[1]) else {
      throw .usage("open \(screen.name) <\(parameterName)>")
    }
    return Route(screen, parameter: parameter)
  }
}
