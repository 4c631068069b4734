import ActorMVVM

/// Runs an app (``CoordinatedApp``): owns a stack of screens (the root
/// never pops) and at most one modal, and obeys the app's flow machine
/// (``AppFlow``). Features never navigate: they emit outputs, the flow
/// turns each into commands, and the coordinator applies them. It names no
/// app and no screen.
///
/// - **Steps:** everything that can navigate — ``start()``, ``open(_:)``,
///   ``back()``, ``handle(deepLink:)``, each screen output — is one *step*,
///   and steps run one at a time, in the order they were asked for: a step
///   reduces its event with the flow, performs the app's chores and builds
///   the screens its commands show (awaiting, in command order), then
///   commits every command at once with no suspension in between, then
///   finishes the screens the commit removed. No step begins before the one
///   before it has committed, so two presents, or a push beside a new root,
///   never interleave: the second sees what the first left.
/// - **Lifetime:** a screen's feature is started when its step commits and
///   finished when it is popped, dismissed or replaced. An output of a
///   screen no longer live when its step's turn comes is dropped.
/// - **Finishing:** ``finish()`` refuses every step from the moment it
///   begins; a step already building when it begins commits nothing, and
///   the screens it built are finished, never shown. Observers get
///   ``NavigationChange/refused(_:)`` naming what was refused.
/// - **Observation:** ``navigation`` (a `StateRelay`, starting with the
///   current state) and ``events`` (an `EventRelay` of each change), both
///   asynchronous; ``observe(_:)`` for a view layer that needs every
///   navigation and output in order, synchronously.
/// - **Causes:** a step runs under the `Cause` of what asked for it —
///   the caller's, for ``open(_:)``, ``back()``, ``handle(deepLink:)``;
///   the output's, for an output (see `Cause`) — so an observer reads
///   `Cause.current` to learn which action a change belongs to, and a
///   screen the step shows gets its first input under it.
/// - **Quiescence:** ``settle()`` (for tests and drivers: wait until every
///   screen is idle and every output handled). Navigation never waits on it.
public actor AppCoordinator<App: CoordinatedApp> {
  struct Entry {
    let route: Route
    let screen: Screen
    let listener: Task<Void, Never>
    let progress: OutputProgress
  }

  /// The app it runs.
  public nonisolated let app: App
  /// What the flow keeps (a route waiting for login, the member), as the
  /// last step left it.
  public private(set) var flowState: App.Flow.State
  /// Where the coordinator is in its life.
  public private(set) var lifecycle = CoordinatorLifecycle.idle

  private var stack: [Entry] = []
  private var modal: Entry?
  /// Outputs handled across all screens; part of what `settle` watches.
  private var handledOutputs = 0
  /// Listeners of ended screens, still returning.
  private var retiring: [Task<Void, Never>] = []
  /// Called on this actor for each navigation change and output (see ``observe(_:)``).
  private var observers: [@Sendable (NavigationChange) -> Void] = []
  /// Whether a step (or `finish`) holds the turn, and who waits for it, in order.
  private var stepping = false
  private var waitingForTurn: [CheckedContinuation<Void, Never>] = []

  /// The navigation state: current value first, then every change.
  public nonisolated let navigation: StateRelay<NavigationState>
  /// Every navigation change, in order.
  public nonisolated let events: EventRelay<NavigationEvent>

  /// A coordinator of `app`; idle until ``start()``.
  public init(_ app: App) {
    self.app = app
    flowState = app.flow.initialState
    navigation = StateRelay(NavigationState(), counters: app.counters)
    events = EventRelay(counters: app.counters)
  }

  /// The state right now (as the last committed step left it).
  public var state: NavigationState { NavigationState(stack: stack.map(\.route), modal: modal?.route) }

  /// The screen on top (the modal if any).
  public var topScreen: Screen? { (modal ?? stack.last)?.screen }

  /// Screens alive right now, root first, modal last.
  public var screens: [(Route, Screen)] { live.map { ($0.route, $0.screen) } }

  private var live: [Entry] { stack + (modal.map { [$0] } ?? []) }

  /// Calls `observer` for every navigation change and every screen output
  /// from now on, as long as the coordinator lives: a view layer's log.
  ///
  /// - **Isolation:** `observer` runs on this actor, synchronously, inside
  ///   the step that made the change, so it sees changes in the order they
  ///   happened and each navigation with the state right after it. It must
  ///   not block; store what it needs and render later.
  /// - **Ordering:** an output is reported before the flow reduces it, so
  ///   the navigation it causes follows it.
  /// - **Causes:** `Cause.current`, read inside `observer`, is the cause
  ///   of the step that made the change (nil if it had none).
  public func observe(_ observer: @escaping @Sendable (NavigationChange) -> Void) {
    observers.append(observer)
  }

  // MARK: Commands

  /// Starts the app: the flow's ``FlowEvent/start`` step shows the first
  /// screen. Only the first call starts; later ones do nothing (after
  /// ``finish()``, they are refused).
  public func start() async {
    guard lifecycle == .idle else {
      if lifecycle == .finished { report(.refused("start()")) }
      return
    }
    lifecycle = .running
    _ = await step("start()", .start)
  }

  /// Asks the flow to open `route` (``FlowEvent/open(_:)``): it shows it,
  /// or reroutes it (the interview app sends a member-only route through
  /// login first).
  public func open(_ route: Route) async {
    _ = await step("open(\(route))", .open(route))
  }

  /// Goes back one screen: dismisses the modal, else pops, and tells the
  /// flow (``FlowEvent/back(from:)``), whose commands follow in the same
  /// step. Returns false at the root (or once finished), where the flow is
  /// not told.
  @discardableResult
  public func back() async -> Bool {
    await turn("back()", refused: false) {
      guard let top = modal ?? (stack.count > 1 ? stack.last : nil) else { return false }
      let command: NavigationCommand<App.Flow.Chore> = modal != nil ? .dismissModal : .pop
      let then = app.flow.reduce(into: &flowState, .back(from: top.route), navigation: state)
      return await apply([command] + then, what: "back()")
    }
  }

  /// Reads `text` as one of the app's links (``AppFlow/parse(deepLink:)``)
  /// and hands it to the flow, which decides where it leads.
  /// - Returns: ``DeepLinkDisposition/delivered`` when the flow's step had
  ///   commands, ``DeepLinkDisposition/kept`` when it had none (the flow
  ///   kept the link for later, or ignored it),
  ///   ``DeepLinkDisposition/refused`` once finished — including by a
  ///   ``finish()`` that began while the link's step performed its chores
  ///   or built its screens (it committed nothing; observers are told
  ///   `refused` too).
  /// - Throws: the flow's error for a text that is not one of its links;
  ///   nothing navigates.
  @discardableResult
  public func handle(deepLink text: String) async throws(App.Flow.LinkError) -> DeepLinkDisposition {
    guard lifecycle != .finished else {
      report(.refused("deeplink"))
      return .refused
    }
    let link = try app.flow.parse(deepLink: text)
    guard let commands = await step("deeplink", .deepLink(link)) else { return .refused }
    return commands == 0 ? .kept : .delivered
  }

  /// Finishes every screen, top first, and ends the relays. From the
  /// moment it begins, every step is refused; it waits for a step already
  /// under way, which then commits nothing. Returns at once if a finish
  /// has already begun.
  public func finish() async {
    guard lifecycle != .finished else { return }
    lifecycle = .finished
    await takeTurn()
    var ended = modal.map { [$0] } ?? []
    ended += stack.reversed()
    modal = nil
    stack = []
    for entry in ended { await end(entry) }
    passTurn()
    await awaitRetired()
    publish()
    navigation.finish()
    events.finish()
  }

  /// Returns once no step is under way or waiting, every live screen is
  /// idle and every output it emitted has been handled, including the
  /// screens that handling opened: the REPL's step between two commands,
  /// which keeps scripts deterministic. Screens with effects that never
  /// end keep it waiting; ``settle(timeout:)`` is the wait for a test that
  /// must fail instead.
  public func settle() async {
    try? await settle(bound: nil)
  }

  /// ``settle()`` for tests: throws `FeatureBusy` naming a screen's
  /// feature and its effects still running once `timeout` has passed for
  /// that screen (real time, counted only once nothing can run), instead
  /// of waiting forever on an effect that never ends.
  public func settle(timeout: Duration) async throws(FeatureBusy) {
    try await settle(bound: timeout)
  }

  private func settle(bound: Duration?) async throws(FeatureBusy) {
    while true {
      let before = (state, handledOutputs)
      for entry in live {
        if let bound { try await entry.screen.idle(timeout: bound) } else { await entry.screen.idle() }
        await entry.progress.wait(until: entry.screen.emittedOutputCount)
      }
      await takeTurn()
      passTurn()
      await awaitRetired()
      if before == (state, handledOutputs) { return }
    }
  }

  // MARK: Steps

  /// One flow step: reduce `event`, apply its commands. Returns how many
  /// commands it had, or nil when refused (before its turn, or by a
  /// ``finish()`` that began while it performed its chores or built its
  /// screens: it committed nothing).
  private func step(_ what: String, _ event: App.Flow.Event) async -> Int? {
    await turn(what, refused: nil) {
      let commands = app.flow.reduce(into: &flowState, event, navigation: state)
      guard await apply(commands, what: what) else { return nil }
      return commands.count
    }
  }

  /// Runs `body` when it is this caller's turn, unless finished (before or
  /// while waiting): then reports `what` refused and returns `refused`.
  private func turn<Result>(
    _ what: String, refused: Result, _ body: () async -> Result
  ) async -> Result {
    guard lifecycle != .finished else {
      report(.refused(what))
      return refused
    }
    await takeTurn()
    defer { passTurn() }
    guard lifecycle != .finished else {
      report(.refused(what))
      return refused
    }
    return await body()
  }

  private func takeTurn() async {
    guard stepping else {
      stepping = true
      return
    }
    await withCheckedContinuation { waitingForTurn.append($0) }
  }

  /// Hands the turn to the first waiter (it stays taken), or frees it.
  private func passTurn() {
    if waitingForTurn.isEmpty {
      stepping = false
    } else {
      waitingForTurn.removeFirst().resume()
    }
  }

  /// Applies one step's commands as one unit: chores and builds first, in
  /// order (awaiting); then, unless ``finish()`` began meanwhile, every
  /// command committed with no suspension; then the removed screens
  /// finished. A stale step finishes what it built and commits nothing.
  /// Returns whether it committed.
  @discardableResult
  private func apply(_ commands: [NavigationCommand<App.Flow.Chore>], what: String) async -> Bool {
    var built: [Int: Screen] = [:]
    for (index, command) in commands.enumerated() where lifecycle != .finished {
      switch command {
      case .perform(let chore): await app.perform(chore)
      case .show(let route, let payload): built[index] = await build(route, with: payload)
      default: break
      }
    }
    guard lifecycle != .finished else {
      for screen in built.values { await screen.finish() }
      report(.refused(what))
      return false
    }
    var ended: [Entry] = []
    for (index, command) in commands.enumerated() {
      commit(command, built: built[index], ending: &ended)
    }
    for entry in ended { await end(entry) }
    return true
  }

  /// Commits one command: synchronous, so a step's commit is atomic. The
  /// routes change by ``NavigationState/apply(_:)`` — the one statement of
  /// each command's rules, which a flow's tests follow too — and the live
  /// screens follow the events it returns, one by one.
  private func commit(_ command: NavigationCommand<App.Flow.Chore>, built: Screen?, ending ended: inout [Entry]) {
    switch command {
    case .send(let payload, let route):
      guard let entry = live.last(where: { $0.route == route }) else { return }
      let sent = entry.screen.send(payload)
      assert(sent, "\(payload) is not an input of \(route)'s machine")
      return
    case .show:
      guard built != nil else { return }  // a screen the step did not build: nothing changes
    case .pop, .dismissModal, .dismissToMain, .openURL, .perform:
      break
    }
    // `built` is there for a show, the only command that sets a root, pushes
    // or presents; `apply` pops and dismisses only what is there.
    var routes = state
    for event in routes.apply(command) {
      switch event {
      case .setRoot(let route):
        ended += stack.reversed()
        stack = [begin(route, screen: built!)]
      case .push(let route):
        stack.append(begin(route, screen: built!))
      case .present(let route):
        modal = begin(route, screen: built!)
      case .pop:
        ended.append(stack.removeLast())
      case .dismiss:
        ended.append(modal!)
        modal = nil
      case .openURL(let url):
        report(.navigation(.openURL(url), state))
        events.accept(.openURL(url))
        continue
      }
      emit(event)
    }
  }

  private func emit(_ event: NavigationEvent) {
    publish()
    report(.navigation(event, state))
    events.accept(event)
  }

  private func report(_ change: NavigationChange) {
    for observer in observers { observer(change) }
  }

  private func publish() { navigation.accept(state) }

  // MARK: Screens

  /// Builds `route`'s screen from the app's dependencies; not started.
  private func build(_ route: Route, with payload: Payload?) async -> Screen {
    func make<Kind: AppScreen>(_ kind: Kind.Type) async -> Screen
    where Kind.Dependencies == App.Dependencies, Kind.AppOutput == App.Flow.Output {
      Screen(await Kind(route: route, with: payload, dependencies: app.dependencies))
    }
    // The app's own list types each kind: its dependencies and outputs are the app's.
    guard let kind = App.screens.first(where: { ObjectIdentifier($0) == ObjectIdentifier(route.screen) }) else {
      preconditionFailure("\(route.screen.name) is not one of \(App.self)'s screens")
    }
    return await make(kind)
  }

  /// Listens to the screen's outputs, then sends its first input.
  private func begin(_ route: Route, screen: Screen) -> Entry {
    let progress = OutputProgress()
    func start<Kind: AppScreen>(_ screen: Kind) -> Task<Void, Never> {
      let feature = screen.feature
      // Subscribed before the first input; outputs the screen emitted before
      // (from its init) never reach this listener, so they count as handled.
      let (emittedBefore, outputs) = feature.outputsWithCauses()
      progress.handled(upTo: emittedBefore)
      let id = ObjectIdentifier(feature)
      // In a test bubble the listener prefers the bubble's counting executor.
      let listener = TaskScope.start(named: "AppCoordinator listener of \(route)") { [weak self] in
        for await caused in outputs {
          guard let self else { return }
          // The output's step runs under the cause it was emitted under.
          await Cause.with(caused.cause) {
            await self.receive(caused.output, as: Kind.appOutput(caused.output), from: route, screen: id)
          }
          // Its number covers the outputs before it, handled or dropped by
          // the screen's bounded output buffering.
          progress.handled(upTo: caused.number)
        }
      }
      if let input = screen.firstInput { screen.feature.send(input) }  // after subscribing to its outputs
      return listener
    }
    return Entry(route: route, screen: screen, listener: start(screen.base), progress: progress)
  }

  /// A screen's output as its flow's: every screen is built from the app's
  /// own typed list (``CoordinatedApp/screens``), whose kinds wrap their
  /// outputs in the flow's `Output`, so the cast cannot fail.
  private static func flowOutput(_ output: some Sendable) -> App.Flow.Output {
    guard let output = output as? App.Flow.Output else {
      preconditionFailure("\(type(of: output)) is not \(App.Flow.Output.self)")
    }
    return output
  }

  /// One output's step: reported, then reduced by the flow — unless its
  /// screen has ended meanwhile.
  private func receive(
    _ output: any Sendable, as appOutput: some Sendable, from route: Route, screen id: ObjectIdentifier
  ) async {
    let what = "output(\(route))"
    _ = await turn(what, refused: ()) {
      guard live.contains(where: { $0.screen.identity == id }) else { return }
      report(.output(route, output))
      let commands = app.flow.reduce(
        into: &flowState, .output(Self.flowOutput(appOutput), from: route), navigation: state)
      await apply(commands, what: what)
    }
    handledOutputs += 1
  }

  /// Finishes the screen. Its listener is not awaited here — this may run
  /// inside that very listener's step (a login dismissing itself) — but
  /// kept in ``retiring`` for `settle` and `finish` to await.
  private func end(_ entry: Entry) async {
    entry.listener.cancel()
    await entry.screen.finish()
    entry.progress.close()
    retiring.append(entry.listener)
  }

  /// Awaits the listeners of ended screens. Never called from a listener.
  private func awaitRetired() async {
    while let listener = retiring.popLast() { await listener.value }
  }
}
