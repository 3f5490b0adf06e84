#!/usr/bin/python3
"""Generates a random valid Tile program, and its input data, from a seed.

    tilegen.py SEED -o DIR    writes DIR/prog.tile, DIR/<input>.npy, DIR/meta.json

The program covers contractions (every aggregation and combination,
constraints, rational index coefficients, `default`), elementwise statements
with broadcasting, every builtin and cast, index/reshape/shape and every
dtype; the inputs hold special values (inf, NaN, -0, the largest and the
subnormal values of their dtype). It is valid by construction: integer
divisors that may be zero are replaced, shift amounts are masked to the
width, `=` contractions write each element from at most one tuple, and every
index variable is bounded. What devices may legitimately compute differently
(docs/language.md, "Precision") is kept out of the comparison: values that a
device computes within its accuracy rather than exactly ("inexact") never
feed a discontinuous operation (a comparison, a cast to an integer, floor),
and the operands of float sums and products are kept where accumulating in
the output's type cannot overflow where the reference's f64 does not.
meta.json says which outputs went through a transcendental builtin, which
the driver compares with the device accuracy's tolerance.
"""

import argparse
import json
import os
import random
import re
import sys

import numpy as np

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dtypes as dt  # noqa: E402

FLOAT_MATH1 = ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "sinh", "cosh",
               "tanh", "asin", "acos", "atan", "erf", "sigmoid"]
FLOAT_MATH2 = ["pow", "atan2"]
EXACT_MATH1 = ["abs", "sign", "relu", "floor", "ceil", "round"]
DISCONTINUOUS1 = {"sign", "floor", "ceil", "round"}
INDEX_VARS = ["i", "j", "k", "l", "m"]
FLOAT_LITERALS = ["0.5", "1.5", "2.0", "0.25", "3.0", "1e-3", "100.0", "0.0"]


class Expr:
    """A generated expression: its text, dtype (None for an untyped literal),
    shape, whether it is an integer or float literal, whether a device
    computes it exactly as the reference does, and the dtype of the loosest
    transcendental builtin that contributed to it (None if none did)."""

    def __init__(self, text, dtype, shape, literal=None, exact=True, approx=None):
        self.text, self.dtype, self.shape = text, dtype, tuple(shape)
        self.literal, self.exact, self.approx = literal, exact, approx


def worst(*approx):
    """Of the dtypes that transcendental builtins computed in (None for
    none), the one whose accuracy is the loosest: it sets the tolerance."""
    order = [None, "f64", "f32", "f16", "bf16"]
    return max(approx, key=order.index)


def broadcast(a, b):
    a, b = tuple(a), tuple(b)
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            return None
        out.append(y if x == 1 else x)
    return tuple(out)


def fits_into(shape, target):
    return broadcast(shape, target) == tuple(target)


class Generator:
    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)
        self.dims = {}        # dimension name -> size
        self.tensors = {}     # name -> Expr (a tensor name as an expression)
        self.params = []      # (name, declaration, dtype, shape)
        self.body = []
        self.counter = 0

    # ---- helpers -------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def new_name(self, prefix="T"):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def define(self, text_rhs, expr, name=None, prefix="T"):
        name = name or self.new_name(prefix)
        self.body.append("  %s = %s;" % (name, text_rhs))
        self.tensors[name] = Expr(name, expr.dtype, expr.shape, exact=expr.exact,
                                  approx=expr.approx)
        return name

    def size_text(self, value):
        """An integer expression for an extent: a dimension name of that size
        where there is one, or an expression over one, or the literal."""
        names = [n for n, v in self.dims.items() if v == value]
        if names and self.chance(0.7):
            return self.rng.choice(names)
        for n, v in self.dims.items():
            if v + 1 == value and self.chance(0.3):
                return "%s + 1" % n
            if 2 * v == value and self.chance(0.3):
                return "2*%s" % n
            if v // 2 == value and v > 1 and self.chance(0.3):
                return "%s/2" % n
        return str(value)

    # ---- inputs --------------------------------------------------------
    def gen_params(self):
        for name in ["N", "M", "K", "L"][: self.rng.randint(1, 4)]:
            self.dims[name] = self.rng.randint(1, 8)
        dtype_pool = dt.NAMES + ["f32"] * 4 + ["i32"] * 2
        for name in ["A", "B", "C"][: self.rng.randint(1, 3)]:
            dtype = self.rng.choice(dtype_pool)
            rank = self.rng.choice([0, 1, 1, 2, 2, 2, 3])
            extents, shape = [], []
            for _ in range(rank):
                if self.chance(0.15):
                    extents.append("1")
                    shape.append(1)
                else:
                    d = self.rng.choice(list(self.dims))
                    extents.append(d)
                    shape.append(self.dims[d])
            if rank > 0 and self.chance(0.1):
                decl = name                      # rank and extents from the binding
            else:
                decl = "%s[%s]" % (name, ", ".join(extents))
            self.params.append((name, decl, dtype, tuple(shape)))
            self.tensors[name] = Expr(name, dtype, shape)
        # Only the names that a declaration uses are dimensions.
        declared = " ".join(p[1] for p in self.params)
        self.dims = {n: v for n, v in self.dims.items() if n in declared}

    # ---- elementwise expressions ---------------------------------------
    def leaf(self, target, allow_literal=True):
        cands = [t for t in self.tensors.values() if fits_into(t.shape, target)]
        if not cands or (allow_literal and self.chance(0.12)):
            if not allow_literal and not cands:
                return None
            if self.chance(0.5):
                return Expr(str(self.rng.randint(0, 7)), None, (), literal="int")
            return Expr(self.rng.choice(FLOAT_LITERALS), None, (), literal="float")
        return self.rng.choice(cands)

    def typed(self, target):
        """A typed expression (not a bare literal)."""
        for _ in range(10):
            e = self.expr(target, self.rng.randint(1, 3))
            if e.dtype is not None:
                return e
        return self.leaf(target, allow_literal=False)

    def binary_type(self, a, b, op_kind):
        """The computation dtype of a binary operator, or None when the pair
        is not allowed (two literals, a literal that would not fit)."""
        if a.dtype is None and b.dtype is None:
            return None
        if a.dtype is None or b.dtype is None:
            lit, typed = (a, b) if a.dtype is None else (b, a)
            if lit.literal == "float":
                if op_kind in ("int", "bits"):
                    return None
                return typed.dtype if dt.is_float(typed.dtype) else "f32"
            if typed.dtype == "bool":
                return "i32"
            return typed.dtype
        if op_kind == "arith" or op_kind == "int":
            return dt.arithmetic(a.dtype, b.dtype)
        return dt.promote(a.dtype, b.dtype)

    def expr(self, target, depth):
        if depth <= 0:
            return self.leaf(target)
        r = self.rng.random()
        if r < 0.30:
            return self.binary(target, depth)
        if r < 0.50:
            return self.unary(target, depth)
        if r < 0.62:
            return self.float_math(target, depth)
        if r < 0.75:
            return self.cast(target, depth)
        if r < 0.83:
            return self.select(target, depth)
        if r < 0.92:
            return self.shape_builtin(target)
        return self.leaf(target)

    def binary(self, target, depth):
        a = self.expr(target, depth - 1)
        b = self.expr(target, depth - 1)
        if a.dtype is None and b.dtype is None:
            b = self.typed(target)
        shape = broadcast(a.shape, b.shape)
        exact = a.exact and b.exact
        approx = worst(a.approx, b.approx)
        ops = ["+", "-", "*", "/", "min", "max"]
        if exact:
            ops += ["%", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "&", "|", "^",
                    "<<", ">>"]
        op = self.rng.choice(ops)
        # min and max of two bools compute in i32, as arithmetic does
        # (docs/language.md, section 5: "exact math").
        kinds = {"+": "arith", "-": "arith", "*": "arith", "/": "arith", "%": "int",
                 "min": "arith", "max": "arith", "&": "bits", "|": "bits",
                 "^": "bits", "<<": "int", ">>": "int"}
        t = self.binary_type(a, b, kinds.get(op, "promote"))
        if t is None:
            return a if a.dtype is not None else b
        if op in ("==", "!=", "<", ">", "<=", ">="):
            return Expr("(%s %s %s)" % (a.text, op, b.text), "bool", shape, exact=True,
                        approx=approx)
        if op in ("&&", "||"):
            return Expr("(%s %s %s)" % (a.text, op, b.text), "bool", shape, approx=approx)
        if op in ("%", "&", "|", "^", "<<", ">>") and dt.is_float(t):
            op = "+"
        if op in ("<<", ">>"):
            if a.dtype == "bool" or b.dtype == "bool":
                op = "+"
            else:
                width = dt.bits(t)
                if b.literal:
                    amount = str(self.rng.randint(0, width - 1))
                else:
                    amount = "(%s & %d)" % (b.text, width - 1)
                return Expr("(%s %s %s)" % (a.text, op, amount), t, shape, approx=approx)
        if op in ("/", "%") and not dt.is_float(t):
            # A zero divisor is a run-time error of the reference. The 1 of a
            # bool divisor is a bool, so that the select keeps its dtype (a
            # literal next to a bool is an i32). A literal 0 becomes the
            # literal 1: a select of two literals is an i32, not a literal,
            # and U64 % i32 is an i64 where U64 % 1 is a u64 (seed 29506579).
            one = "as_bool(1)" if b.dtype == "bool" else "1"
            if b.literal:
                divisor = b.text if b.text != "0" else "1"
            else:
                divisor = "select(%s == 0, %s, %s)" % (b.text, one, b.text)
            return Expr("(%s %s %s)" % (a.text, op, divisor), t, shape, approx=approx)
        if op in ("min", "max"):
            return Expr("%s(%s, %s)" % (op, a.text, b.text), t, shape, exact=exact,
                        approx=approx)
        # Float division is correctly rounded on some devices only.
        exact = exact and not (op == "/" and dt.is_float(t))
        return Expr("(%s %s %s)" % (a.text, op, b.text), t, shape, exact=exact,
                    approx=approx)

    def unary(self, target, depth):
        a = self.expr(target, depth - 1)
        if a.dtype is None:
            a = self.typed(target)
        ops = ["-", "abs", "relu"]
        if a.exact:
            ops += ["!", "sign", "floor", "ceil", "round"]
            if not dt.is_float(a.dtype):
                ops.append("~")
        op = self.rng.choice(ops)
        t = a.dtype
        if op == "-":
            t = "i32" if t == "bool" else t
            return Expr("(-%s)" % a.text, t, a.shape, exact=a.exact, approx=a.approx)
        if op == "!":
            return Expr("(!%s)" % a.text, "bool", a.shape, approx=a.approx)
        if op == "~":
            return Expr("(~%s)" % a.text, t, a.shape, approx=a.approx)
        t = "i32" if t == "bool" else t
        return Expr("%s(%s)" % (op, a.text), t, a.shape, exact=a.exact, approx=a.approx)

    def float_math(self, target, depth):
        a = self.expr(target, depth - 1)
        if a.dtype is None:
            a = self.typed(target)
        if not a.exact:
            return a
        if self.chance(0.2):
            b = self.expr(target, depth - 1)
            if not b.exact:
                return a
            t = dt.promote(a.dtype, b.dtype) if b.dtype else a.dtype
            t = t if dt.is_float(t) else "f32"
            if b.dtype is None and b.literal == "int" and dt.is_float(a.dtype) is False:
                t = "f32"
            return Expr("%s(%s, %s)" % (self.rng.choice(FLOAT_MATH2), a.text, b.text), t,
                        broadcast(a.shape, b.shape), exact=False,
                        approx=worst(t, a.approx, b.approx))
        t = a.dtype if dt.is_float(a.dtype) else "f32"
        return Expr("%s(%s)" % (self.rng.choice(FLOAT_MATH1), a.text), t, a.shape,
                    exact=False, approx=worst(t, a.approx))

    def cast(self, target, depth):
        a = self.expr(target, depth - 1)
        choices = dt.NAMES
        if not a.exact:
            # Rounding an inexact value to a narrower float is discontinuous
            # too: a device's value one ulp away rounds the other way, and
            # as_float(x, 16) - x turned that into 3% (seed 12014025).
            choices = [t for t in dt.FLOATS
                       if t == a.dtype or dt.bits(t) > dt.bits(a.dtype)] or dt.FLOATS
        t = self.rng.choice(choices)
        return Expr(dt.cast_to(t, a.text), t, a.shape, exact=a.exact, approx=a.approx)

    def select(self, target, depth):
        c = self.expr(target, depth - 1)
        if not c.exact:
            return c
        a = self.expr(target, depth - 1)
        b = self.expr(target, depth - 1)
        if a.dtype is None and b.dtype is None:
            b = self.typed(target)
        t = self.binary_type(a, b, "promote")
        if t is None:
            return a
        shape = broadcast(broadcast(c.shape, a.shape), b.shape)
        if self.chance(0.5):
            text = "select(%s, %s, %s)" % (c.text, a.text, b.text)
        else:
            text = "(%s ? %s : %s)" % (c.text, a.text, b.text)
        return Expr(text, t, shape, exact=a.exact and b.exact,
                    approx=worst(a.approx, b.approx, c.approx))

    def shape_builtin(self, target):
        tensors = list(self.tensors.values())
        r = self.rng.random()
        if r < 0.4:
            cands = [t for t in tensors if t.shape and fits_into(t.shape, target)]
            if cands:
                x = self.rng.choice(cands)
                arg = x.text if self.chance(0.6) else "(%s + 0)" % x.text \
                    if x.dtype != "bool" else x.text
                return Expr("index(%s, %d)" % (arg, self.rng.randrange(len(x.shape))),
                            "i32", x.shape)
        elif r < 0.8 and target:
            count = int(np.prod(target))
            cands = [t for t in tensors if int(np.prod(t.shape)) == count]
            if cands:
                x = self.rng.choice(cands)
                shape = list(target)
                if len(shape) >= 2 and self.chance(0.3):
                    shape = [shape[0] * shape[1]] + shape[2:]
                    shape = tuple(shape) if fits_into(shape, target) else tuple(target)
                shape = tuple(shape)
                return Expr("reshape(%s, %s)" % (x.text, ", ".join(
                    self.size_text(v) for v in shape)), x.dtype, shape,
                    exact=x.exact, approx=x.approx)
        else:
            cands = [t for t in tensors if t.shape and fits_into((len(t.shape),), target)]
            if cands:
                x = self.rng.choice(cands)
                return Expr("shape(%s)" % x.text, "i32", (len(x.shape),))
        return self.leaf(target)

    def elementwise(self):
        shapes = [t.shape for t in self.tensors.values()]
        target = self.rng.choice(shapes)
        other = self.rng.choice(shapes)
        if broadcast(target, other) is not None and len(broadcast(target, other)) <= 4:
            target = broadcast(target, other)
        e = self.typed(target)
        self.define(e.text, e)

    # ---- contractions --------------------------------------------------
    def sanitized(self, name, agg, combo, float_result=False):
        """The operand of a float `+` or `*` aggregation, with the values for
        which the device's accumulation in the output type may differ from
        the reference's in f64 replaced (overflow, zero padding of infinities).
        An integer operand of a float product (`float_result`) keeps 0 and 1
        only: its large values made the product overflow in f32 in one order
        and not in another, and inf * 0 NaN (seeds 13011319, 12034825). A
        bool operand holds nothing else, and the select would make it i32 (the
        literal 1), which a `default` of its type no longer matched (seed
        20058530)."""
        t = self.tensors[name]
        if (agg == "*" and float_result and not dt.is_float(t.dtype)
                and t.dtype != "bool"):
            return self.define("select(%s == 0 || %s == 1, %s, 1)" % (name, name, name), t,
                               prefix="S")
        if not dt.is_float(t.dtype) or agg not in "+*":
            return name
        big, _ = dt.float_limits(t.dtype)
        x = name
        if agg == "*" and not t.exact:
            # A clamp, continuous: the select below would turn a value that
            # the reference computes as 0 and a device as -1e-17 (tanh(x) -
            # 1) into 0 and 1.0.
            return self.define("min(max(%s, 0.9), 1.1)" % x, t, prefix="S")
        if agg == "*":
            keep = "(abs(%s) >= 0.9 && abs(%s) <= 1.1) || %s == 0" % (x, x, x)
            repl = "1.0"
        elif combo == "*":
            keep = "abs(%s) < %s" % (x, "1e4" if t.dtype == "f16" else "1e15")
            repl = "0.5"
        else:
            if t.dtype == "f16":
                return name
            keep = "abs(%s) < 1e30 || abs(%s) > %r || %s != %s" % (x, x, big, x, x)
            repl = "0.5"
        return self.define("select(%s, %s, %s)" % (keep, x, repl), t, prefix="S")

    def contraction(self):
        rng = self.rng
        agg = rng.choice(["+", "*", ">", "<", "="])
        combo = rng.choice(["", "", "*", "+", "==", "?"])
        operands = [t for t in self.tensors.values() if t.shape]
        if not operands:
            return self.elementwise()
        n_ops = {"": 1, "*": 2, "+": 2, "==": 2, "?": 3}[combo]
        names = [rng.choice(operands).text for _ in range(n_ops)]
        if combo in ("==", "?") and not all(self.tensors[n].exact for n in names[:2]):
            combo, n_ops, names = "", 1, names[:1]
        default_of = None
        if agg == "=":
            n_out = rng.randint(1, 3)
            n_red = 0
        else:
            n_out = rng.randint(0, 3)
            n_red = rng.randint(0, 2)
        if n_out and rng.random() < 0.3:
            shaped = [t for t in self.tensors.values() if len(t.shape) == n_out]
            if shaped:
                default_of = rng.choice(shaped)
        out_vars = INDEX_VARS[:n_out]
        red_vars = INDEX_VARS[n_out:n_out + n_red]
        variables = out_vars + red_vars
        # Output polynomials: one variable each, so '=' is injective.
        out_polys = []
        for v in out_vars:
            form = rng.random()
            if form < 0.6:
                out_polys.append(v)
            elif form < 0.75:
                out_polys.append("2*%s" % v)
            elif form < 0.9:
                out_polys.append("%s + 1" % v)
            else:
                out_polys.append("%d - %s" % (rng.randint(1, 6), v))
        # Operand accesses: every dimension a polynomial over the variables.
        accesses = []
        for name in names:
            polys = []
            for _ in self.tensors[name].shape:
                polys.append(self.access_poly(variables))
            accesses.append("%s[%s]" % (name, ", ".join(polys)))
        constraints = []
        constrained = list(out_vars)
        while self.unbounded(variables, constrained, accesses):
            v = self.unbounded(variables, constrained, accesses)[0]
            constraints.append("%s < %d" % (v, rng.randint(1, 4)))
            constrained.append(v)
        if variables and rng.random() < 0.3:
            a, b = rng.choice(variables), rng.choice(variables)
            extra = rng.choice(["%s - %s" % (a, b) if a != b else a, "%s/2" % a,
                                "%s + %s" % (a, b)])
            constraints.append("%s < %s" % (extra, self.size_text(rng.randint(1, 8))))
        # Output sizes.
        if default_of is not None:
            sizes = list(default_of.shape)
        else:
            sizes = [rng.randint(0 if rng.random() < 0.03 else 1, 8) for _ in out_vars]
        float_result = combo in ("", "*", "+") and any(
            dt.is_float(self.tensors[n].dtype) for n in names)
        t_names = [self.sanitized(n, agg, combo, float_result)
                   if (combo != "?" or k == 2) else n
                   for k, n in enumerate(names)]
        accesses = [a.replace(n + "[", tn + "[", 1) for a, n, tn in zip(accesses, names, t_names)]
        types = [self.tensors[n].dtype for n in names]
        if combo == "":
            body, out_t = accesses[0], types[0]
        elif combo in ("*", "+"):
            body, out_t = "%s %s %s" % (accesses[0], combo, accesses[1]), \
                dt.arithmetic(types[0], types[1])
        elif combo == "==":
            body, out_t = "%s == %s" % (accesses[0], accesses[1]), "bool"
        else:
            body, out_t = "%s == %s ? %s" % tuple(accesses), types[2]
        if default_of is not None and not default_of.exact and not dt.is_float(out_t):
            # Its cast to an integer or bool would be discontinuous.
            default_of = None
        out = self.new_name("C")
        text = "%s[%s] = %s(%s)" % (
            out, ", ".join(out_polys) + " : " + ", ".join(self.size_text(s) for s in sizes)
            if out_vars else "", agg, body)
        if not out_vars:
            text = "%s[] = %s(%s)" % (out, agg, body)
        for c in constraints:
            text += ", " + c
        if rng.random() < 0.1:
            text += " no_defract"
        if default_of is not None:
            d = self.define(dt.cast_to(out_t, default_of.text),
                            Expr("", out_t, default_of.shape, exact=default_of.exact,
                                 approx=default_of.approx), prefix="D")
            # The default is the accumulator's initial value: bounded as the
            # operands are (-3.4e38 times 1.1 overflowed in f32, where the
            # reference's f64 did not).
            text += " default " + self.sanitized(d, agg, "")
        self.body.append("  %s;" % text)
        float_acc = dt.is_float(out_t) and agg in "+*"
        sources = [self.tensors[n] for n in names] + (
            [default_of] if default_of is not None else [])
        exact = all(t.exact for t in sources) and not float_acc
        approx = worst(*[t.approx for t in sources])
        self.tensors[out] = Expr(out, out_t, tuple(sizes), exact=exact, approx=approx)

    def access_poly(self, variables):
        rng = self.rng
        if not variables:
            return str(rng.randint(0, 1))
        v = rng.choice(variables)
        coeff = rng.random()
        term = v if coeff < 0.65 else "2*%s" % v if coeff < 0.8 else \
            "-%s" % v if coeff < 0.9 else "%s/2" % v
        if len(variables) > 1 and rng.random() < 0.3:
            w = rng.choice([x for x in variables if x != v])
            term += rng.choice([" + ", " - "]) + w
        if term.startswith("-"):
            term = self.size_text(rng.randint(1, 8)).replace(" + 1", "") + " - " + term[1:] \
                if rng.random() < 0.5 else "%d - %s" % (rng.randint(1, 7), term[1:])
        off = rng.random()
        if off < 0.2:
            term += " + 1"
        elif off < 0.35:
            term += " - 1"
        elif off < 0.4 and self.dims:
            term += " - %s/2" % rng.choice(list(self.dims))
        return term

    @staticmethod
    def unbounded(variables, bounded, accesses):
        """The variables that no access bounds: a dimension's polynomial
        bounds its variable when every other variable in it is bounded
        (the output's variables are, by the output's sizes)."""
        polys = [set(re.findall(r"\b[a-z]\b", p))
                 for a in accesses for p in a[a.index("[") + 1:-1].split(",")]
        bounded = set(bounded)
        changed = True
        while changed:
            changed = False
            for vs in polys:
                free = vs - bounded
                if len(free) == 1:
                    bounded |= free
                    changed = True
        return [v for v in variables if v not in bounded]

    # ---- the program ---------------------------------------------------
    def generate(self):
        self.gen_params()
        for _ in range(self.rng.randint(2, 6)):
            r = self.rng.random()
            if r < 0.45:
                self.contraction()
            else:
                self.elementwise()
        defined = [n for n in self.tensors if n not in dict((p[0], 1) for p in self.params)]
        outputs = [defined[-1]] + [n for n in defined[:-1] if self.chance(0.35)]
        source = "// difftest seed %d\nfunction f(%s) -> (%s) {\n%s\n}\n" % (
            self.seed, ", ".join(p[1] for p in self.params), ", ".join(outputs),
            "\n".join(self.body))
        return source, outputs

    # ---- input data ----------------------------------------------------
    def input_data(self, dtype, shape, nprng):
        n = int(np.prod(shape)) if shape else 1
        special = self.chance(0.7)
        if dt.is_float(dtype):
            values = nprng.standard_normal(n) * 2.0
            if self.chance(0.3):
                values = np.round(values * 2) / 2          # ties for round()
            if special:
                big, tiny = dt.float_limits(dtype)
                pool = [np.inf, -np.inf, np.nan, -0.0, 0.0, big, -big, tiny, -tiny * 3,
                        1.0, -1.0, 1e30 if dtype != "f16" else 6e4, 0.5]
                pool = [pool[k] for k in sorted(set(nprng.randint(0, len(pool), 5)))]
                mask = nprng.random_sample(n) < self.rng.choice([0.1, 0.3, 0.6])
                picks = nprng.randint(0, len(pool), n)
                values = np.where(mask, np.array(pool)[picks], values)
        elif dtype == "bool":
            values = nprng.randint(0, 2, n)
        else:
            lo, hi = dt.int_range(dtype)
            values = nprng.randint(-8 if lo < 0 else 0, 16, n).astype(object)
            if special:
                pool = [lo, hi, lo + 1, hi - 1, 0, 1]
                if lo < 0:
                    pool.append(-1)
                mask = nprng.random_sample(n) < 0.3
                for idx in np.nonzero(mask)[0]:
                    values[idx] = pool[nprng.randint(0, len(pool))]
        array = dt.numpy_array(dtype, values if dtype == "bf16" or dt.is_float(dtype)
                               else np.array(list(values), dtype=object))
        return array.reshape(shape)


def generate(seed):
    """(source, inputs {name: array}, meta) for a seed."""
    g = Generator(seed)
    source, outputs = g.generate()
    nprng = np.random.RandomState(seed % (2**32))
    inputs = {}
    for name, _, dtype, shape in g.params:
        inputs[name] = g.input_data(dtype, shape, nprng)
    # An inexact f64 output may have passed through f32 (a sum of f32 values
    # widened): it is as precise as the loosest float of the program.
    floats = [t.dtype for t in g.tensors.values() if t.dtype in dt.FLOATS]
    loosest = worst(*floats) if floats else None
    meta = {"seed": seed, "outputs": {o: {"dtype": g.tensors[o].dtype,
                                          "approx": g.tensors[o].approx,
                                          "exact": g.tensors[o].exact,
                                          "precision": loosest}
                                      for o in outputs}}
    return source, inputs, meta


def write(seed, directory):
    """Writes the program, its inputs and meta.json to `directory`; returns
    the input arguments for `tilec run`."""
    source, inputs, meta = generate(seed)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "prog.tile"), "w") as f:
        f.write(source)
    args = []
    for name, array in inputs.items():
        path = os.path.join(directory, name + ".npy")
        np.save(path, array)
        args.append("--input=%s=@%s" % (name, path))
    with open(os.path.join(directory, "meta.json"), "w") as f:
        json.dump(meta, f)
    return args, meta


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("-o", "--output-dir", required=True)
    options = parser.parse_args()
    args, _ = write(options.seed, options.output_dir)
    print(" ".join([os.path.join(options.output_dir, "prog.tile")] + args))


if __name__ == "__main__":
    main()
