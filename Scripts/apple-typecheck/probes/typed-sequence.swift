// Control: typed AsyncSequence (`Failure`, `next(isolation:)`) is iOS 18 / macOS 15, the
// package's floor. Below it this must fail as the package's own relays would; at it, pass.
func pull<S: AsyncSequence>(_ iterator: inout S.AsyncIterator, of _: S.Type) async throws(S.Failure) -> S.Element? {
  try await iterator.next(isolation: nil)
}
