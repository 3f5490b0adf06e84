"""The compile options of an end-to-end RUN line, shared by the scripts that
compile the corpus without running it (spirv-harness.py,
scripts/emit-corpus.py).

A `tilec run` line binds its inputs with `--arg NAME=DTYPE[dims]`, an inline
`--input NAME=[DIMSx]DTYPE=VALUES`, or a file `--input NAME=@FILE.npy` (also
spelled `--in NAME=FILE.npy`); `tilec compile` takes only `--arg`, so the
other two become the `--arg` of the same dtype and shape.
"""

import os
import re

import numpy

# The options that choose what is compiled; the rest are about running.
KEPT_WITH_VALUE = ("--arg", "--entry", "--profile")
INLINE = re.compile(r"(?P<dims>(?:\d+x)*)(?P<dtype>[a-z]+\d*)=.*")


def _npy_arg(name, path):
    array = numpy.load(path, mmap_mode="r")
    dtype = array.dtype.name.replace("float", "f").replace("uint", "u")
    dims = ",".join(str(extent) for extent in array.shape)
    return "%s=%s[%s]" % (name, dtype.replace("int", "i"), dims)


def compile_options(words, substitute):
    """The `tilec compile` options of a RUN line's `words` (after `tilec run
    FILE`), with `substitute` applied to each value (lit's %S); None when an
    input comes from a file that does not exist yet (made by an earlier RUN
    line)."""
    options = []
    for index, word in enumerate(words[:-1]):
        value = substitute(words[index + 1])
        if word in KEPT_WITH_VALUE:
            options += [word, value]
        elif word in ("--in", "--input") and "=" in value:
            name, spec = value.split("=", 1)
            inline = INLINE.fullmatch(spec)
            if word == "--input" and inline:
                dims = inline.group("dims").rstrip("x").replace("x", ",")
                options += ["--arg", "%s=%s[%s]" % (name, inline.group("dtype"), dims)]
                continue
            path = spec[1:] if spec.startswith("@") else spec
            if not os.path.exists(path):
                return None
            options += ["--arg", _npy_arg(name, path)]
    return options
