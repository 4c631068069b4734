import Testing

extension SourceLocation {
  /// The caller's location, from the literals every tool takes as defaults
  /// (`#fileID`, `#filePath`, `#line`, `#column`). Those expand in the
  /// caller's file with no macro, so a test file that does not
  /// `import Testing` (an `XCTestCase`) calls the tools as they are; Swift
  /// Testing's `#_sourceLocation` would not expand there.
  static func caller(fileID: String, filePath: String, line: Int, column: Int) -> SourceLocation {
    SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
