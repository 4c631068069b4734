#!/usr/bin/env python3
"""Fails if our Swift code uses an Apple API newer than our platform floor outside a guard.

Scripts/apple-check.sh is the authority where the compiler can look (modules that import no
Apple framework); this text check covers the rest: the modules that import Foundation, XCTest or
Testing (no textual interface on Linux) and the tests.

Usage: availability-check.py [--root DIR] [--floor "macOS 14, iOS 17, ..."] [--self-test]

What: every .swift file under Sources/ and Tests/ (Tests/ClientPackage too; .build* and hidden
folders skipped), against the Apple availability of the declarations of Swift, _Concurrency,
Synchronization, Observation, _StringProcessing, RegexBuilder and Distributed (the public
.swiftinterface files of the toolchain `swift -print-target-info` names), and of Foundation(-
Essentials, -Internationalization, -Networking) and Dispatch, which have no interface on Linux:
theirs comes from `swift symbolgraph-extract`, as far as swift-foundation/corelibs annotate it.
A declaration is above the floor if its @available, or its type's or extension's, introduces it
after the floor on one of the floor's platforms. The floor: Package.swift's `platforms:` (--floor
overrides it), a platform neither names taken from DEFAULT_FLOOR.

How (textually): comments and strings (interpolations too) are blanked, and `#if` branches Apple
never compiles (`os(Linux)`, `canImport(Glibc)`, `os(Linux) && X`; not `!os(Linux)` or an `#else`)
dropped. Reported: `Owner.member` when every declaration of that member of that owner is above
the floor; a top-level name (`Mutex`, `Atomic<Int>`, a global function) when none of its top-level
declarations is at the floor; `.member` or `member(` only when no declaration of that name
anywhere in the toolchain's interfaces is at the floor and our sources declare nothing of that name
(func/var/let/case/type, parameter, closure parameter): `.immediate(` is caught, `.run`, `value`,
`enqueue(` are not. Guarded: the body of `if`/`while ... #available(...)`, the rest of the scope
after `guard #available(...) else {...}`, the else of `if #unavailable(...)`, a declaration marked
@available(...); nested guards combine. A guard must name each platform where the use is above
the floor, at the use's version or later (visionOS may be covered by the guard's iOS).

Limits: a text match, not the compiler. It misses a member reached through a value when its name
also exists at the floor elsewhere, overloads told apart by labels or types, initializers and
subscripts of older types, operators, protocol default implementations, uses inside string
interpolations, SwiftUI/UIKit/AppKit and other Apple-only frameworks, `#if` conditions other than
OS/import checks. It can wrongly report `x.member` of our own type when that name is declared
neither in our sources nor at the floor in the toolchain, and a use in the body of an `if
#available(...), ...` whose condition holds a closure (`{` splits the statement). Availability is the
Linux toolchain's, which mirrors Apple's; the harvest is cached in the temporary directory per
toolchain. Exit: 0 clean, 1 uses found, 2 no toolchain or self-test failed.
"""
import argparse, hashlib, json, os, re, subprocess, sys, tempfile, time

DEFAULT_FLOOR = {"macOS": "14", "iOS": "17", "tvOS": "17", "watchOS": "10", "visionOS": "1"}
INTERFACE_MODULES = ["Swift", "_Concurrency", "Synchronization", "Observation", "_StringProcessing",
                     "RegexBuilder", "Distributed"]
GRAPH_MODULES = ["Foundation", "FoundationEssentials", "FoundationInternationalization",
                 "FoundationNetworking", "Dispatch"]
MODULE_NAMES = set(INTERFACE_MODULES + GRAPH_MODULES)
TYPE_KINDS = {"struct", "class", "enum", "protocol", "actor", "typealias", "associatedtype", "extension"}
MODIFIERS = {"public", "open", "internal", "package", "private", "fileprivate", "static", "final", "override",
             "mutating", "nonmutating", "convenience", "required", "dynamic", "lazy", "weak", "unowned",
             "optional", "indirect", "nonisolated", "distributed", "prefix", "postfix", "infix",
             "__consuming", "consuming", "borrowing", "isolated"}
DECL_KW = re.compile(r"(struct|class|enum|protocol|actor|typealias|associatedtype|extension|func|var|let|"
                     r"init|case|subscript|deinit)\b\s*([A-Za-z_][\w.]*)?")
AVAIL = re.compile(r"([@#])(available|unavailable)\s*\(([^()]*)\)")
NON_APPLE = re.compile(r"os\((Linux|Android|Windows|FreeBSD|OpenBSD|WASI|Cygwin|Haiku)\)"
                       r"|canImport\((Glibc|Musl|Bionic|Android|WinSDK|WASILibc)\)")
IDENT = re.compile(r"[A-Za-z_]\w*")
SPECIAL = re.compile(r'//|/\*|#+"|"')
OWN_DECL = re.compile(r"\b(?:func|var|let|struct|class|enum|protocol|actor|typealias|associatedtype)\s+([A-Za-z_]\w*)")


def version(text):
    parts = [int(p) for p in re.findall(r"\d+", text)[:3]]
    return tuple(parts + [0] * (3 - len(parts)))


def show(v):
    return re.sub(r"(\.0)+$", "", ".".join(map(str, v)))


def parse_available(args):
    """`macOS 26.0, iOS 26.0, *` -> ({"macOS": (26, 0, 0), ...}, unavailable everywhere?)."""
    items = [i.strip() for i in args.split(",")]
    if items[0] == "*":
        return {}, "unavailable" in items
    if items[0] in DEFAULT_FLOOR:  # `macOS, introduced: 15` (or `macOS, unavailable`)
        return {items[0]: version(i) for i in items if i.startswith("introduced:")}, False
    return {m[1]: version(m[2]) for i in items for m in [re.match(r"(\w+)\s+(\d[\d.]*)$", i)]
            if m and m[1] in DEFAULT_FLOOR}, False


def merge(a, b):
    return {**a, **{p: max(v, a.get(p, v)) for p, v in b.items()}}


def balanced_end(s, i, pair="()"):
    """Index just past the group opening at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        depth += (s[j] == pair[0]) - (s[j] == pair[1])
        if depth == 0:
            return j + 1
    return len(s)


# ---- Blanking comments, strings and branches Apple never compiles (offsets kept) --------------
def string_end(s, i):
    """Index just past the string literal at s[i]: a quote, three quotes, or a raw (#) string."""
    h = re.compile("#*").match(s, i).end() - i
    i += h
    quote = '"""' if s.startswith('"""', i) else '"'
    i += len(quote)
    close, escape = quote + "#" * h, "\\" + "#" * h
    stop = re.compile("|".join(map(re.escape, [close, escape] + ["\n"] * (quote == '"'))))
    while m := stop.search(s, i):
        if m.group() != escape:
            return m.end() if m.group() == close else m.start()  # the end, or an unterminated line's
        i = m.end() + 1
        if s[m.end():i] == "(":  # an interpolation: to its `)`, past nested strings
            depth = 1
            while i < len(s) and depth:
                if s[i] == '"' or re.match(r'#+"', s[i:i + 8]):
                    i = string_end(s, i)
                    continue
                depth, i = depth + (s[i] == "(") - (s[i] == ")"), i + 1
    return len(s)


def strip(s):
    out, i = list(s), 0
    while m := SPECIAL.search(s, i):
        a = m.start()
        if m.group() == "//":
            b = s.find("\n", a) if s.find("\n", a) >= 0 else len(s)
        elif m.group() == "/*":
            depth, b = 1, a + 2
            while depth and b < len(s):  # they nest
                opens, closes = s.startswith("/*", b), s.startswith("*/", b)
                depth, b = depth + opens - closes, b + (2 if opens or closes else 1)
        else:
            b = string_end(s, a)
        out[a:b] = [c if c == "\n" else " " for c in s[a:b]]
        i = b
    return "".join(out)


def drop_branches(s, skip_branch):
    """Blanks `#if` directive lines and the branches skip_branch(condition or None, index) rejects."""
    lines, stack = s.split("\n"), []  # per open #if: [skipping this branch, branch index]
    for n, line in enumerate(lines):
        if d := re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line):
            if d[1] == "if":
                stack.append([skip_branch(d[2].strip(), 0), 0])
            elif stack and d[1] == "endif":
                stack.pop()
            elif stack:
                stack[-1][1] += 1
                stack[-1][0] = skip_branch(d[2].strip() if d[1] == "elseif" else None, stack[-1][1])
        if d or any(frame[0] for frame in stack):
            lines[n] = ""
    return "\n".join(lines)


def non_apple(cond, _index):
    """Each `||` term has a non-negated `os(Linux)`, `canImport(Glibc)`... among its `&&` atoms."""
    return cond is not None and all(any(NON_APPLE.search(atom) and "!" not in atom for atom in term.split("&&"))
                                    for term in cond.split("||"))


# ---- Harvesting the toolchain's declarations: [(owner, name, kind, availability)] --------------
def decl_head(line):
    """(keyword, name) of a declaration line, its attributes and modifiers skipped, else None."""
    s, i = line.strip(), 0
    while m := re.match(r"(@?\w+)\s*", s[i:]):
        word, j = m[1], i + len(m[1])
        rest = s[j:].lstrip()
        if not (word[0] == "@" or word in MODIFIERS or word == "class" and DECL_KW.match(rest)):
            break
        i = balanced_end(s, j) if s[j:j + 1] == "(" else j  # `@abi(...)`, `private(set)`
        i = len(s) - len(s[i:].lstrip())
    d = DECL_KW.match(s[i:])
    return (d[1], (d[2] or "").split(".")[-1]) if d else None


def harvest_interface(text, record):
    text = drop_branches(strip(text), lambda cond, index: index > 0)  # the newest compiler's branch
    scopes, pending, unavailable, head = [], {}, False, None  # scope: (kind, owner, avail, unavailable)
    for line in text.split("\n"):
        for _, _, args in AVAIL.findall(line):
            found, unav = parse_available(args)
            pending, unavailable = merge(pending, found), unavailable or unav
        decl = decl_head(line) if all(s[0] == "type" for s in scopes) else None  # not in bodies
        if decl:
            (kind, name), (_, owner, outer, outer_unav) = decl, scopes[-1] if scopes else (0, None, {}, False)
            avail, unav = merge(outer, pending), outer_unav or unavailable
            if re.match(r"[A-Za-z_]", name) and not unav and kind != "extension":
                record(owner, name, kind, avail)
            head, pending, unavailable = ("type" if kind in TYPE_KINDS else "body", name, avail, unav), {}, False
            for labels in re.findall(r"(?:->|:)\s*\(([^()]*,[^()]*)\)", line):  # tuple labels:
                for label in re.findall(r"(\w+)\s*:", labels):  # `components.attoseconds` is no Duration's
                    record("(tuple)", label, "label", {})
        elif line.strip() and not line.strip().startswith("@"):
            pending, unavailable = {}, False
        for brace in re.findall(r"[{}]", line):
            if brace == "{":
                scopes.append(head or ("body", None, {}, False))
            elif scopes:
                scopes.pop()
            head = None


def harvest_graph(path, record):
    for sym in json.load(open(path))["symbols"]:
        names, avail = [p.split("(")[0] for p in sym["pathComponents"]], {}
        for a in sym.get("availability", []):
            if a.get("domain") in DEFAULT_FLOOR and "introduced" in a:
                avail[a["domain"]] = tuple(a["introduced"].get(k, 0) for k in ("major", "minor", "patch"))
        if re.match(r"[A-Za-z_]\w*$", names[-1]) and names[-1] not in ("init", "subscript") and not any(
                a.get("isUnconditionallyUnavailable") for a in sym.get("availability", [])):
            record(names[-2] if len(names) > 1 else None, names[-1], sym["kind"]["identifier"].split(".")[-1], avail)


def load_declarations():
    """The harvest, cached in the temporary directory per toolchain and script version."""
    try:
        info = json.loads(subprocess.run(["swift", "-print-target-info"], capture_output=True, text=True,
                                         check=True).stdout)
        resources, triple = info["paths"]["runtimeResourcePath"], info["target"]["triple"]
    except (OSError, subprocess.CalledProcessError, KeyError, ValueError) as error:
        print(f"availability-check: no toolchain (`swift -print-target-info`: {error})", file=sys.stderr)
        sys.exit(2)
    libdir = os.path.join(resources, "linux" if "linux" in triple else "macosx")
    key = hashlib.sha1(open(__file__, "rb").read() + libdir.encode())
    for entry in sorted(os.listdir(libdir)):
        key.update(f"{entry}{os.stat(os.path.join(libdir, entry)).st_mtime}".encode())
    cache = os.path.join(tempfile.gettempdir(), f"availability-check-{key.hexdigest()[:16]}.json")
    if os.path.exists(cache):
        return json.load(open(cache))
    found, others = [], []  # others: Glibc, Testing... names, never reported, never bare-matched
    for module in sorted(e[:-12] for e in os.listdir(libdir) if e.endswith(".swiftmodule")):
        interface = os.path.join(libdir, f"{module}.swiftmodule", f"{triple}.swiftinterface")
        if os.path.exists(interface):
            harvest_interface(open(interface).read(), lambda o, n, k, a, into=found if module in
                              INTERFACE_MODULES else others: into.append((o, n, k, a if into is found else {})))
        elif module in INTERFACE_MODULES:
            print(f"availability-check: no interface for {module}: not covered", file=sys.stderr)
    with tempfile.TemporaryDirectory() as graphs:
        for module in GRAPH_MODULES:
            command = ["swift", "symbolgraph-extract", "-module-name", module, "-target", triple, "-output-dir", graphs]
            if subprocess.run(command, capture_output=True).returncode != 0:
                print(f"availability-check: no symbol graph for {module}: not covered", file=sys.stderr)
        for graph in sorted(os.listdir(graphs)):
            harvest_graph(os.path.join(graphs, graph), lambda *d: found.append(d))
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(cache), delete=False) as partial:
        json.dump(found + others, partial)
    os.replace(partial.name, cache)
    return json.load(open(cache))


class Table:
    """members: (owner, name) above the floor; tops: top-level names above the floor; names:
    names with no declaration at the floor anywhere; each with its (lowest) availability."""

    def __init__(self, declarations, floor):
        self.floor, per_member, per_name, per_top, low = floor, {}, {}, {}, set()
        for owner, name, kind, avail in declarations:
            avail = {p: tuple(v) for p, v in avail.items()}
            if not self.above(avail):
                low.add(name)
            for key, table in [((owner, name), per_member), (name, per_name)] + [(name, per_top)] * (owner is None):
                old = table.get(key, avail)  # over overloads: the lowest; a platform left out: any
                table[key] = {p: min(v, old[p]) for p, v in avail.items() if p in old}
        self.members = {k: v for k, v in per_member.items() if self.above(v)}
        self.tops = {k: v for k, v in per_top.items() if self.above(v)}
        self.names = {k: v for k, v in per_name.items() if k not in low}
        self.owners = {}
        for owner, name in self.members:
            self.owners.setdefault(name, set()).update([owner] if owner else [])

    def above(self, avail):
        return any(avail.get(p, (0,)) > f for p, f in self.floor.items())

    def uncovered(self, need, guard):
        """The platforms where `need` is above the floor and beyond the guard."""
        return [p for p, f in self.floor.items() if need.get(p, (0,)) > f and
                (guard.get(p) or (guard.get("iOS") if p == "visionOS" else None) or (0,)) < need[p]]


# ---- Checking our sources ---------------------------------------------------------------------
def own_names(s):
    """Names our code declares: types, members, enum cases, parameters, closure parameters."""
    names = set(OWN_DECL.findall(s))
    for m in re.finditer(r"\bcase\s+([A-Za-z_][^\n:=]*)", s):
        names.update(re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)", re.sub(r"\([^()]*\)", "", m[1])))
    for m in re.finditer(r"\b(?:func\s+\w+|init\??|subscript)\s*(?:<[^>]*>)?\s*\(", s):
        names.update(re.findall(r"(?:^|[(,])\s*(?:\w+\s+)?(\w+)\s*:", s[m.end() - 1:balanced_end(s, m.end() - 1)]))
    for m in re.finditer(r"\{\s*(?:\(\s*)?(\w+(?:\s*,\s*\w+)*)(?:\s*\))?\s+in\b", s):
        names.update(re.findall(r"\w+", m[1]))
    return names


def uses(s, table, own):
    """(offset, shown name, availability) of each identifier that may need a guard."""
    for m in IDENT.finditer(s):
        name, a = m.group(), m.start()
        if name not in table.names and name not in table.owners and name not in table.tops or a and s[a - 1] in "$#@":
            continue
        k = a - 1
        while k >= 0 and s[k] in " \t\n":
            k -= 1
        dotted, owner = k >= 0 and s[k] == "." and s[k - 1:k] != ".", None
        if dotted:
            k, depth = k - 1, 0
            while s[k:k + 1] == ">" or depth:  # `Task<Void, Never>.immediate`: the generic arguments skipped
                depth, k = depth + (s[k] == ">") - (s[k] == "<"), k - 1
            owner = (re.search(r"[A-Za-z_]\w*$", s[max(0, k - 80):k + 1]) or [None])[0]
        if owner in MODULE_NAMES:  # `Synchronization.Mutex`
            dotted, owner = False, None
        if owner and (owner, name) in table.members:
            yield a, f"{owner}.{name}", table.members[(owner, name)]
            continue
        after = s[m.end():m.end() + 3].lstrip()
        if name in own or after.startswith(":") and not after.startswith("::") and (dotted or name not in table.tops):
            continue  # ours, or an argument label
        if not dotted and name in table.tops:
            yield a, name, table.tops[name]
        elif name in table.names and (dotted or after.startswith("(")):
            owners = sorted(table.owners.get(name, ()))
            shown = "|".join(owners[:3]) + "|..." * (len(owners) > 3)
            yield a, (f"{shown}.{name}" if len(owners) == 1 else f"{{{shown}}}.{name}") if owners else name, \
                table.names[name]


def declared_guard(head):
    """The @available(...) of the declaration a `{` opens, read from its attribute lines."""
    lines = head.rstrip().split("\n")
    k = max((n for n, l in enumerate(lines) if re.search(
        r"\b(func|init|subscript|var|let|struct|class|enum|protocol|actor|extension|deinit)\b", l)), default=None)
    if k is None:
        return {}
    while k > 0 and (lines[k - 1].strip().startswith("@") or not lines[k - 1].strip()):
        k -= 1
    guard = {}
    for sigil, word, args in AVAIL.findall("\n".join(lines[k:])):
        if sigil + word == "@available":
            found, nowhere = parse_available(args)
            guard = merge(guard, {p: (999, 0, 0) for p in DEFAULT_FLOOR} if nowhere else found)
    return guard


def check_file(stripped, table, own):
    """[(line, shown name, need, guard)] of each use its guards do not cover."""
    s = drop_branches(stripped, non_apple)
    events = sorted([(a, 1, (shown, need)) for a, shown, need in uses(s, table, own)] +
                    [(m.start(), 0, m.group()) for m in re.finditer(r"[{};]", s)])
    stack, start, else_guard, found = [{"guard": {}}], 0, None, []
    for pos, is_use, what in events:
        if is_use:
            guard = stack[-1]["guard"]
            if "@available" in s[start:pos]:  # in a marked declaration's header (`class C: NewProtocol {`)
                guard = merge(guard, declared_guard(s[start:pos]))
            if table.uncovered(what[1], guard):
                found.append((s.count("\n", 0, pos) + 1, *what, guard))
            continue
        head, start = s[start:pos], pos + 1
        if what == "{":
            scope, checks = {"guard": stack[-1]["guard"]}, [(w, args) for sig, w, args in AVAIL.findall(head) if sig == "#"]
            wanted = {}
            for _, args in checks:
                wanted = merge(wanted, parse_available(args)[0])
            negative = any(w == "unavailable" for w, _ in checks)
            if checks and re.search(r"\bguard\b", head):  # guard #available: the rest of the scope
                scope["guard" if negative else "after"] = merge(scope["guard"], wanted) if negative else wanted
            elif checks and re.search(r"\b(if|while)\b", head):  # if #unavailable: its else
                scope["else" if negative else "guard"] = wanted if negative else merge(scope["guard"], wanted)
            elif head.strip() == "else" and else_guard:
                scope["guard"] = merge(scope["guard"], else_guard)
            elif "@available" in head:
                scope["guard"] = merge(scope["guard"], declared_guard(head))
            stack.append(scope)
            else_guard = None
        elif what == "}" and len(stack) > 1:
            closed = stack.pop()
            else_guard = closed.get("else")
            stack[-1]["guard"] = merge(stack[-1]["guard"], closed.get("after", {}))
    return found


def read_floor(root):
    floor = dict(DEFAULT_FLOOR)
    if os.path.exists(os.path.join(root, "Package.swift")):
        block = re.search(r"platforms\s*:\s*\[(.*?)\]", strip(open(os.path.join(root, "Package.swift")).read()), re.S)
        for p, v, minor in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*\.v(\d+)(?:_(\d+))?",
                                      block[1] if block else ""):
            floor[p] = show(version(f"{v}.{minor or 0}"))
    return floor


def run(root, floor, declarations, out=print):
    table = Table(declarations, {p: version(v) for p, v in floor.items()})
    files, texts, own, results = [], {}, set(), []
    for top in ("Sources", "Tests"):
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".swift")]
    for path in files:
        texts[path] = strip(open(path, encoding="utf-8", errors="replace").read())
        own |= own_names(texts[path])
    for path in files:
        for line, shown, need, guard in check_file(texts[path], table, own):
            bad, where = table.uncovered(need, guard), os.path.relpath(path, root)
            results.append((where, line, shown))
            out(f"{where}:{line}: '{shown}' needs {'/'.join(f'{p} {show(need[p])}' for p in bad)}, above the floor "
                f"({'/'.join(f'{p} {show(table.floor[p])}' for p in bad)}), outside #available" +
                (f" (the enclosing guard has {'/'.join(f'{p} {show(v)}' for p, v in guard.items())})" if guard else ""))
    out(f"{len(files)} files, {len(table.members)} above-floor declarations known (floor "
        f"{', '.join(f'{p} {v}' for p, v in floor.items())}), {len(results)} uses outside a guard")
    return results


PLANTED = {"Sources/Planted/Planted.swift": """\
import Synchronization
func unguarded(queue: Q) {
  Task.immediateDetached { }  // EXPECT Task.immediateDetached
  _ = Task<Void, Never>.immediate { }  // EXPECT Task.immediate
  queue.run(); queue.value = 1; queue.enqueue(job); immediateDetached(priority: nil) { }  // EXPECT Task.immediateDetached
}
func inIf(flag: Bool) {
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { Task.immediateDetached { } }
  if flag, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    Task.immediateDetached { }
  } else {
    Task.immediateDetached { }  // EXPECT Task.immediateDetached
  }
}
func afterGuard() {
  guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
  Task.immediateDetached { }
}
func afterThatScope() { Task.immediateDetached { } }  // EXPECT Task.immediateDetached
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
func annotated() {
  Task.immediateDetached { }
}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class MarkedExecutor: TaskExecutor { }
final class UnmarkedExecutor: TaskExecutor { }  // EXPECT TaskExecutor
let mutex = Mutex<Int>(0), atomic = Atomic<Int>(0)  // EXPECT Mutex Atomic
#if os(Linux)
let linuxOnly = Mutex<Int>(0)
func linux() { Task.immediateDetached { } }
#elseif canImport(Darwin)
let darwin = Atomic<Int>(0)  // EXPECT Atomic
#endif
#if !os(Linux)
let notLinux = Mutex<Int>(0)  // EXPECT Mutex
#endif
// Task.immediateDetached { } in a comment, and Mutex<Int>
/* Atomic<Int> /* nested */ Mutex<Int> */
let text = "Task.immediateDetached { } \\(1 + "Mutex<Int>".count) Atomic<Int>"
let block = \"\"\"
  Task.immediateDetached { } Atomic<Int>
  \"\"\"
func tooOld() {
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    Task.immediateDetached { }  // EXPECT Task.immediateDetached
    _ = Mutex<Int>(0)
  }
  if #unavailable(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2) { } else { _ = Mutex<Int>(0) }
}
""", "Tests/ClientPackage/Sources/Client/Client.swift": "let m = Mutex<Int>(0)  // EXPECT Mutex\n",
           "Tests/ClientPackage/.build/checkouts/Skipped.swift": "let m = Mutex<Int>(0)\n"}


def self_test(declarations):
    expected, printed = set(), []
    with tempfile.TemporaryDirectory() as root:
        for path, text in PLANTED.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            open(os.path.join(root, path), "w").write(text)
            expected |= {(path, n + 1, d) for n, line in enumerate(text.split("\n"))
                         for d in (line.split("// EXPECT ")[1].split() if "// EXPECT " in line else [])}
        found = set(run(root, DEFAULT_FLOOR, declarations, out=printed.append))
    print("\n".join(printed))
    failures = [f"not reported: {p}:{n}: '{d}'" for p, n, d in sorted(expected - found)] + \
               [f"reported, but should not be: {p}:{n}: '{d}'" for p, n, d in sorted(found - expected)]
    for failure in failures:
        print(f"SELF-TEST FAILED: {failure}")
    print(f"self-test: {'FAILED' if failures else 'ok'} ({len(expected)} planted uses to report, in "
          f"{len(PLANTED)} files, {len(failures)} failures)")
    return 2 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--floor", help='e.g. "macOS 14, iOS 17" (default: Package.swift\'s, then %s)' % DEFAULT_FLOOR)
    parser.add_argument("--self-test", action="store_true")
    args, began = parser.parse_args(), time.monotonic()
    declarations = load_declarations()
    if args.self_test:
        status = self_test(declarations)
    else:
        floor = read_floor(args.root)
        floor.update({p: show(v) for p, v in parse_available(args.floor or "")[0].items()})
        status = 1 if run(args.root, floor, declarations) else 0
    if time.monotonic() - began > 5:
        print(f"availability-check: took {time.monotonic() - began:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
