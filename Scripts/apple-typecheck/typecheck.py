#!/usr/bin/env python3
"""Type-check a Swift package's library products for an Apple target, on Linux.

Called by typecheck.sh and controls.sh (which find the toolchain and build the stand-in SDK):

  typecheck.py check    --sdk SDK --stubs STUBS [--logs DIR] PROJECT_DIR TRIPLE
  typecheck.py controls --sdk SDK --stubs STUBS --probes PROBES
  typecheck.py floor    PROJECT_DIR PLATFORM        (prints the declared floor, e.g. 17.0)

`check` reads the package (`swift package dump-package`), takes the Swift targets of every
library product in dependency order, and compiles each with the real compiler against the
stand-in SDK (`swiftc -frontend -emit-module` for modules others import, `-typecheck` for the
rest). It prints each module's error count and first errors, one line per product, then a
summary line. Exit status: 0 no errors, 1 errors, 2 the check itself could not run.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Modules the stand-in SDK provides: the standard library's (from the toolchain's textual
# interfaces) and the stubs.
SDK_MODULES = {
    "Swift", "SwiftOnoneSupport", "_Concurrency", "_StringProcessing", "_RegexParser", "RegexBuilder",
    "Synchronization", "Observation", "Distributed", "Builtin", "SwiftShims",
}
STUB_SWIFT_MODULES = ["Dispatch", "SwiftUI"]  # stubs/<M>.swift, compiled per target
STUB_C_MODULES = ["Darwin"]  # stubs/<M>/module.modulemap
# Modules that do not exist on Apple platforms: code imports them behind canImport/os(Linux),
# and an unguarded import is an error the compiler reports ("no such module").
NOT_ON_APPLE = {
    "Glibc", "Musl", "Bionic", "Android", "WASILibc", "WinSDK", "ucrt", "CRT", "visualc",
    "FoundationNetworking", "FoundationXML",
}
FIRST_ERRORS = 5

IMPORT_RE = re.compile(
    r"^\s*(?:@[A-Za-z_]\w*(?:\([^)]*\))?\s+)*import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_]\w*)",
    re.M,
)
ERROR_RE = re.compile(r": error: ")
# The project's bar is zero warnings: a warning at an Apple triple counts as an error does.
WARNING_RE = re.compile(r": warning: ")


def die(msg):
    print(f"typecheck: {msg}", file=sys.stderr)
    sys.exit(2)


def toolchain():
    swiftc = shutil.which("swiftc")
    if not swiftc:
        die("swiftc is not on PATH")
    usr = os.path.dirname(os.path.dirname(os.path.realpath(swiftc)))
    return swiftc, usr


# Triple OS → (resource directory, Package.swift platform, name in diagnostics, simulator only).
APPLE_OSES = {
    "ios": ("iphonesimulator", "ios", "iOS", True),
    "macosx": ("macosx", "macos", "macOS", False),
    "tvos": ("appletvsimulator", "tvos", "tvOS", True),
    "watchos": ("watchsimulator", "watchos", "watchOS", True),
}
# Package.swift platform → the triple's spelling, for `floor-triple`.
# visionOS is left out: see make-sdk.sh.
TRIPLE_OS = {"ios": "ios", "macos": "macosx", "tvos": "tvos", "watchos": "watchos"}


def parse_triple(triple):
    m = re.fullmatch(r"(x86_64|arm64)-apple-(ios|macosx|tvos|watchos)(\d+(?:\.\d+)*)(-simulator)?", triple)
    if not m:
        die(f"unsupported triple {triple}: use x86_64-apple-OSN.N-simulator (ios, tvos, watchos) "
            "or x86_64-apple-macosxN.N")
    arch, os_, version, sim = m.groups()
    if arch != "x86_64":
        die("use an x86_64 triple: the toolchain's interfaces are printed for x86_64 (Float80)")
    res, platform, nice, simulator_only = APPLE_OSES[os_]
    if simulator_only and not sim:
        die(f"use the -simulator triple for {nice} (x86_64-apple-{os_}N.N-simulator)")
    return res, platform, nice, version


def dump_package(project):
    r = subprocess.run(["swift", "package", "dump-package"], cwd=project, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"swift package dump-package failed in {project}:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout)


def declared_floor(pkg, platform):
    for p in pkg.get("platforms") or []:
        if p.get("platformName") == platform:
            return p.get("version")
    return None


def setting_value(kind):
    (key, val), = kind.items()
    if isinstance(val, dict) and "_0" in val:
        val = val["_0"]
    return key, val


def setting_applies(s, platform):
    cond = s.get("condition") or {}
    names = cond.get("platformNames") or []
    if names and platform not in names:
        return False
    config = cond.get("config")
    if config and config != "debug":
        return False
    return True


def language_mode(pkg):
    versions = pkg.get("swiftLanguageVersions") or pkg.get("swiftLanguageModes") or []
    known = [v for v in versions if v in ("4", "4.2", "5", "6")]
    if known:
        return max(known, key=lambda v: float(v))
    tools = (pkg.get("toolsVersion") or {}).get("_version", "6.0")
    return "6" if int(tools.split(".")[0]) >= 6 else "5"


def target_dir(project, t):
    if t.get("path"):
        return os.path.join(project, t["path"])
    roots = ["Tests"] if t.get("type") == "test" else ["Sources", "Source", "src", "srcs"]
    for r in roots:
        d = os.path.join(project, r, t["name"])
        if os.path.isdir(d):
            return d
    return os.path.join(project, roots[0], t["name"])


def target_files(project, t, suffixes):
    root = target_dir(project, t)
    excluded = [os.path.normpath(os.path.join(root, e)) for e in t.get("exclude") or []]
    only = [os.path.normpath(os.path.join(root, s)) for s in t.get("sources") or []]
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in sorted(filenames):
            p = os.path.normpath(os.path.join(dirpath, f))
            if not f.endswith(suffixes):
                continue
            if any(p == e or p.startswith(e + os.sep) for e in excluded):
                continue
            if only and not any(p == s or p.startswith(s + os.sep) for s in only):
                continue
            out.append(p)
    return out


def plan(project, pkg, platform):
    """Modules of the library products, in dependency order, each with what check() needs."""
    targets = {t["name"]: t for t in pkg["targets"]}
    products = [(p["name"], p["targets"]) for p in pkg["products"] if "library" in p["type"]]
    order, seen = [], set()

    def deps_of(t):
        out = []
        for d in t.get("dependencies") or []:
            (kind, val), = d.items()
            name, cond = val[0], val[-1]
            if cond and cond.get("platformNames") and platform not in cond["platformNames"]:
                continue
            if kind in ("byName", "target") and name in targets:
                out.append(("target", name))
            else:
                out.append(("external", name))
        return out

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for kind, d in deps_of(targets[name]):
            if kind == "target":
                visit(d)
        order.append(name)

    for _, ts in products:
        for t in ts:
            visit(t)

    project_names = set(targets)
    mods = {}
    for name in order:
        t = targets[name]
        m = {"name": name, "deps": [], "skip": None, "files": [], "kind": "swift"}
        for kind, d in deps_of(t):
            if kind == "external":
                m["skip"] = m["skip"] or f"depends on {d} from another package"
            else:
                m["deps"].append(d)
        if t["type"] not in ("regular", "executable"):
            m["skip"] = m["skip"] or f"a {t['type']} target"
        swift = target_files(project, t, (".swift",))
        if not swift:
            m["kind"] = "c"
            inc = os.path.join(target_dir(project, t), t.get("publicHeadersPath") or "include")
            m["include"] = inc
        else:
            m["files"] = swift
            imports = set()
            for f in swift:
                with open(f, encoding="utf-8", errors="replace") as fh:
                    imports.update(IMPORT_RE.findall(fh.read()))
            known = SDK_MODULES | set(STUB_SWIFT_MODULES) | set(STUB_C_MODULES) | NOT_ON_APPLE | project_names
            unknown = sorted(imports - known)
            if unknown:
                m["skip"] = m["skip"] or f"imports {', '.join(unknown)} (no textual interface on Linux)"
            m["imports"] = imports
            m["settings"] = [s for s in t.get("settings") or [] if s.get("tool") == "swift" and setting_applies(s, platform)]
        mods[name] = m
    # A module whose dependency is skipped cannot be checked either.
    for name in order:
        m = mods[name]
        if m["skip"] is None:
            bad = [d for d in m["deps"] if mods[d]["skip"] is not None]
            if bad:
                m["skip"] = f"needs skipped {', '.join(bad)}"
    return order, mods, products


def module_map_for(m):
    inc = m["include"]
    own = os.path.join(inc, "module.modulemap")
    if os.path.isfile(own):
        return None, own
    for h in (os.path.join(inc, m["name"] + ".h"), os.path.join(inc, m["name"], m["name"] + ".h")):
        if os.path.isfile(h):
            return f'module {m["name"]} {{\n  umbrella header "{h}"\n  export *\n}}\n', None
    if os.path.isdir(inc):
        return f'module {m["name"]} {{\n  umbrella "{inc}"\n  export *\n}}\n', None
    return None, None


class Compiler:
    def __init__(self, sdk, stubs, triple, out, package_name="main", swift_version="6"):
        self.swiftc, self.usr = toolchain()
        self.sdk, self.stubs, self.triple, self.out = sdk, stubs, triple, out
        self.package_name, self.swift_version = package_name, swift_version
        self.modulemaps = [os.path.join(stubs, c, "module.modulemap") for c in STUB_C_MODULES]
        self.include_dirs = []

    def base(self, mode, module):
        args = [
            self.swiftc, "-frontend", mode,
            "-target", self.triple,
            "-resource-dir", os.path.join(self.sdk, "res"),
            "-sdk", os.path.join(self.sdk, "sdk"),
            "-module-cache-path", os.path.join(self.sdk, "mcache"),
            "-plugin-path", os.path.join(self.usr, "lib", "swift", "host", "plugins"),
            # The Linux standard library has no Objective-C pieces (AutoreleasingUnsafeMutablePointer),
            # which an Apple target's implicit Objective-C interop asks for at every pointer argument.
            "-disable-objc-interop",
            "-diagnostic-style", "llvm",
            "-swift-version", self.swift_version,
            "-package-name", self.package_name,
            "-parse-as-library",
            "-module-name", module,
            "-I", self.out,
            "-D", "SWIFT_PACKAGE", "-D", "DEBUG",
        ]
        for mm in self.modulemaps:
            args += ["-Xcc", f"-fmodule-map-file={mm}"]
        for inc in self.include_dirs:
            args += ["-Xcc", "-I", "-Xcc", inc]
        if mode == "-emit-module":
            args += ["-emit-module-path", os.path.join(self.out, module + ".swiftmodule"),
                     "-experimental-allow-module-with-compiler-errors"]
        return args

    def run(self, mode, module, files, extra=(), cwd=None):
        args = self.base(mode, module) + list(extra) + list(files)
        r = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr


def settings_flags(settings):
    flags, notes = [], []
    for s in settings:
        key, val = setting_value(s["kind"])
        if key == "define":
            flags += ["-D", val]
        elif key == "enableUpcomingFeature":
            flags += ["-enable-upcoming-feature", val]
        elif key == "enableExperimentalFeature":
            flags += ["-enable-experimental-feature", val]
        elif key == "swiftLanguageMode":
            v = val if isinstance(val, str) else (val or {}).get("_0", "6")
            flags += ["-swift-version", str(v)]
        elif key == "defaultIsolation":
            flags += ["-default-isolation", "MainActor" if "MainActor" in json.dumps(val) else "nonisolated"]
        elif key == "strictMemorySafety":
            flags += ["-strict-memory-safety"]
        elif key == "unsafeFlags":
            flags += list(val)
        else:
            notes.append(key)
    return flags, notes


def rel(project, p):
    return os.path.relpath(p, project)


def check(args):
    project = os.path.realpath(args.project)
    sdk_dir, sdk_platform, nice, version = parse_triple(args.triple)
    pkg = dump_package(project)
    floor = declared_floor(pkg, sdk_platform)
    order, mods, products = plan(project, pkg, sdk_platform)
    work = tempfile.mkdtemp(prefix="apple-typecheck-")
    logs = args.logs
    if logs:
        os.makedirs(logs, exist_ok=True)
    try:
        comp = Compiler(args.sdk, args.stubs, args.triple, work,
                        package_name=os.path.basename(project).lower(), swift_version=language_mode(pkg))
        print(f"{pkg['name']} at {args.triple} (declared {nice} floor: {floor or 'none'}); "
              f"{len(products)} library products, {sum(1 for n in order if mods[n]['kind'] == 'swift')} Swift modules")
        # C targets: a module map each, generated from the project's public headers.
        cmaps = []
        for n in order:
            m = mods[n]
            if m["kind"] != "c":
                continue
            text, own = module_map_for(m)
            if own:
                comp.modulemaps.append(own)
            elif text:
                cmaps.append(text)
            if os.path.isdir(m["include"]):
                comp.include_dirs.append(m["include"])
        if cmaps:
            mm = os.path.join(work, "project-c-targets.modulemap")
            with open(mm, "w") as fh:
                fh.write("".join(cmaps))
            comp.modulemaps.append(mm)
        # Stubs that some checked module imports.
        wanted = set()
        for n in order:
            m = mods[n]
            if m["kind"] == "swift" and m["skip"] is None:
                wanted |= m["imports"] & set(STUB_SWIFT_MODULES)
        for s in STUB_SWIFT_MODULES:
            if s not in wanted:
                continue
            rc, text = comp.run("-emit-module", s, [os.path.join(args.stubs, s + ".swift")])
            if rc != 0 or not os.path.exists(os.path.join(work, s + ".swiftmodule")):
                print(text[-3000:])
                die(f"the {s} stub does not compile at {args.triple}: the stand-in SDK is broken")
        imported_by_others = {d for n in order for d in mods[n]["deps"]}
        errors, checked, skipped = {}, [], []
        for n in order:
            m = mods[n]
            if m["kind"] != "swift":
                continue
            if m["skip"] is not None:
                skipped.append(n)
                print(f"{n}: skipped ({m['skip']})")
                continue
            flags, notes = settings_flags(m["settings"])
            missing = [d for d in m["deps"] if mods[d]["kind"] == "swift"
                       and not os.path.exists(os.path.join(work, d + ".swiftmodule"))]
            if missing:
                skipped.append(n)
                m["skip"] = f"{', '.join(missing)} produced no module"
                print(f"{n}: skipped ({m['skip']})")
                continue
            mode = "-emit-module" if n in imported_by_others else "-typecheck"
            files = [rel(project, f) for f in m["files"]]
            rc, text = comp.run(mode, n, files, extra=flags, cwd=project)
            lines = [l for l in text.splitlines() if ERROR_RE.search(l) or WARNING_RE.search(l)]
            if rc != 0 and not lines:
                lines = [f"<compiler>: error: exited {rc} with no error line: {text.strip()[-300:]}"]
            if logs:
                with open(os.path.join(logs, f"{n}.log"), "w") as fh:
                    fh.write(text)
            checked.append(n)
            errors[n] = len(lines)
            extra_note = f" (settings not applied: {', '.join(notes)})" if notes else ""
            print(f"{n}: {len(lines)} error{'s' if len(lines) != 1 else ''} or warning{'s' if len(lines) != 1 else ''}"
                  f" in {len(files)} files{extra_note}")
            for l in lines[:FIRST_ERRORS]:
                print(f"  {l}")
            if len(lines) > FIRST_ERRORS:
                print(f"  … {len(lines) - FIRST_ERRORS} more")
        # Products: a product fails with any module under it.
        for p, ts in products:
            closure, stack = [], list(ts)
            while stack:
                x = stack.pop()
                if x in closure:
                    continue
                closure.append(x)
                stack += mods[x]["deps"]
            sw = [x for x in order if x in closure and mods[x]["kind"] == "swift"]
            bad = [f"{x} {errors[x]}" for x in sw if errors.get(x)]
            unchecked = [x for x in sw if x not in errors]
            state = f"errors in {', '.join(bad)}" if bad else "0 errors"
            if unchecked:
                state += f"; unchecked: {' '.join(unchecked)}"
            print(f"product {p}: {state}")
        total = sum(errors.values())
        failing = [f"{n} {errors[n]}" for n in checked if errors[n]]
        print(f"summary {args.triple}: {total} errors"
              + (f" in {len(failing)} of {len(checked)} checked modules ({', '.join(failing)})" if failing
                 else f" in {len(checked)} checked modules")
              + f"; {len(skipped)} skipped" + (f" ({' '.join(skipped)})" if skipped else ""))
        return 1 if total else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def controls(args):
    """Known answers: the stand-in SDK must report an iOS 18 / macOS 15 API below those and
    accept it at them, and must accept an iOS 17 / macOS 14 API at iOS 17 / macOS 14."""
    below = "is only available in {} or newer"
    cases = [
        ("fail-below-18.swift", "x86_64-apple-ios17.0-simulator", "'Mutex' " + below.format("iOS 18.0")),
        ("fail-below-18.swift", "x86_64-apple-ios18.0-simulator", None),
        ("typed-sequence.swift", "x86_64-apple-ios17.0-simulator", "'Failure' " + below.format("iOS 18.0")),
        ("typed-sequence.swift", "x86_64-apple-ios18.0-simulator", None),
        ("pass-at-17.swift", "x86_64-apple-ios17.0-simulator", None),
        ("fail-below-18.swift", "x86_64-apple-macosx14.0", "'Mutex' " + below.format("macOS 15.0")),
        ("fail-below-18.swift", "x86_64-apple-macosx15.0", None),
        ("typed-sequence.swift", "x86_64-apple-macosx14.0", "'Failure' " + below.format("macOS 15.0")),
        ("pass-at-17.swift", "x86_64-apple-macosx14.0", None),
        ("fail-below-18.swift", "x86_64-apple-tvos17.0-simulator", "'Mutex' " + below.format("tvOS 18.0")),
        ("fail-below-18.swift", "x86_64-apple-tvos18.0-simulator", None),
        ("fail-below-18.swift", "x86_64-apple-watchos10.0-simulator", "'Mutex' " + below.format("watchOS 11.0")),
        ("fail-below-18.swift", "x86_64-apple-watchos11.0-simulator", None),
    ]
    work = tempfile.mkdtemp(prefix="apple-typecheck-controls-")
    bad = 0
    try:
        for probe, triple, expect in cases:
            comp = Compiler(args.sdk, args.stubs, triple, work)
            rc, text = comp.run("-typecheck", "Probe", [os.path.join(args.probes, probe)])
            errs = [l for l in text.splitlines() if ERROR_RE.search(l)]
            if expect is None:
                ok = rc == 0 and not errs
                got = "passes" if ok else f"fails: {(errs or [text.strip()[-200:]])[0]}"
                want = "passes"
            else:
                ok = rc != 0 and any(expect in l for l in errs)
                first = re.sub(r"^\S*/", "", errs[0]) if errs else "no error line"
                got = f"fails: {first}" if rc != 0 else "passes"
                want = f"fails with {expect}"
            bad += 0 if ok else 1
            print(f"control {'ok' if ok else 'WRONG'}: {probe} at {triple} {got}" + ("" if ok else f" (expected: {want})"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"controls: {len(cases) - bad} of {len(cases)} as expected")
    return 1 if bad else 0


def floor_cmd(args):
    pkg = dump_package(os.path.realpath(args.project))
    f = declared_floor(pkg, args.platform)
    if not f:
        die(f"no {args.platform} floor declared")
    print(f)
    return 0


def floor_triples(args):
    """One x86_64 triple per platform Package.swift declares, at its floor."""
    pkg = dump_package(os.path.realpath(args.project))
    for p in pkg.get("platforms") or []:
        name, version = p.get("platformName"), p.get("version")
        if name in TRIPLE_OS:
            sim = "" if name == "macos" else "-simulator"
            print(f"x86_64-apple-{TRIPLE_OS[name]}{version}{sim}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--sdk", required=True)
    c.add_argument("--stubs", required=True)
    c.add_argument("--logs")
    c.add_argument("project")
    c.add_argument("triple")
    k = sub.add_parser("controls")
    k.add_argument("--sdk", required=True)
    k.add_argument("--stubs", required=True)
    k.add_argument("--probes", required=True)
    f = sub.add_parser("floor")
    f.add_argument("project")
    f.add_argument("platform", choices=["ios", "macos", "tvos", "watchos", "visionos"])
    t = sub.add_parser("floor-triples")
    t.add_argument("project")
    a = ap.parse_args()
    sys.exit({"check": check, "controls": controls, "floor": floor_cmd, "floor-triples": floor_triples}[a.cmd](a))


if __name__ == "__main__":
    main()
