import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMJobCount
import ActorMVVMStorage
import ActorMVVMSupport
import EmbeddedBackend
import Foundation
import InterviewApp

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
/// **Credit.** Each command runs under a ``Cause`` numbered by the
/// command: the runtime carries it through the inputs the command sends,
/// the transitions they make, the effects those start, the results they
/// send back, the outputs and the navigation they lead to. So every line
/// is credited to the command that caused it, exactly: a line caused by an
/// earlier command than the last one typed names it in full and is timed
/// from it (`+1500ms [city Seoul] weather.locationName = …`; a secret
/// typed in it shows as `•••`).
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
  /// What the coordinator reported since the last render (its
  /// ``AppCoordinator/observe(_:)``), each with the cause of its step.
  private let changes = Inbox<(NavigationChange, Cause?)>()
  /// The cause of the last navigation rendered: the command a screen that
  /// just came on top is credited to.
  private var navigationCause: Cause?
  /// Why the command being handled may change nothing, if it said so.
  private var noChangeReason: String?
  /// The screen on top as last rendered: its view, handed each of its
  /// feature's transitions with its cause. Holding the screen keeps its
  /// feature alive, so no new feature can reuse its identity and be
  /// mistaken for it.
  private var top: ObservedTop?
  /// Every command so far by number (its cause's id), for crediting lines.
  private var commands: [Int: CommandRecord] = [:]
  /// When the last command was entered: the origin of the `+Nms` prefix.
  private var commandStartedVirtual = VirtualClock.Instant()
  private var commandStartedReal = ContinuousClock.now
  /// On real time, set while a command (or the start) is being handled: its
  /// lines are its own instant and carry no `+Nms`, however long rendering
  /// them took; lines the watcher renders later carry the time since.
  private var handlingOnRealTime = false
  /// Real time: the commands whose work has not settled yet, oldest first
  /// (their numbers and why each may change nothing, if it said so).
  private var unsettled: [(number: Int, reason: String?)] = []
  private var commandCount = 0
  /// Real time: the task waiting for the app to settle, if one is.
  private var settling: Task<Void, Never>?

  /// A command, as lines credited to it name it.
  private struct CommandRecord {
    /// Its first word, lower-cased (JSON's `command`).
    let word: String
    /// The line as typed, trimmed, a secret in it masked.
    let shown: String
    let startedVirtual: VirtualClock.Instant
    let startedReal: ContinuousClock.Instant
    /// Lines credited to it.
    var printed = 0
  }

  /// The view on top and what it showed when last rendered.
  private struct ObservedTop {
    let screen: Screen
    let observation: ViewObservation?
    /// What the feature's transitions showed since the last render, each with its cause.
    let transitions: Inbox<(ViewSnapshot, Cause?)>
    var rendered: ViewSnapshot
  }

  /// The cause of the command being handled.
  private var currentCause: Cause { Cause(UInt64(commandCount)) }

  /// A session over `coordinator`. Pass the ``VirtualClock`` the app's
  /// effects sleep on to run on virtual time (scripts, tests); nil runs on
  /// real time. Pass the ``TraceLines`` the app traces into to print them
  /// (`--trace`). `write` receives every line, in order, from the session's actor.
  ///
  /// `width`: where lines are shown in a window, its width in columns
  /// now; `help` is wrapped at word boundaries to it. Nil: never wrapped.
  ///
  /// `outsideWork`: on virtual time, how long (real time) a command may wait
  /// for work the job count cannot see — requests on the real network
  /// (`--live`) — once nothing else can move: the screens' effects are
  /// awaited until they end or the bound passes, and a line says it gave
  /// up. Nil (the default): such work is not waited for, as the embedded
  /// backend's answers are on the virtual clock.
  public init(
    coordinator: AppCoordinator<InterviewApp>, clock: VirtualClock? = nil, trace: TraceLines? = nil,
    format: Format = .text, outsideWork: Duration? = nil, width: (@Sendable () -> Int?)? = nil,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.coordinator = coordinator
    self.width = width
    self.clock = clock
    self.outsideWork = outsideWork
    self.trace = trace
    self.format = format
    let written = self.written
    self.write = { line in
      written.withLock { $0 += 1 }
      write(line)
    }
  }

  /// See ``init(coordinator:clock:trace:format:outsideWork:width:write:)``.
  private let outsideWork: Duration?
  /// The terminal's width now, if there is one: `help` wraps to it.
  private let width: (@Sendable () -> Int?)?

  /// Lines written so far, on any path (a command's, a settling's, a
  /// watcher's): how ``watch(every:then:)`` knows something was printed.
  private let written = Locked(0)

  /// Starts the app and renders its first screen (on virtual time, once
  /// its first requests have landed).
  public func start() async {
    let changes = self.changes
    await coordinator.observe { changes.append(($0, Cause.current)) }
    beginCommand("start")
    handlingOnRealTime = clock == nil
    defer { handlingOnRealTime = false }
    await Cause.with(currentCause) { await coordinator.start() }
    await runUntilSettled()
  }

  /// The name of the screen on top, for a prompt.
  public func currentScreenName() async -> String { await coordinator.state.top?.name ?? "app" }

  /// What Tab completes on the current screen: its commands and the global
  /// ones (key `""`), the screens `open` takes, and the deep-link forms.
  public func completions() async -> [String: [String]] {
    var commands = GlobalCommands.all.flatMap(\.names)
    if let (_, screen) = await currentTop() { commands += screen.commands().map(\.spec.name) }
    return [
      "": commands,
      "open": openableScreens(InterviewApp.screens).map { $0.name },
      "deeplink": InterviewApp.deepLinkExamples,
    ]
  }

  /// Handles one line. Returns false when the line was `quit` (or `exit`).
  public func handle(_ line: String) async -> Bool {
    let trimmed = Words.trimmed(line)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return true }
    beginCommand(trimmed)
    handlingOnRealTime = clock == nil
    defer { handlingOnRealTime = false }
    return await Cause.with(currentCause) { await run(trimmed) }
  }

  /// Runs one command line (trimmed), under its cause.
  private func run(_ line: String) async -> Bool {
    var trimmed = line
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
          if commands[commandCount]?.printed == 0 { acknowledge(command) }
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
        guard let (_, screen) = await currentTop() else { throw ReplError.invalid("no screen is open") }
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
      unsettled.append((commandCount, noChangeReason))
      awaitSettling()
    } else {
      await runUntilSettled()
      if commands[commandCount]?.printed == 0 { acknowledge(command) }
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
      // run too: nothing is runnable (the session's bubble, `Quiescence`;
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
    for entry in unsettled where entry.number <= through {
      guard let record = commands[entry.number], record.printed == 0 else { continue }
      // Not the command's work: no time, no credit.
      switch format {
      case .text:
        let why = entry.reason.map { ": \($0)" } ?? ""
        write(entry.number == commandCount ? "· no change\(why)" : "· no change [\(record.shown)]\(why)")
      case .json:
        write(
          JSONText.object(
            [("type", .string("unchanged")), ("command", .string(record.word))]
              + (entry.reason.map { [("reason", JSONValue.string($0))] } ?? []) + [
                ("ms", .number(Double(Self.milliseconds(ContinuousClock.now - record.startedReal))))
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

  private func beginCommand(_ line: String) {
    noChangeReason = nil
    commandCount += 1
    if let clock { commandStartedVirtual = clock.now } else { commandStartedReal = .now }
    // Named as typed, but for a trailing ` &` (how it was run, not what it is).
    var line = line
    if line.hasSuffix(" &") { line = Words.trimmed(line.dropLast()) }
    let visible = LineEditor.visibleCount(of: Array(line))
    commands[commandCount] = CommandRecord(
      word: Words.command(line).0.lowercased(),
      shown: visible < line.count ? String(line.prefix(visible)) + Secrets.mask : line,
      startedVirtual: commandStartedVirtual, startedReal: commandStartedReal)
    // A command's work does not outlive thousands after it; its record need not either.
    commands.removeValue(forKey: commandCount - 10_000)
  }

  static func milliseconds(_ duration: Duration) -> Int {
    let components = duration.components
    return Int(components.seconds) * 1_000 + Int(components.attoseconds / 1_000_000_000_000_000)
  }

  /// The time since the command, as its lines' prefix ("" at its own instant).
  private var elapsed: Duration {
    if let clock { return commandStartedVirtual.duration(to: clock.now) }
    return handlingOnRealTime ? .zero : .now - commandStartedReal
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

  /// Returns once nothing can happen until the clock moves: nothing of the
  /// session's bubble can run (`ReplApp.withJobCountScope`, or a test's
  /// bubble), so every effect is asleep on the clock, awaits something
  /// outside, or has returned, and every output has been handled.
  /// Known, not polled: however long the real work takes (a slow backend
  /// answer), the instant is rendered once it is done.
  private func waitUntilWaitingOnTime() async {
    _ = await Quiescence.untilIdle()
  }

  // MARK: Rendering

  private func currentTop() async -> (Route, Screen)? {
    await coordinator.screens.last
  }

  /// Renders everything since the last render: navigation and outputs in
  /// the order they happened, then the changed fields of the screen on
  /// top, each line credited to the cause of the transition that made it.
  private func render() async {
    for (traced, cause) in trace?.drain() ?? [] {
      // The trace names causes by number; the session by the command.
      var line = traced
      if let cause, let record = commands[Int(cause.id)], line.hasSuffix(" (caused by \(cause))") {
        line = line.dropLast(" (caused by \(cause))".count) + " (caused by `\(record.shown)`)"
      }
      switch format {
      case .text: emit(line, causedBy: cause)
      case .json: emit(json: [("type", .string("trace")), ("line", .string(line))], causedBy: cause)
      }
    }
    for (change, cause) in changes.drain() {
      switch change {
      case .navigation(let event, let state):
        navigationCause = cause
        switch format {
        case .text: emit("→ \(event)", causedBy: cause)
        case .json:
          emit(
            json: [
              ("type", .string("navigation")), ("event", .string(event.description)),
              ("stack", .array(state.stack.map { .string($0.description) })),
              ("modal", state.modal.map { .string($0.description) } ?? .null),
            ], causedBy: cause)
        }
      case .output(let route, let output):
        let (name, value, text) = Reflect.output(output)
        switch format {
        case .text: emit("\(route.name) ! \(name)" + (text.isEmpty ? "" : ": \(text)"), causedBy: cause)
        case .json:
          emit(
            json: [
              ("type", .string("output")), ("screen", .string(route.name)), ("name", .string(name)), ("value", value),
            ], causedBy: cause)
        }
      case .refused(let what):
        switch format {
        case .text: emit("· refused after the app finished: \(what)", causedBy: cause)
        case .json: emit(json: [("type", .string("refused")), ("command", .string(what))], causedBy: cause)
        }
      }
    }
    guard let (route, screen) = await currentTop() else { return }
    if top?.screen.identity != screen.identity {
      let shown = await observe(screen)
      for field in shown.fields { emitField(route, field, causedBy: navigationCause) }
    }
    // On real time the command's own instant includes its own transitions.
    if handlingOnRealTime { await screen.feature.flush() }
    guard var observed = top else { return }
    var changedBy = [Cause?](repeating: nil, count: observed.rendered.fields.count)
    var latest = observed.rendered
    for (snapshot, cause) in observed.transitions.drain() where snapshot.fields.count == latest.fields.count {
      for index in snapshot.fields.indices where snapshot.differs(at: index, from: latest) { changedBy[index] = cause }
      latest = snapshot
    }
    for index in latest.fields.indices where latest.differs(at: index, from: observed.rendered) {
      emitField(route, latest.fields[index], causedBy: changedBy[index])
    }
    observed.rendered = latest
    top = observed
  }

  /// Starts handing `screen`'s transitions to the session (and stops the
  /// previous top's); returns what it shows now.
  private func observe(_ screen: Screen) async -> ViewSnapshot {
    await top?.observation?.stop()
    let transitions = Inbox<(ViewSnapshot, Cause?)>()
    let (observation, shown) =
      await screen.observeView { transitions.append(($0, $1)) } ?? (nil, ViewSnapshot(fields: [], fingerprints: [:]))
    top = ObservedTop(screen: screen, observation: observation, transitions: transitions, rendered: shown)
    return shown
  }

  private func renderAllFields(hidden: Bool) async {
    guard let (route, screen) = await currentTop() else { return }
    if top?.screen.identity != screen.identity { _ = await observe(screen) }
    await screen.feature.flush()
    guard var observed = top else { return }
    observed.rendered = observed.transitions.drain().last?.0 ?? observed.rendered
    top = observed
    for field in observed.rendered.fields + (hidden ? await screen.hiddenFields() : []) {
      emitField(route, field, causedBy: currentCause)
    }
  }

  private func emitField(_ route: Route, _ field: (String, JSONValue), causedBy cause: Cause?) {
    switch format {
    case .text: emit("\(route.name).\(field.0) = \(Self.cut(JSONText.encode(field.1)))", causedBy: cause)
    case .json:
      emit(
        json: [
          ("type", .string("state")), ("screen", .string(route.name)), ("field", .string(field.0)), ("value", field.1),
        ], causedBy: cause)
    }
  }

  /// One line at the current instant, credited to the command `cause`
  /// names (nil: the command being handled). Text lines after that
  /// command's own instant start with `+Nms `, the time since it; a line
  /// credited to an earlier command than the last one typed names it
  /// (`+1517ms [city Seoul] …`). JSON lines carry `"ms"` always, and
  /// `"command"` when credited to an earlier one.
  private func emit(_ text: String, causedBy cause: Cause? = nil) {
    let (milliseconds, credit) = creditLine(cause)
    let named = credit.map { "[\($0.shown)] " } ?? ""
    write(milliseconds == 0 && credit == nil ? text : "+\(milliseconds)ms \(named)\(text)")
  }

  private func emit(json pairs: [(String, JSONValue)], causedBy cause: Cause? = nil) {
    let (milliseconds, credit) = creditLine(cause)
    write(
      JSONText.object(
        pairs + [("ms", .number(Double(milliseconds)))]
          + (credit.map { [("command", JSONValue.string($0.word))] } ?? [])))
  }

  /// Counts a line for the command it is credited to, and says how long
  /// after that command it lands and, if that is not the command being
  /// handled, which one it is.
  private func creditLine(_ cause: Cause?) -> (milliseconds: Int, command: CommandRecord?) {
    let number = cause.map { Int($0.id) } ?? commandCount
    guard number != commandCount, let record = commands[number] else {
      commands[commandCount]?.printed += 1
      return (Self.milliseconds(elapsed), nil)
    }
    commands[number]?.printed += 1
    let since = clock.map { record.startedVirtual.duration(to: $0.now) } ?? (.now - record.startedReal)
    return (Self.milliseconds(since), record)
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
    guard let (route, screen) = await currentTop() else { return }
    let commands = screen.commands().map(\.spec.usage)
    let global = GlobalCommands.all.map(\.usage)
    switch format {
    case .text:
      var paragraphs = [
        "\(route.name) commands: " + commands.joined(separator: "; "),
        "global commands: " + global.joined(separator: "; "),
        "deep links: " + Self.deepLinkForms, "end a command with \" &\" to type the next one while it runs",
      ]
      if route.opens(LoginScreen.self) { paragraphs.insert(Self.demoMembersLine, at: 1) }
      let columns = width?() ?? nil
      for paragraph in paragraphs {
        for line in columns.map({ Words.wrap(paragraph, width: $0) }) ?? [paragraph] { emit(line) }
      }
    case .json:
      emit(
        json: [
          ("type", .string("help")), ("screen", .string(route.name)),
          ("commands", .array(commands.map(JSONValue.string))), ("global", .array(global.map(JSONValue.string))),
          ("deepLinks", .array(InterviewApp.deepLinkExamples.map(JSONValue.string))),
        ]
          + (route.opens(LoginScreen.self)
            ? [
              (
                "demoMembers",
                .array(
                  EmbeddedBackend.demoMembers.map { .object(["id": .string($0.id), "password": .string($0.password)]) })
              )
            ] : []))
    }
  }

  /// Who can log in to the embedded interview service, as `help` on the
  /// login screen says (the members are demo data, not secrets).
  static let demoMembersLine =
    "demo members: "
    + EmbeddedBackend.demoMembers.map { "\($0.id) (password \($0.password))" }.joined(separator: ", ")

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

  /// The route `open` names: a screen that opens by name, and its number
  /// if it takes one (`report 101`).
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
