import ActorMVVM

/// Owns navigation: a stack of screens (the root never pops) and at most one
/// modal. Features never navigate; they emit outputs, and each screen type
/// turns its outputs into navigation (``AppScreen/handle(_:in:)``), as the
/// interview article's navigators did. The coordinator names no screen: the
/// first screen, routes that go through login first and deep links are the
/// app's ``AppFlow``'s.
///
/// - **Isolation:** an actor. Every navigation change is one isolated step,
///   so concurrent callers (deep links, opens, backs, feature outputs) can
///   never leave the stack below its root or stack two modals.
/// - **Lifetime:** pushing or presenting a route builds its feature from the
///   ``AppContainer`` and starts it; popping or dismissing finishes that
///   feature (effects cancelled, streams ended) and stops listening to it.
/// - **Observation:** ``navigation`` (a ``StateRelay``, starting with the
///   current state) and ``events`` (an ``EventRelay`` of each change), both
///   asynchronous; ``observe(_:)`` for a view layer that needs every
///   navigation and output in order, synchronously.
/// - **Lifecycle:** ``Lifecycle``: idle until ``start()``, running, then
///   finished by ``finish()`` for good. After `finish()` begins, every
///   command and every navigation a late output would cause is refused:
///   nothing changes, no screen is built, and observers get
///   ``Change/refused(_:)`` naming what was refused.
/// - **Quiescence:** ``settle()`` (for tests and drivers: wait until every
///   screen is idle and every output handled). Navigation never waits on
///   it. (A driver on virtual time needs no help from the coordinator: the
///   test clock and the REPL's clock know when nothing can run.)
public actor AppCoordinator {
  struct Entry {
    let route: Route
    let screen: Screen
    let listener: Task<Void, Never>
    let progress: Progress
  }

  /// Outputs handled across all screens; part of what `settle` watches.
  private var handledOutputs = 0
  /// Listeners of ended screens, still returning.
  private var retiring: [Task<Void, Never>] = []
  /// Called on this actor for each navigation change and output (see ``observe(_:)``).
  private var observers: [@Sendable (Change) -> Void] = []

  /// One thing that happened, as an observer sees it.
  public enum Change: Sendable {
    /// The stack or the modal changed (or a URL was opened); the state after it.
    case navigation(NavigationEvent, NavigationState)
    /// A screen emitted an output, about to be handled.
    case output(Route, any Sendable)
    /// A command or navigation refused because the coordinator has
    /// finished (`"open(weather)"`): nothing changed.
    case refused(String)
  }

  /// Where the coordinator is in its life: idle → running → finished.
  public enum Lifecycle: Sendable, Equatable {
    /// Made, not started.
    case idle
    /// Started: navigation works.
    case running
    /// ``finish()`` has begun: everything is refused from now on.
    case finished
  }

  /// Where the coordinator is in its life.
  public private(set) var lifecycle = Lifecycle.idle

  /// Whether a step may go ahead: true until ``finish()`` begins; after
  /// that false, and observers hear that `what` was refused
  /// (``Change/refused(_:)``). A flow calls it before a step of its own
  /// that is not navigation (storing a session), so a late output changes
  /// nothing; the coordinator's own steps already call it.
  public func accepts(_ what: @autoclosure () -> String) -> Bool {
    guard lifecycle == .finished else { return true }
    report(.refused(what()))
    return false
  }

  /// Calls `observer` for every navigation change and every screen output
  /// from now on, as long as the coordinator lives: a view layer's log.
  ///
  /// - **Isolation:** `observer` runs on this actor, synchronously, inside
  ///   the step that made the change, so it sees changes in the order they
  ///   happened and each navigation with the state right after it. It must
  ///   not block; store what it needs and render later.
  /// - **Ordering:** an output is reported before its handler runs, so the
  ///   navigation it causes follows it.
  public func observe(_ observer: @escaping @Sendable (Change) -> Void) {
    observers.append(observer)
  }

  private func report(_ change: Change) {
    for observer in observers { observer(change) }
  }

  public let container: AppContainer
  /// The app's rules: its first screen, its rerouted routes, its deep links.
  public nonisolated let flow: any AppFlow
  private var stack: [Entry] = []
  private var modal: Entry?

  /// The navigation state: current value first, then every change.
  public nonisolated let navigation: StateRelay<NavigationState>
  /// Every navigation change, in order.
  public nonisolated let events: EventRelay<NavigationEvent>

  /// A coordinator of `flow`'s app, building screens from `container`;
  /// idle until ``start()``.
  public init(container: AppContainer, flow: any AppFlow) {
    self.container = container
    self.flow = flow
    navigation = StateRelay(NavigationState(), counters: container.configuration.counters)
    events = EventRelay(counters: container.configuration.counters)
  }

  /// The state right now.
  public var state: NavigationState { NavigationState(stack: stack.map(\.route), modal: modal?.route) }

  /// The screen on top (the modal if any).
  public var topScreen: Screen? { (modal ?? stack.last)?.screen }

  /// Screens alive right now, root first, modal last.
  public var screens: [(Route, Screen)] { (stack + (modal.map { [$0] } ?? [])).map { ($0.route, $0.screen) } }

  /// The root screen's feature, if it runs `machine` (a flow's way to reach
  /// its home screen).
  public func rootFeature<Machine: StateMachine>(_ machine: Machine.Type) -> Feature<Machine>? {
    stack.first?.screen.feature(machine)
  }

  /// The flow, if it is of type `type`: how a screen reaches its app's
  /// flow from ``AppScreen/handle(_:in:)``. Nil when the coordinator runs
  /// another app's flow.
  public nonisolated func flow<Flow: AppFlow>(_ type: Flow.Type) -> Flow? { flow as? Flow }

  // MARK: Commands

  /// Starts the app: running from now on; the flow shows the first screen.
  public func start() async {
    guard accepts("start()") else { return }
    lifecycle = .running
    await flow.start(in: self)
  }

  /// Opens `route` from wherever the user is, unless the flow takes it
  /// (``AppFlow/open(_:in:)``: the interview app sends a route that needs
  /// a member through login first); then ``show(_:screen:)``.
  public func open(_ route: Route) async {
    guard accepts("open(\(route))") else { return }
    guard await flow.open(route, in: self) == .show else { return }
    await show(route)
  }

  /// Shows `route` as its screen type says, asking the flow nothing: a
  /// root replaces the stack, a modal replaces any modal, a push first
  /// dismisses the modal. `screen`, if given, is used instead of building
  /// one from the ``container`` (a screen made from data the caller has).
  public func show(_ route: Route, screen: Screen? = nil) async {
    guard accepts("show(\(route))") else { return }
    switch route.screen.presentation {
    case .root: await setRoot(route, screen: screen)
    case .modal: await present(route, screen: screen)
    case .push:
      await dismissModal()
      await push(route, screen: screen)
    }
  }

  /// Goes back one screen: dismisses the modal, else pops. Returns false at the root.
  @discardableResult
  public func back() async -> Bool {
    guard accepts("back()") else { return false }
    if modal != nil {
      await dismissModal()
      return true
    }
    guard stack.count > 1 else { return false }
    await pop()
    return true
  }

  /// Dismisses the modal and pops to the root.
  public func dismissToMain() async {
    guard accepts("dismissToMain()") else { return }
    await dismissModal()
    while stack.count > 1 { await pop() }
  }

  /// What became of a deep link.
  public enum DeepLinkDisposition: Sendable, Equatable {
    /// A screen received it and decided where it leads.
    case delivered
    /// No screen can take it yet (nobody logged in, or a stored session
    /// still being checked): the flow kept it to deliver later.
    case kept
    /// The coordinator has finished: the link was dropped.
    case refused
  }

  /// Hands a link to the flow (``AppFlow/handle(deepLink:in:)``), which
  /// reads it and decides where it leads.
  /// - Throws: the flow's error for a link it cannot read (the interview
  ///   app's `DeepLinkError`); nothing navigates.
  @discardableResult
  public func handle(deepLink text: String) async throws -> DeepLinkDisposition {
    guard accepts("deeplink") else { return .refused }
    return try await flow.handle(deepLink: text, in: self)
  }

  /// Finishes every screen, top first, and ends the relays.
  public func finish() async {
    guard lifecycle != .finished else { return }
    lifecycle = .finished
    await dismissModal()
    while let entry = stack.popLast() { await end(entry) }
    await awaitRetired()
    publish()
    navigation.finish()
    events.finish()
  }

  /// Returns once every live screen is idle and every output it emitted
  /// has been handled, including the screens that handling opened: the
  /// REPL's step between two commands, which keeps scripts deterministic.
  /// Screens with effects that never end keep it waiting.
  public func settle() async {
    while true {
      let before = (state, handledOutputs)
      for entry in stack + (modal.map { [$0] } ?? []) {
        await entry.screen.idle()
        await entry.progress.wait(until: entry.screen.emittedOutputCount)
      }
      await awaitRetired()
      if before == (state, handledOutputs) { return }
    }
  }

  // MARK: Navigation steps

  private func setRoot(_ route: Route, screen: Screen?) async {
    guard accepts("setRoot(\(route))") else { return }
    await dismissModal()
    while let entry = stack.popLast() { await end(entry) }
    stack = [await begin(route, screen: screen)]
    emit(.setRoot(route))
  }

  private func push(_ route: Route, screen: Screen?) async {
    guard accepts("push(\(route))") else { return }
    stack.append(await begin(route, screen: screen))
    emit(.push(route))
  }

  /// Pops the top of the stack (under any modal), if it is not the root.
  /// Returns whether it popped.
  @discardableResult
  public func pop() async -> Bool {
    guard stack.count > 1, let entry = stack.popLast() else { return false }
    await end(entry)
    emit(.pop(entry.route))
    return true
  }

  private func present(_ route: Route, screen: Screen?) async {
    guard accepts("present(\(route))") else { return }
    await dismissModal()
    modal = await begin(route, screen: screen)
    emit(.present(route))
  }

  /// Dismisses the modal, if there is one.
  public func dismissModal() async {
    guard let entry = modal else { return }
    modal = nil
    await end(entry)
    emit(.dismiss(entry.route))
  }

  private func emit(_ event: NavigationEvent) {
    publish()
    report(.navigation(event, state))
    events.accept(event)
  }

  private func reportOutput(_ route: Route, _ output: any Sendable) { report(.output(route, output)) }

  private func publish() { navigation.accept(state) }

  /// Builds the route's feature, listens to its outputs, starts it.
  private func begin(_ route: Route, screen: Screen? = nil) async -> Entry {
    let screen = if let screen { screen } else { await container.makeScreen(route) }
    let progress = Progress()
    return Entry(
      route: route, screen: screen, listener: listen(to: screen, route: route, progress: progress), progress: progress)
  }

  /// Finishes the screen. Its listener is not awaited here — this may run
  /// inside that very listener (a login dismissing itself) — but kept in
  /// ``retiring`` for `settle` and `finish` to await.
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

  private func countHandled() { handledOutputs += 1 }

  // MARK: Outputs → navigation

  /// Listens to the screen's outputs, then sends its first input.
  private func listen(to screen: Screen, route: Route, progress: Progress) -> Task<Void, Never> {
    func start<Kind: AppScreen>(_ screen: Kind) -> Task<Void, Never> {
      let listener = relay(screen.feature.outputValues, progress: progress) { coordinator, output in
        await coordinator.reportOutput(route, output)
        await Kind.handle(output, in: coordinator)
      }
      if let input = screen.firstInput { screen.feature.send(input) }  // after subscribing to its outputs
      return listener
    }
    return start(screen.base)
  }

  /// Runs `handle` for each output until the feature finishes, counting
  /// each one handled.
  private nonisolated func relay<Outputs: AsyncSequence & Sendable>(
    _ outputs: Outputs, progress: Progress,
    _ handle: @escaping @Sendable (AppCoordinator, Outputs.Element) async -> Void
  ) -> Task<Void, Never> where Outputs.Failure == Never {
    Task { [weak self] in
      for await output in outputs {
        guard let self else { return }
        await handle(self, output)
        await self.countHandled()
        progress.handledOne()
      }
    }
  }

  /// Reports that `url` should open outside the app (a browser): an
  /// ``NavigationEvent/openURL(_:)`` for observers; the stack is unchanged.
  public func openURL(_ url: String) {
    guard accepts("openURL") else { return }
    report(.navigation(.openURL(url), state))
    events.accept(.openURL(url))
  }
}
