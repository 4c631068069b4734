import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// Virtual time is exact: idle is known from the runtime's job count, so
/// every tool sees tasks it did not start, waits that cannot be met fail
/// instead of hanging, and nothing depends on how loaded the machine is.
@Suite("Exact virtual time", .testBubble)
struct ExactTimeTests {
  @Test("Marble over a sequence fed by tasks the test spawns itself (TestBubble.task): no trap, exact ticks")
  func spawnedTasks() async {
    let output = await Marble.run(["a": "-1-2-|", "b": "--3--|"]) { inputs, _ in
      AsyncStream<String> { continuation in
        for name in ["a", "b"] {
          TestBubble.task { for try await value in inputs[name] { continuation.yield(value) } }
        }
      }
    }
    #expect(output == "-132")  // the stream itself never finishes
  }

  @Test("Marble names: [u1] takes one tick; a declared name takes its length, as RxTest's timelines")
  func multiCharacterNames() async {
    let bracketed = await Marble.run(["a": "-[u1]-[p22]|"]) { inputs, _ in inputs["a"] }
    #expect(bracketed == "-[u1]-[p22]|")
    let declared = await Marble.run(["a": "e---u1----u2-|"], names: ["u1", "u2"]) { inputs, _ in inputs["a"] }
    #expect(declared == "e---[u1]-----[u2]--|")
  }

  @Test("An input at tick T is handled before the timers due at T")
  func inputBeforeTimerAtTheSameInstant() async {
    // A timer a task starts at tick 1, due at tick 3, and an input at tick 3:
    // the input is recorded first.
    let output = await Marble.run(["a": "-1-2|"]) { inputs, clock in
      AsyncStream<String> { continuation in
        TestBubble.task {
          for try await value in inputs["a"] {
            continuation.yield(value)
            if value == "1" {
              TestBubble.task {
                try await clock.sleep(for: .milliseconds(200))
                continuation.yield("t")
              }
            }
          }
          try await clock.sleep(for: .milliseconds(100))
          continuation.finish()
        }
      }
    }
    #expect(output == "-1-(2t)-|")
  }

  @Test("yield then advance, with a busy consumer and no gates: throttle gives Rx's output every run")
  func throttleWrittenByHand() async {
    let clock = TestClock()
    let (source, input) = AsyncStream<Int>.makeStream()
    let consumerMayRun = TestGate()
    let consumer = TestBubble.task {
      var iterator = source.throttle(for: .milliseconds(200), clock: clock, latest: true).makeAsyncIterator()
      var received = [await iterator.next()]
      await consumerMayRun.wait()  // busy while the others arrive
      while let value = await iterator.next() { received.append(value) }
      return received
    }
    input.yield(1)  // t = 0: sent at once
    await clock.advance(by: .milliseconds(50))
    input.yield(2)  // t = 50: held
    await clock.advance(by: .milliseconds(50))
    input.yield(3)  // t = 100: replaces 2
    await clock.advance(by: .milliseconds(150))  // t = 250: the window closed at 200 with 3
    input.yield(4)  // t = 250: held until 400
    await clock.advance(by: .milliseconds(200))
    input.finish()
    await clock.advance(by: .milliseconds(200))
    consumerMayRun.open()
    let received = await consumer.value
    #expect(received == [1, 3, 4])  // Rx: 1 at 0, 3 at 200, 4 at 400
  }

  @Test("A wait whose expectation cannot be met fails with what it expected and what is asleep")
  func unmetExpectationFails() async {
    let clock = TestClock()
    let sleeper = TestBubble.task { try await clock.sleep(for: .seconds(1)) }
    await withKnownIssue {
      let met = await clock.waitForSleepers(2)
      #expect(!met)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("2 sleeper(s)") && text.contains("asleep: 1.0 seconds")
    }
    await withKnownIssue {
      await clock.advance(by: .seconds(1), expectingSleepers: 2)
    } matching: { issue in
      String(describing: issue).contains("2 sleeper(s) due by 1.0 seconds")
    }
    #expect(clock.now == ManualInstant(), "an advance whose sleepers never came does not move time")
    await clock.advance(by: .seconds(1))
    try? await sleeper.value
  }

  @Test("A wait returns when its task is cancelled, while something keeps the process busy")
  func cancelledWaitReturns() async {
    let clock = TestClock()
    let spinning = TestGate()
    // Never idle while it spins: the wait can only end by cancellation.
    let spinner = TestBubble.task {
      while !spinning.isOpen { await Task.yield() }
    }
    let waiter = TestBubble.task { await clock.waitForSleepers(1) }
    let advancer = TestBubble.task { await clock.advance(by: .seconds(1)) }
    waiter.cancel()
    advancer.cancel()
    #expect(await waiter.value == false)
    await advancer.value
    spinning.open()
    await spinner.value
  }

  @Test("advance runs what is runnable before moving time: an element yielded just before is stamped at its instant")
  func advanceLetsRunnableWorkRunFirst() async {
    let clock = TestClock()
    let (source, input) = AsyncStream<Int>.makeStream()
    let stamps = TestBubble.task {
      var stamps: [Duration] = []
      for await _ in source { stamps.append(clock.now.offset) }
      return stamps
    }
    for step in 0..<50 {
      input.yield(step)
      await clock.advance(by: .milliseconds(10))
    }
    input.finish()
    let expected = (0..<50).map { Duration.milliseconds(10 * $0) }
    #expect(await stamps.value == expected)
  }
}
