import AppCoordinator
import Storage

/// A field a screen shows: its name and its value.
typealias Field = (name: String, value: JSONValue)

/// The headless view of one kind of screen: the commands it takes and the
/// fields it shows. It renders state and sends inputs; no business logic
/// lives here. One conforming type per screen (in `Screens/`);
/// `Screen.view(coordinator:)` is the one place that maps a live screen to it.
protocol ScreenView: Sendable {
  /// Its commands, in the order `help` lists them.
  var commands: [ScreenCommand] { get }
  /// Every field it shows, in display order.
  func fields() async -> [Field]
  /// Fields it keeps off the view, shown only by `state --all`.
  func hiddenFields() async -> [Field]
}

extension ScreenView {
  func hiddenFields() async -> [Field] { [] }
}

extension Screen {
  /// This screen's view; `coordinator` for commands that navigate.
  func view(coordinator: AppCoordinator) -> any ScreenView {
    switch self {
    case .intro(let feature): IntroView(feature: feature, coordinator: coordinator)
    case .home(let feature): HomeView(feature: feature)
    case .weather(let feature): WeatherView(feature: feature)
    case .login(let feature): LoginView(feature: feature)
    case .findNumber(let feature): FindNumberView(feature: feature)
    case .directions(let feature): DirectionsView(feature: feature)
    case .report(let feature): ReportView(feature: feature)
    case .messages(let feature): MessagesView(feature: feature)
    case .declare(let feature): DeclareView(feature: feature)
    case .myPage(let feature): MyPageView(feature: feature)
    }
  }
}

/// How views write values.
enum FieldValue {
  static func number(_ value: Int) -> JSONValue { .number(Double(value)) }
  static func error(_ value: (any Error)?) -> JSONValue { value.map { .string("\($0)") } ?? .null }
  static func optional<T>(_ value: T?, _ map: (T) -> JSONValue) -> JSONValue { value.map(map) ?? .null }
}
