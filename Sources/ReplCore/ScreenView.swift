import AppCoordinator
import Storage

/// A field a screen shows: its name and its value.
typealias Field = (name: String, value: JSONValue)

/// The headless view of one kind of screen: the commands it takes and the
/// fields it shows. It renders state and sends inputs; no business logic
/// lives here. Each ``AppScreen`` type conforms in its own file in
/// `Screens/`; a screen type that does not shows no fields and takes only
/// the global commands (a test checks every one in `InterviewApp.screens`
/// does).
protocol ScreenView: AppScreen {
  /// Whether a user may open it by name (`open`); false for a screen
  /// reached only through another (the intro, a declaration).
  static var opensByName: Bool { get }
  /// Its commands, in the order `help` lists them. They send inputs to the
  /// screen's feature; navigation follows from its outputs.
  func commands() -> [ScreenCommand]
  /// Every field it shows, in display order.
  func fields() async -> [Field]
  /// Fields it keeps off the view, shown only by `state --all`.
  func hiddenFields() async -> [Field]
  /// For each field shown masked (`•••` whatever it holds), a number that
  /// changes when the secret does (a hash, kept in memory, never printed):
  /// how a changed secret is rendered as changed.
  func secretFingerprints() async -> [String: Int]
}

extension ScreenView {
  static var opensByName: Bool { true }
  func hiddenFields() async -> [Field] { [] }
  func secretFingerprints() async -> [String: Int] { [:] }
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

  /// Its fields (none if it has no view).
  func fields() async -> [Field] { await view?.fields() ?? [] }

  /// Its hidden fields (none if it has no view).
  func hiddenFields() async -> [Field] { await view?.hiddenFields() ?? [] }

  /// Its masked fields' fingerprints (none if it has no view).
  func secretFingerprints() async -> [String: Int] { await view?.secretFingerprints() ?? [:] }
}

/// How views write values.
enum FieldValue {
  static func number(_ value: Int) -> JSONValue { .number(Double(value)) }
  static func error(_ value: (any Error)?) -> JSONValue { value.map { .string("\($0)") } ?? .null }
  static func optional<T>(_ value: T?, _ map: (T) -> JSONValue) -> JSONValue { value.map(map) ?? .null }
}
