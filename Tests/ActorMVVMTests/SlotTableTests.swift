import Testing

@testable import ActorMVVM

@Suite("SlotTable")
struct SlotTableTests {
  /// The first slot is stored inline and the rest in an array: indices stay
  /// stable across removals, freed ones are reused (the inline one first),
  /// and `forEach` visits what is occupied in index order.
  @Test("indices are stable, freed ones reused, visits in index order")
  func indices() {
    var table = SlotTable<String>()
    #expect(table.insert("a") == 0)
    #expect(table.insert("b") == 1)
    #expect(table.insert("c") == 2)
    #expect(table.remove(at: 0) == "a")
    #expect(table.remove(at: 0) == nil)  // removed once
    #expect(table.remove(at: 2) == "c")
    #expect(table.count == 1)
    #expect(table.insert("d") == 0)
    #expect(table.insert("e") == 2)
    #expect(table.insert("f") == 3)
    table[1]! += "!"
    var seen: [String] = []
    table.forEach { slot in
      seen.append(slot)
      slot += "."
    }
    #expect(seen == ["d", "b!", "e", "f"])
    #expect([table[0], table[1], table[2], table[3]] == ["d.", "b!.", "e.", "f."])
    #expect(table.count == 4)
  }
}
