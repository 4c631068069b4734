import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// Every operator on marble diagrams (one character = 100 ms on a
/// `TestClock`), against what RxSwift emits for the same diagram.
@Suite("Operators: marbles", .testBubble)
struct OperatorMarbleTests {
  // MARK: debounce

  @Test("debounce: emits after the interval of silence; each element restarts it; the end flushes at once")
  func debounce() async {
    let output = await Marble.run(["a": "-1-2----3---|"]) { inputs, clock in
      inputs["a"].debounce(for: .milliseconds(300), clock: clock)
    }
    #expect(output == "------2----3|")
  }

  @Test("debounce: a pending element is emitted at once when the upstream ends")
  func debounceFlushesAtEnd() async {
    let output = await Marble.run(["a": "-1-2|"]) { inputs, clock in
      inputs["a"].debounce(for: .milliseconds(300), clock: clock)
    }
    #expect(output == "----(2|)")
  }

  @Test("debounce: an error is thrown at once and the pending element dropped")
  func debounceError() async {
    let output = await Marble.run(["a": "-1-2^"]) { inputs, clock in
      inputs["a"].debounce(for: .milliseconds(300), clock: clock)
    }
    #expect(output == "----^")
  }

  @Test("debounce: an arrival at the instant the pending element is due replaces it, as in RxSwift")
  func debounceArrivalAtTheDeadline() async {
    let output = await Marble.run(["a": "-1--2---|"]) { inputs, clock in
      inputs["a"].debounce(for: .milliseconds(300), clock: clock)
    }
    #expect(output == "-------2|")  // 1 is due at 4, when 2 arrives: 2 comes first (RxTest's order)
  }

  @Test("debounce: a busy consumer gets what Rx emits, later (stamped on arrival, not on pull)")
  func debounceBusyConsumer() async {
    let testClock = TestClock()
    let (source, input) = AsyncStream<Int>.makeStream()
    let backToWork = TestGate()
    let consumer = TestBubble.task {
      var iterator = source.debounce(for: .milliseconds(100), clock: testClock).makeAsyncIterator()
      var received: [Int] = []
      if let first = await iterator.next() { received.append(first) }
      await backToWork.wait()  // busy while 2 and 3 arrive
      while let value = await iterator.next() { received.append(value) }
      return received
    }
    input.yield(1)
    await testClock.advance(by: .milliseconds(100), expectingSleepers: 1)  // t = 100: 1 is due
    input.yield(2)  // t = 100
    await testClock.advance(by: .milliseconds(100), expectingSleepers: 1)  // t = 200: 2 is due
    await testClock.advance(by: .milliseconds(100))  // t = 300
    input.yield(3)  // t = 300
    await testClock.advance(by: .milliseconds(200), expectingSleepers: 1)  // t = 500: 3 was due at 400
    input.finish()
    backToWork.open()
    #expect(await consumer.value == [1, 2, 3])
  }

  // MARK: throttle

  @Test("throttle (latest: true, Rx's default): first at once, the window's last when it closes")
  func throttleLatest() async {
    let output = await Marble.run(["a": "1-2-3-4----|"]) { inputs, clock in
      inputs["a"].throttle(for: .milliseconds(300), clock: clock)
    }
    // 2 is held and sent when its window closes (3); 4 arrives the very
    // instant the next window closes (6): sent at once, 3 dropped (RxSwift's
    // `couldSendNow`).
    #expect(output == "1--2--4----|")
  }

  @Test("throttle (latest: false): elements inside the window are dropped")
  func throttleFirst() async {
    let output = await Marble.run(["a": "1-2-3-4----|"]) { inputs, clock in
      inputs["a"].throttle(for: .milliseconds(300), clock: clock, latest: false)
    }
    #expect(output == "1---3------|")
  }

  @Test("throttle (latest: false) decides by arrival time: 1 at 0, 2 at 400 dropped, 3 at 600 passes")
  func throttleByArrival() async {
    let output = await Marble.run(["a": "1---2-3---|"]) { inputs, clock in
      inputs["a"].throttle(for: .milliseconds(500), clock: clock, latest: false)
    }
    #expect(output == "1-----3---|")
  }

  @Test("throttle (latest: true): the end waits for the held element, as Rx")
  func throttleEndWaitsForHeld() async {
    let output = await Marble.run(["a": "12|"]) { inputs, clock in
      inputs["a"].throttle(for: .milliseconds(300), clock: clock)
    }
    #expect(output == "1--(2|)")
  }

  @Test("throttle: an error is thrown at once")
  func throttleError() async {
    let output = await Marble.run(["a": "12^"]) { inputs, clock in
      inputs["a"].throttle(for: .milliseconds(300), clock: clock)
    }
    #expect(output == "1-^")
  }

  // MARK: combineLatest

  @Test("combineLatest: a pair on every element once both have produced; ends when both end")
  func combineLatest2() async {
    let output = await Marble.run(["a": "-1---2-----3|", "b": "---A---B-C----|"]) { inputs, _ in
      combineLatest(inputs["a"], inputs["b"]).map { $0 + $1 }
    }
    #expect(output == "---[1A]-[2A]-[2B]-[2C]-[3C]--|")
  }

  @Test("combineLatest: a side that ended empty ends it at the other's next element, as Rx")
  func combineLatestEmptySide() async {
    let output = await Marble.run(["a": "-1---2---|", "b": "--|"]) { inputs, _ in
      combineLatest(inputs["a"], inputs["b"]).map { $0 + $1 }
    }
    #expect(output == "-----|")
  }

  @Test("combineLatest: the first error is thrown")
  func combineLatestError() async {
    let output = await Marble.run(["a": "-1--^", "b": "--A----"]) { inputs, _ in
      combineLatest(inputs["a"], inputs["b"]).map { $0 + $1 }
    }
    #expect(output == "--[1A]-^")
  }

  // MARK: withLatestFrom

  @Test("withLatestFrom: pairs with the other's latest; drops elements before it has one; ends with self")
  func withLatestFrom() async {
    let output = await Marble.run(["a": "-a--b---c|", "b": "--1---2---"]) { inputs, _ in
      inputs["a"].withLatestFrom(inputs["b"]).map { $0 + $1 }
    }
    #expect(output == "----[b1]---[c2]|")
  }

  @Test("withLatestFrom: the other's end keeps its latest; its error is thrown")
  func withLatestFromOtherEnds() async {
    let ended = await Marble.run(["a": "--a--b|", "b": "-1|"]) { inputs, _ in
      inputs["a"].withLatestFrom(inputs["b"]).map { $0 + $1 }
    }
    #expect(ended == "--[a1]--[b1]|")
    let failed = await Marble.run(["a": "--a--b|", "b": "-1-^"]) { inputs, _ in
      inputs["a"].withLatestFrom(inputs["b"]).map { $0 + $1 }
    }
    #expect(failed == "--[a1]^")
  }

  // MARK: flatMapLatest

  @Test("flatMapLatest: only the latest inner's elements; ends when the outer and the current inner have")
  func flatMapLatest() async {
    let output = await Marble.run([
      "outer": "-a----b----|",
      "x": "--1-2-3-4----",
      "y": "-------5-6-|",
    ]) { inputs, _ in
      inputs["outer"].flatMapLatest { $0 == "a" ? inputs["x"] : inputs["y"] }
    }
    #expect(output == "--1-2--5-6-|")
  }

  @Test("flatMapLatest: the current inner's error is thrown; a superseded inner's is not")
  func flatMapLatestErrors() async {
    let output = await Marble.run([
      "outer": "-a--b-------",
      "x": "------^",
      "y": "-----5--^",
    ]) { inputs, _ in
      inputs["outer"].flatMapLatest { $0 == "a" ? inputs["x"] : inputs["y"] }
    }
    #expect(output == "-----5--^")
  }

  @Test("flatMapLatest: the outer's end waits for the current inner")
  func flatMapLatestOuterEndsFirst() async {
    let output = await Marble.run(["outer": "-a|", "x": "---1-|"]) { inputs, _ in
      inputs["outer"].flatMapLatest { _ in inputs["x"] }
    }
    #expect(output == "---1-|")
  }

  // MARK: removeDuplicates

  @Test("removeDuplicates: consecutive repeats are skipped (distinctUntilChanged)")
  func removeDuplicates() async {
    let output = await Marble.run(["a": "-1-1-2-2-1|"]) { inputs, _ in inputs["a"].removeDuplicates() }
    #expect(output == "-1---2---1|")
  }
}
