"""Runs the commands that the docs mark as runnable and compares their output.

usage: run_doc_commands.py --source SRC --build BUILD --workdir DIR [FILE.md ...]

Without FILE arguments it reads SRC/README.md and every SRC/docs/*.md. The
conventions (docs/architecture.md, "Docs that run", is their reference):

- `<!-- runnable -->` on the line just before a ```console or ```sh fence
  marks that block as runnable. `<!-- runnable varies="REGEX" -->` (the
  attribute may repeat) names text of the shown output that differs from run
  to run or device to device: every match of REGEX, in the shown and in the
  actual line, is blanked before they are compared.
- `<!-- file: NAME -->` just before any fence writes that block's text to
  NAME in the working directory, so that later commands of the same file can
  use a source shown in the doc.
- In a console block a line starting with `$ ` is a command (a trailing `\\`
  continues it on the next line); the lines up to the next command are its
  output, compared line by line (trailing blanks ignored) with what it prints
  on stdout and stderr together. A line `...` stands for any number of lines.
  A command with no output shown must exit 0; one whose output is shown is
  judged by its output (a doc shows a status with `$ echo $?`).
- In an sh block every line is a command (`#` comments and blank lines
  aside); each must exit 0, and its output is not compared.

The commands of one block run in one bash process, in DIR/<N>-<file>, where
`build` is the build tree and every other top-level entry of the source tree
is a link to it; `bash scripts/setup.sh` is replaced by `true` (the tree is
already set up and built, and the test must not rebuild the tree it tests).
Exits non-zero, naming the doc, line and command, on any failure.
"""

import argparse
import glob
import os
import re
import shlex
import subprocess
import sys

FENCE = re.compile(r"^(\s*)```\s*(\S*)")
RUNNABLE = re.compile(r"^\s*<!--\s*runnable\b(.*?)-->\s*$")
VARIES = re.compile(r'\s*varies="([^"]*)"')
FILE_MARKER = re.compile(r"^\s*<!--\s*file:\s*(\S+)\s*-->\s*$")
SUBSTITUTIONS = [("bash scripts/setup.sh", "true")]
ANY_LINES = "..."
TIMEOUT_SECONDS = 300


class DocError(Exception):
    pass


class Block:
    def __init__(self, language, line, text_lines, runnable, varies,
                 file_name):
        self.language = language
        self.line = line  # of the first line inside the fence
        self.lines = text_lines
        self.runnable = runnable
        self.varies = varies
        self.file_name = file_name


def parse_blocks(markdown):
    """Returns the fenced blocks of a Markdown file, with their markers."""
    blocks, lines = [], markdown.splitlines()
    for number, line in enumerate(lines):
        if ((RUNNABLE.match(line) or FILE_MARKER.match(line)) and
                not (number + 1 < len(lines) and FENCE.match(lines[number + 1]))):
            raise DocError(f"line {number + 1}: '{line.strip()}' must be "
                           "followed directly by a ``` fence")
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        previous = lines[index - 1] if index > 0 else ""
        runnable = RUNNABLE.match(previous)
        file_marker = FILE_MARKER.match(previous)
        varies = []
        if runnable:
            attributes = runnable.group(1)
            varies = VARIES.findall(attributes)
            if VARIES.sub("", attributes).strip():
                raise DocError(f"line {index}: unknown attribute in "
                               f"'{previous.strip()}' (only varies=\"...\")")
            for pattern in varies:
                try:
                    re.compile(pattern)
                except re.error as error:
                    raise DocError(f"line {index}: varies=\"{pattern}\" is "
                                   f"not a regular expression: {error}")
            if match.group(2) not in ("console", "sh"):
                raise DocError(f"line {index + 1}: a runnable block must be "
                               "```console or ```sh")
        indent, end = match.group(1), index + 1
        while end < len(lines) and not lines[end].lstrip().startswith("```"):
            end += 1
        if end == len(lines):
            raise DocError(f"line {index + 1}: unterminated ``` block")
        text = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                for line in lines[index + 1:end]]
        blocks.append(Block(match.group(2), index + 2, text, bool(runnable),
                            varies,
                            file_marker.group(1) if file_marker else None))
        index = end + 1
    return blocks


def substitute(command):
    for old, new in SUBSTITUTIONS:
        command = command.replace(old, new)
    return command


def console_commands(block):
    """Yields (line, command, expected output lines or None)."""
    commands, index = [], 0
    lines = block.lines
    while index < len(lines):
        line = lines[index]
        if not line.startswith("$ "):
            raise DocError(f"line {block.line + index}: output before the "
                           "first `$ ` command")
        start = index
        command = line[2:]
        while command.endswith("\\") and index + 1 < len(lines):
            index += 1
            command = command[:-1] + " " + lines[index].strip()
        index += 1
        output = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index].rstrip())
            index += 1
        while output and not output[-1]:
            output.pop()
        commands.append((block.line + start, command, output or None))
    return commands


def sh_commands(block):
    commands, pending, start = [], "", 0
    for offset, raw in enumerate(block.lines):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if not pending:
            start = block.line + offset
        pending += line
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        commands.append((start, pending, None))
        pending = ""
    if pending:
        raise DocError(f"line {start}: the last command ends with `\\`")
    return commands


def matches(expected, actual, varies):
    """Whether the actual lines match the shown ones (`...` is any lines)."""
    def blank(line):
        for pattern in varies:
            line = re.sub(pattern, "<varies>", line)
        return line

    expected = [blank(line) for line in expected]
    actual = [blank(line.rstrip()) for line in actual]
    # expected[e:] against actual[a:], trying every length for each `...`.
    def match_from(e, a):
        if e == len(expected):
            return a == len(actual)
        if expected[e] == ANY_LINES:
            return any(match_from(e + 1, k) for k in range(a, len(actual) + 1))
        return (a < len(actual) and expected[e] == actual[a]
                and match_from(e + 1, a + 1))

    return match_from(0, 0)


def run_block(commands, workdir):
    """Runs a block's commands in one bash; returns [(status, output lines)]."""
    marker = "@@tilec-doc-command-end"
    script = ["cd " + shlex.quote(workdir)]
    for _, command, _ in commands:
        script.append("{\n" + substitute(command) + "\n} 2>&1")
        script.append(f'__status=$?; echo "{marker} $__status"; '
                      "(exit $__status)")
    result = subprocess.run(["bash", "-c", "\n".join(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True,
                            timeout=TIMEOUT_SECONDS)
    results, output = [], []
    for line in result.stdout.splitlines():
        if line.startswith(marker + " "):
            results.append((int(line.split()[1]), output))
            output = []
        else:
            output.append(line)
    if len(results) != len(commands):
        raise DocError("the shell stopped after command "
                       f"{len(results) + 1}:\n" + "\n".join(output))
    return results


def prepare_workdir(workdir, source, build):
    os.makedirs(workdir, exist_ok=True)
    for name in os.listdir(source):
        if name in (".git", "build"):
            continue
        link = os.path.join(workdir, name)
        if not os.path.lexists(link):
            os.symlink(os.path.join(source, name), link)
    link = os.path.join(workdir, "build")
    if not os.path.lexists(link):
        os.symlink(build, link)


def check_doc(path, source, build, doc_workdir):
    """Runs one doc's runnable blocks; returns (blocks, commands, failures)."""
    with open(path) as f:
        blocks = parse_blocks(f.read())
    prepare_workdir(doc_workdir, source, build)
    block_count, command_count, failures = 0, 0, []
    for block in blocks:
        if block.file_name:
            with open(os.path.join(doc_workdir, block.file_name), "w") as f:
                f.write("\n".join(block.lines) + "\n")
        if not block.runnable:
            continue
        block_count += 1
        commands = (console_commands(block) if block.language == "console"
                    else sh_commands(block))
        command_count += len(commands)
        try:
            results = run_block(commands, doc_workdir)
        except (DocError, subprocess.TimeoutExpired) as error:
            failures.append(f"{path}:{block.line}: {error}")
            continue
        for (line, command, expected), (status, actual) in zip(commands,
                                                               results):
            where = f"{path}:{line}: `{command}`"
            shown = "\n".join(actual)
            if expected is None:
                if status != 0:
                    failures.append(f"{where} exited with {status}:\n{shown}")
            elif not matches(expected, actual, block.varies):
                failures.append(f"{where} printed:\n{shown}\n"
                                "but the doc shows:\n" + "\n".join(expected))
    return block_count, command_count, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("docs", nargs="*")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    docs = args.docs or ([os.path.join(source, "README.md")] +
                         sorted(glob.glob(os.path.join(source, "docs",
                                                       "*.md"))))
    blocks, commands, failures = 0, 0, []
    for number, path in enumerate(docs):
        doc_workdir = os.path.join(os.path.abspath(args.workdir),
                                   f"{number}-{os.path.basename(path)}")
        try:
            counts = check_doc(os.path.abspath(path), source,
                               os.path.abspath(args.build), doc_workdir)
        except DocError as error:
            failures.append(f"{path}: {error}")
            continue
        blocks += counts[0]
        commands += counts[1]
        failures += counts[2]
    if failures:
        print("\n\n".join(failures), file=sys.stderr)
        sys.exit(f"{len(failures)} doc command failure(s)")
    print(f"{len(docs)} docs, {blocks} runnable blocks, {commands} commands")


if __name__ == "__main__":
    main()
