#!/usr/bin/env python3
"""Checks the Benchmarks executable's workloads against their committed budgets.

    python3 Scripts/budgets.py [--budgets FILE] BINARY [FILTER]

For each row of Scripts/budgets.txt whose workload name contains FILTER,
counts instructions (valgrind's callgrind) and heap allocations (valgrind's
DHAT, blocks allocated) per unit — an event for a pumping row, a chain for a
creating row — and fails if either is above its budget. Each workload runs
over N and 3N units; the difference divided by 2N cancels start-up and
tear-down, so the figures are the steady state's.

BINARY is a release build of `Benchmarks` (strip its debug info first:
valgrind 3.19 cannot read the toolchain's DWARF 5). `--self-test` checks the
parser and the verdicts on planted figures, without valgrind.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

BUDGETS = Path(__file__).with_name("budgets.txt")


def parse(text):
    """The rows of a budget file: workload, instructions, allocations, date, why."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|")]
        if len(fields) != 5:
            raise ValueError(f"budgets.txt:{number}: expected 5 fields separated by |, got {len(fields)}")
        name, instructions, allocations, date, why = fields
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
            raise ValueError(f"budgets.txt:{number}: the date must be YYYY-MM-DD, got {date!r}")
        rows.append(
            {
                "workload": name,
                "instructions": int(instructions.replace(",", "")),
                "allocations": float(allocations),
                "date": date,
                "why": why,
            }
        )
    return rows


def verdict(row, instructions, allocations):
    """The problems of one measured row against its budget (empty when within)."""
    problems = []
    if instructions > row["instructions"]:
        problems.append(f"{instructions:,} instructions per unit, budget {row['instructions']:,}")
    if allocations > row["allocations"] + 0.005:
        problems.append(f"{allocations:.2f} allocations per unit, budget {row['allocations']:g}")
    return problems


def units(name):
    """The two sizes a workload runs at: creating rows build chains, the rest pump events."""
    return (100, 300) if "creating" in name else (2000, 6000)


def valgrind(tool, binary, name, count):
    command = ["valgrind", f"--tool={tool}"]
    command += ["--callgrind-out-file=/dev/null"] if tool == "callgrind" else ["--dhat-out-file=/dev/null"]
    command += [binary, "--instructions", name, str(count)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"budgets: {name} failed under {tool}:\n{result.stderr}")
    if tool == "callgrind":
        found = re.search(r"Collected : (\d+)", result.stderr)
        return int(found.group(1))
    found = re.search(r"Total:\s+[\d,]+ bytes in ([\d,]+) blocks", result.stderr)
    return int(found.group(1).replace(",", ""))


def measure(binary, name):
    small, large = units(name)
    per_unit = {}
    for tool in ("callgrind", "dhat"):
        first, second = valgrind(tool, binary, name, small), valgrind(tool, binary, name, large)
        per_unit[tool] = (second - first) / (large - small)
    return round(per_unit["callgrind"]), per_unit["dhat"]


def self_test():
    rows = parse("# a comment\nrx publish pumping | 240 | 0 | 2026-11-29 |\nx creating | 5,700 | 12 | 2026-11-29 | why\n")
    assert [row["instructions"] for row in rows] == [240, 5700], rows
    assert verdict(rows[0], 240, 0) == []
    assert verdict(rows[0], 241, 0) == ["241 instructions per unit, budget 240"]
    assert verdict(rows[0], 200, 1.0) == ["1.00 allocations per unit, budget 0"]
    assert verdict(rows[1], 5700, 12.004) == []
    for bad in ("a | 1 | 0 | 2026-11-29\n", "a | 1 | 0 | yesterday | \n"):
        try:
            parse(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad!r}")
    print("budgets: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    arguments = sys.argv[1:]
    budgets = BUDGETS
    if "--budgets" in arguments:  # another budget file: to measure an older binary's rows
        index = arguments.index("--budgets")
        budgets = Path(arguments[index + 1])
        del arguments[index : index + 2]
    binary = arguments[0]
    wanted = arguments[1] if len(arguments) > 1 else ""
    rows = [row for row in parse(budgets.read_text()) if wanted in row["workload"]]
    listed = subprocess.run([binary, "--list"], capture_output=True, text=True, check=True).stdout.splitlines()
    unknown = [row["workload"] for row in rows if row["workload"] not in listed]
    if unknown:
        sys.exit(f"budgets: no workload named {unknown} (Benchmarks --list names them)")
    failures = 0
    for row in rows:
        instructions, allocations = measure(binary, row["workload"])
        problems = verdict(row, instructions, allocations)
        failures += bool(problems)
        print(
            json.dumps(
                {
                    "workload": row["workload"],
                    "instructions": instructions,
                    "budget": row["instructions"],
                    "allocations": round(allocations, 2),
                    "allocation_budget": row["allocations"],
                    "verdict": "over: " + "; ".join(problems) if problems else "within",
                }
            ),
            flush=True,
        )
    if failures:
        sys.exit(
            f"budgets: {failures} workload(s) over budget (Scripts/budgets.txt). Take the regression back, "
            "or raise the budget in a commit that says what the figure bought."
        )
    print(f"budgets: {len(rows)} workload(s) within budget")


if __name__ == "__main__":
    main()
