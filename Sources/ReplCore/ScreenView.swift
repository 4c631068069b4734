import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage

/// A field a screen shows: its name and its value.
typealias Field = (name: String, value: JSONValue)

/// The headless view of one kind of screen: the commands it takes and the
/// fields it shows. It renders state and sends inputs; no business logic
/// lives here. Each ``AppScreen`` type conforms in its own file in
/// `Screens/`; a screen type that does not shows no fields and takes only
/// the global commands (a test checks every one in `InterviewApp.screens`
/// does).
///
/// What it shows is a pure function of its feature's state: the session
/// does not poll the feature, it is handed each state as a transition
/// makes it, with the ``Cause`` of that transition (``Screen/observeView(_:)``).
protocol ScreenView: AppScreen {
  /// Whether a user may open it by name (`open`); false for a screen
  /// reached only through another (the intro, a declaration).
  static var opensByName: Bool { get }
  /// Its commands, in the order `help` lists them. They send inputs to the
  /// screen's feature; navigation follows from its outputs.
  func commands() -> [ScreenCommand]
  /// Every field it shows for `state`, in display order.
  func fields(of state: Machine.State) -> [Field]
  /// Fields it keeps off the view, shown only by `state --all`.
  func hiddenFields(of state: Machine.State) -> [Field]
  /// For each field shown masked (`•••` whatever it holds), a number that
  /// changes when the secret does (a hash, kept in memory, never printed):
  /// how a changed secret is rendered as changed.
  func secretFingerprints(of state: Machine.State) -> [String: Int]
}

extension ScreenView {
  static var opensByName: Bool { true }
  func hiddenFields(of state: Machine.State) -> [Field] { [] }
  func secretFingerprints(of state: Machine.State) -> [String: Int] { [:] }

  /// What the view shows for `state`.
  func snapshot(of state: Machine.State) -> ViewSnapshot {
    ViewSnapshot(fields: fields(of: state), fingerprints: secretFingerprints(of: state))
  }
}

/// What a view shows for one state: its fields, and its masked fields'
/// fingerprints.
struct ViewSnapshot: Sendable {
  var fields: [Field]
  var fingerprints: [String: Int]

  /// Whether field `index` shows something other than in `other` (the
  /// same fields, of the same view).
  func differs(at index: Int, from other: ViewSnapshot) -> Bool {
    let name = fields[index].name
    return other.fields[index].value != fields[index].value || other.fingerprints[name] != fingerprints[name]
  }
}

/// A view being handed its feature's transitions; `stop()` ends it.
struct ViewObservation: Sendable {
  let stop: @Sendable () async -> Void
}

/// The screens `open` takes, by name, in the app's order.
func openableScreens(_ screens: [any AppScreen.Type]) -> [any ScreenView.Type] {
  screens.compactMap { $0 as? any ScreenView.Type }.filter { $0.opensByName }
}

extension Screen {
  /// This screen's view, if its type has one.
  var view: (any ScreenView)? { base as? any ScreenView }

  /// Its commands (none if it has no view).
  func commands() -> [ScreenCommand] { view?.commands() ?? [] }

  /// Its hidden fields now (none if it has no view).
  func hiddenFields() async -> [Field] {
    guard let view else { return [] }
    func read<View: ScreenView>(_ view: View) async -> [Field] { view.hiddenFields(of: await view.feature.state) }
    return await read(view)
  }

  /// Hands `changed` what the view shows after every transition of the
  /// screen's feature from now on, with its cause, on the feature's actor;
  /// returns what it shows now and how to stop. Nil for a screen without a view.
  func observeView(
    _ changed: @escaping @Sendable (ViewSnapshot, Cause?) -> Void
  ) async -> (ViewObservation, ViewSnapshot)? {
    guard let view else { return nil }
    func observe<View: ScreenView>(_ view: View) async -> (ViewObservation, ViewSnapshot) {
      let feature = view.feature
      let (id, state) = await feature.observeTransitions { changed(view.snapshot(of: $0.state), $0.cause) }
      return (ViewObservation { await feature.stopObservingTransitions(id) }, view.snapshot(of: state))
    }
    return await observe(view)
  }
}

/// How views write values.
enum FieldValue {
  static func number(_ value: Int) -> JSONValue { .number(Double(value)) }
  static func error(_ value: (any Error)?) -> JSONValue { value.map { .string("\($0)") } ?? .null }
  static func optional<T>(_ value: T?, _ map: (T) -> JSONValue) -> JSONValue { value.map(map) ?? .null }
}
