import ActorMVVMTestSupport
import Foundation
import Testing

/// Every ```swift block in the README appears, line for line (indentation
/// aside), in one Swift file under Tests/, where it is compiled and run: a
/// README snippet cannot drift from the code that proves it. (A snippet's
/// paragraphs, split at blank lines, may stand apart in that file: a type
/// and the test that drives it.)
@Test("README: every Swift snippet is a copy of compiled test code")
func readmeSnippetsAreCompiled() throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let snippets = readme.components(separatedBy: "```swift\n").dropFirst().map { block in
    block.components(separatedBy: "```")[0].components(separatedBy: "\n\n").map(lines(of:)).filter { !$0.isEmpty }
  }
  #expect(!snippets.isEmpty)
  var sources: [[String]] = []
  let tests = root.appendingPathComponent("Tests")
  let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
  while let file = files?.nextObject() as? URL {
    guard file.pathExtension == "swift", !file.path.contains("/.build/") else { continue }
    sources.append(lines(of: try String(contentsOf: file, encoding: .utf8)))
  }
  for snippet in snippets {
    let found = sources.contains { source in snippet.allSatisfy { contains(source, $0) } }
    #expect(found, "README snippet not found in Tests/:\n\(snippet.joined().joined(separator: "\n"))")
  }
}

/// The articles' snippets marked `<!-- compiled -->` (the line before the
/// block) are held to the same rule as the README's.
@Test("Articles: every snippet marked compiled is a copy of compiled test code")
func articleSnippetsAreCompiled() throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  var snippets: [[[String]]] = []
  let articles = FileManager.default.enumerator(
    at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
  while let file = articles?.nextObject() as? URL {
    guard file.pathExtension == "md", file.path.contains(".docc/") else { continue }
    let text = try String(contentsOf: file, encoding: .utf8)
    snippets += text.components(separatedBy: "<!-- compiled -->\n```swift\n").dropFirst().map { block in
      block.components(separatedBy: "```")[0].components(separatedBy: "\n\n").map(lines(of:)).filter { !$0.isEmpty }
    }
  }
  #expect(snippets.count >= 4)
  var sources: [[String]] = []
  let files = FileManager.default.enumerator(at: root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil)
  while let file = files?.nextObject() as? URL {
    guard file.pathExtension == "swift", !file.path.contains("/.build") else { continue }
    sources.append(lines(of: try String(contentsOf: file, encoding: .utf8)))
  }
  for snippet in snippets {
    let found = sources.contains { source in snippet.allSatisfy { contains(source, $0) } }
    #expect(found, "Article snippet not found in Tests/:\n\(snippet.joined().joined(separator: "\n"))")
  }
}

/// Whether `lines` appear in `source`, one after another.
private func contains(_ source: [String], _ lines: [String]) -> Bool {
  guard source.count >= lines.count else { return false }
  return (0...(source.count - lines.count)).contains { Array(source[$0..<$0 + lines.count]) == lines }
}

/// The non-empty lines, trimmed.
private func lines(of text: String) -> [String] {
  text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}
