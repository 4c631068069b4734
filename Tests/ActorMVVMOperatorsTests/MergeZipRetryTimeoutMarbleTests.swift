import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// merge, zip, scan, prepend, retry and timeout on marble diagrams (one
/// character = 100 ms on a `TestClock`), against what RxSwift emits for
/// the same diagram.
@Suite("Operators on marbles: merge, zip, scan, prepend, retry, timeout", .testBubble)
struct MergeZipRetryTimeoutMarbleTests {
  // MARK: merge

  @Test("merge: every element of both, as they arrive; ends when both have")
  func merge() async {
    let output = await Marble.run(["a": "-1---3--|", "b": "--2-4-|"]) { inputs, _ in
      ActorMVVMOperators.merge(inputs["a"], inputs["b"])
    }
    #expect(output == "-12-43--|")
  }

  @Test("merge: an error from either side is thrown at once")
  func mergeError() async {
    let output = await Marble.run(["a": "-1-----|", "b": "--2^"]) { inputs, _ in
      ActorMVVMOperators.merge(inputs["a"], inputs["b"])
    }
    #expect(output == "-12^")
  }

  // MARK: zip

  @Test("zip: pairs by position; waits for the slower side")
  func zip() async {
    let output = await Marble.run(["a": "-1-2-3-|", "b": "---a--b--c-|"]) { inputs, _ in
      ActorMVVMOperators.zip(inputs["a"], inputs["b"]).map { "\($0)\($1)" }
    }
    #expect(output == "---[1a]--[2b]--[3c]-|")  // ends when both have (RxSwift's ZipSink)
  }

  @Test("zip: ends, as Rx's, when both sides have ended, not when one has and its elements are paired")
  func zipEndsWithBoth() async {
    let output = await Marble.run(["a": "-1|", "b": "---a-b-|"]) { inputs, _ in
      ActorMVVMOperators.zip(inputs["a"], inputs["b"]).map { "\($0)\($1)" }
    }
    #expect(output == "---[1a]---|")
  }

  @Test("zip: an error is thrown at once")
  func zipError() async {
    let output = await Marble.run(["a": "-1-^", "b": "-a----|"]) { inputs, _ in
      ActorMVVMOperators.zip(inputs["a"], inputs["b"]).map { "\($0)\($1)" }
    }
    #expect(output == "-[1a]-^")
  }

  // MARK: scan

  @Test("scan: each running result, not the seed")
  func scan() async {
    let output = await Marble.run(["a": "-1-2--3|"]) { inputs, _ in
      inputs["a"].scan(0) { $0 + Int($1)! }
    }
    #expect(output == "-1-3--6|")
  }

  @Test("scan: an error ends it")
  func scanError() async {
    let output = await Marble.run(["a": "-1-2^"]) { inputs, _ in
      inputs["a"].scan(0) { $0 + Int($1)! }
    }
    #expect(output == "-1-3^")
  }

  // MARK: prepend (startWith)

  @Test("prepend: the prefix at once, then the upstream")
  func prepend() async {
    let output = await Marble.run(["a": "--1-2|"]) { inputs, _ in
      inputs["a"].prepend("x", "y")
    }
    #expect(output == "(xy)-1-2|")
  }

  // MARK: retry

  @Test("retry: iterates again after an error, here at once; elements before the error stay")
  func retryImmediately() async {
    let output = await Marble.run(["a": "-1-^2-^3|"]) { inputs, clock in
      inputs["a"].retry(3, clock: clock)
    }
    #expect(output == "-1--2--3|")
  }

  @Test("retry: the last attempt's error is thrown")
  func retryGivesUp() async {
    let output = await Marble.run(["a": "-1^-2^-3|"]) { inputs, clock in
      inputs["a"].retry(2, clock: clock)
    }
    #expect(output == "-1--2^")
  }

  @Test("retry: the back-off waits on the clock; what arrives meanwhile is missed (hot input)")
  func retryBackoff() async {
    let output = await Marble.run(["a": "-1^2-3-4|"]) { inputs, clock in
      inputs["a"].retry(2, backoff: .constant(.milliseconds(200)), clock: clock)
    }
    #expect(output == "-1---3-4|")
  }

  @Test("retry: exponential back-off doubles up to its maximum")
  func exponentialBackoff() {
    let backoff = RetryBackoff<Duration>.exponential(initial: .milliseconds(100), maximum: .milliseconds(350))
    #expect((1...4).map { backoff.delay(afterFailure: $0) } == [100, 200, 350, 350].map { .milliseconds($0) })
  }

  // MARK: timeout

  @Test("timeout: each element moves the deadline; silence past it throws")
  func timeout() async {
    let output = await Marble.run(["a": "-1-2-----3|"]) { inputs, clock in
      inputs["a"].timeout(.milliseconds(300), clock: clock)
    }
    #expect(output == "-1-2--^")
  }

  @Test("timeout: counts from the first next(), before any element")
  func timeoutFromStart() async {
    let output = await Marble.run(["a": "-----1|"]) { inputs, clock in
      inputs["a"].timeout(.milliseconds(300), clock: clock)
    }
    #expect(output == "---^")
  }

  @Test("timeout: a sequence that keeps up finishes normally")
  func timeoutInTime() async {
    let output = await Marble.run(["a": "-1-2-3|"]) { inputs, clock in
      inputs["a"].timeout(.milliseconds(300), clock: clock)
    }
    #expect(output == "-1-2-3|")
  }

  @Test("timeout: throws TimeoutError")
  func timeoutErrorType() async {
    let relay = EventRelay<Int>()
    let clock = TestClock()
    let values = relay.values.timeout(.milliseconds(10), clock: clock)
    let consumer = TestBubble.task {
      do {
        for try await _ in values {}
        return false
      } catch { return error is TimeoutError }
    }
    await clock.advance(by: .milliseconds(10), expectingSleepers: 1)
    #expect(await consumer.value)
  }
}
