"""Prints a Tile program longer than one fused kernel holds, for the tests of
fusion's split (tests/e2e/fusion_split.tile, tests/lit/Lowering):

  long_programs.py chain N   N elementwise statements, each on the last
  long_programs.py sum N     F = A + A + ... + A, with N terms
"""

import sys


def chain(count):
    lines = ["function chain(A, B) -> (F) {", "  T0 = A;"]
    operations = ["T{p} * 0.5 + B", "T{p} - A * 0.25", "max(T{p}, B) + 1", "T{p} / 2"]
    for step in range(1, count + 1):
        expression = operations[step % len(operations)].format(p=step - 1)
        lines.append("  T%d = %s;" % (step, expression))
    lines.append("  F = T%d;" % count)
    lines.append("}")
    return "\n".join(lines)


def total(count):
    return "function sum(A) -> (F) {\n  F = %s;\n}" % " + ".join(["A"] * count)


def main():
    kind, count = sys.argv[1], int(sys.argv[2])
    print(chain(count) if kind == "chain" else total(count))


if __name__ == "__main__":
    main()
