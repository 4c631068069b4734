import AppCoordinator
import Storage

/// A field a screen shows: its name and its value.
typealias Field = (name: String, value: JSONValue)

/// The headless view of one kind of screen: the commands it takes and the
/// fields it shows. It renders state and sends inputs; no business logic
/// lives here. Each ``AppScreen`` type conforms in its own file in
/// `Screens/`; a screen type that does not shows no fields and takes only
/// the global commands (a test checks every one in ``AppContainer/screens``
/// does).
protocol ScreenView: AppScreen {
  /// Its commands, in the order `help` lists them; `app` for commands that navigate.
  func commands(in app: AppCoordinator) -> [ScreenCommand]
  /// Every field it shows, in display order.
  func fields() async -> [Field]
  /// Fields it keeps off the view, shown only by `state --all`.
  func hiddenFields() async -> [Field]
}

extension ScreenView {
  func hiddenFields() async -> [Field] { [] }
}

extension Screen {
  /// This screen's view, if its type has one.
  var view: (any ScreenView)? { base as? any ScreenView }

  /// Its commands (none if it has no view).
  func commands(in app: AppCoordinator) -> [ScreenCommand] { view?.commands(in: app) ?? [] }

  /// Its fields (none if it has no view).
  func fields() async -> [Field] { await view?.fields() ?? [] }

  /// Its hidden fields (none if it has no view).
  func hiddenFields() async -> [Field] { await view?.hiddenFields() ?? [] }
}

/// How views write values.
enum FieldValue {
  static func number(_ value: Int) -> JSONValue { .number(Double(value)) }
  static func error(_ value: (any Error)?) -> JSONValue { value.map { .string("\($0)") } ?? .null }
  static func optional<T>(_ value: T?, _ map: (T) -> JSONValue) -> JSONValue { value.map(map) ?? .null }
}
