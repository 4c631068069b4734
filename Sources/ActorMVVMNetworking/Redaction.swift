import ActorMVVM
import Foundation

/// Removes secrets from what may be printed or logged: query values of
/// key, token, secret and password parameters, API-key and authorization
/// headers, and JSON string fields with such names in body snippets.
public enum Redaction {
  /// What a secret is replaced with.
  public static let mask = Secrets.mask

  /// Whether a query parameter, header or JSON field of this name holds a secret.
  public static func isSecret(_ name: String) -> Bool { Secrets.isSecret(name) }

  /// `url` with the values of secret query parameters masked.
  public static func redact(url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let items = components.queryItems
    else { return url.absoluteString }
    components.queryItems = items.map { item in
      isSecret(item.name) ? URLQueryItem(name: item.name, value: mask) : item
    }
    return components.string ?? url.absoluteString
  }

  /// Header fields with secret values masked.
  public static func redact(headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
    headers.map { isSecret($0.name) ? ($0.name, mask) : $0 }
  }

  /// The first `limit` characters of `body` as text, with secret JSON string
  /// fields masked and whitespace folded.
  public static func snippet(of body: Data, limit: Int = 160) -> String {
    var text = String(decoding: body, as: UTF8.self)
    text = redactJSONFields(in: text)
    text = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return text.count > limit ? String(text.prefix(limit)) + "…" : text
  }

  /// Masks `"name": "value"` pairs whose name is a secret.
  static func redactJSONFields(in text: String) -> String {
    var output = ""
    var rest = Substring(text)
    while let nameStart = rest.firstIndex(of: "\"") {
      output += rest[..<nameStart]
      rest = rest[rest.index(after: nameStart)...]
      guard let nameEnd = rest.firstIndex(of: "\"") else {
        output += "\"" + rest
        return output
      }
      let name = rest[..<nameEnd]
      output += "\"" + name + "\""
      rest = rest[rest.index(after: nameEnd)...]
      // A field name is followed by optional spaces and a colon, then a string value.
      let afterName = rest.drop { $0 == " " }
      guard isSecret(String(name)), afterName.first == ":" else { continue }
      let afterColon = afterName.dropFirst().drop { $0 == " " }
      guard afterColon.first == "\"" else { continue }
      var index = afterColon.index(after: afterColon.startIndex)
      while index < afterColon.endIndex, afterColon[index] != "\"" {
        if afterColon[index] == "\\" { index = afterColon.index(after: index) }
        if index < afterColon.endIndex { index = afterColon.index(after: index) }
      }
      output += ":\"\(mask)\""
      rest = index < afterColon.endIndex ? afterColon[afterColon.index(after: index)...] : ""
    }
    return output + rest
  }
}
