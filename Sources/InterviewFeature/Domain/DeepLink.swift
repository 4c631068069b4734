import Foundation

/// The app's deep links (`actormvvm://…`), as the article's `TargetType`.
///
/// | link | meaning |
/// |---|---|
/// | `actormvvm://analysis-complete?memIdx=1&termNo=101` | a report is ready for that member |
/// | `actormvvm://expiration?days=1` (1, 3 or 7) | the membership expires soon |
/// | any other `actormvvm://` host (or `days` not 1, 3 or 7) | ignored, as the article's `default: break` |
public enum DeepLink: Equatable, Sendable {
  /// Missing parameters stay nil; the home screen then dismisses to main, as the article's guard does.
  case analysisComplete(memIdx: Int?, termNo: Int?)
  case expiration1d, expiration3d, expiration7d
  case other(String)

  public static let scheme = "actormvvm"

  /// One example of every form, as `help` and Tab completion show them.
  public static let examples = [
    "actormvvm://analysis-complete?memIdx=1&termNo=101",
    "actormvvm://expiration?days=1", "actormvvm://expiration?days=3", "actormvvm://expiration?days=7",
  ]

  /// Parses a link.
  /// - Throws: ``DeepLinkError`` when it is not an `actormvvm://` URL or a
  ///   parameter is present but not a number.
  public init(parsing text: String) throws(DeepLinkError) {
    guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
      components.scheme?.lowercased() == Self.scheme, let host = components.host, !host.isEmpty
    else { throw .malformed(text) }
    func number(_ name: String) throws(DeepLinkError) -> Int? {
      guard let value = components.queryItems?.first(where: { $0.name == name })?.value else { return nil }
      guard let number = Int(value) else { throw .badParameter(name: name, value: value) }
      return number
    }
    switch host.lowercased() {
    case "analysis-complete":
      self = .analysisComplete(memIdx: try number("memIdx"), termNo: try number("termNo"))
    case "expiration":
      switch try number("days") {
      case 1: self = .expiration1d
      case 3: self = .expiration3d
      case 7: self = .expiration7d
      default: self = .other(host)
      }
    default:
      self = .other(host)
    }
  }
}

/// A link that could not be read; nothing navigates.
public enum DeepLinkError: Error, Equatable, Sendable, CustomStringConvertible {
  case malformed(String)
  case badParameter(name: String, value: String)

  public var description: String {
    switch self {
    case .malformed(let text): "not an actormvvm:// link: \(text)"
    case .badParameter(let name, let value): "deep link parameter \(name) must be a number, not \"\(value)\""
    }
  }
}
