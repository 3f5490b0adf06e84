"""The difftest's in-process runs (difftest.py --in-process): a
tile-difftest-worker per job opens each backend's device once and runs every
program the job checks, instead of a `tilec run` per program and backend,
whose device opening dominates on a GPU (tests/difftest/worker/, whose header
says why). A worker that dies or stops answering is replaced, and the
program it was running goes through `tilec run`, whose exit status decides
between a crash, a hang and a refusal."""

import json
import os
import select
import subprocess


class Worker:
    """One tile-difftest-worker process, started on first use."""

    def __init__(self, path, arguments, env):
        """`arguments`: the worker's, [--profile FILE] BACKEND..."""
        self.command = [path] + list(arguments)
        self.env = env
        self.process = None
        self.answered = 0
        self.fallbacks = 0

    def count(self, reply):
        """Counts a program that ran in-process (`reply`, from run()) or
        through `tilec run` (None)."""
        if reply is None:
            self.fallbacks += 1
        else:
            self.answered += 1

    def run(self, program, inputs, output_dir, timeout):
        """{backend: (kind, text)} for `program` on every backend, its
        outputs written to output_dir/<backend>/; None if the worker died or
        took longer than `timeout` seconds (it is then stopped)."""
        if self.process is None:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, env=self.env)
        request = json.dumps({"program": program, "inputs": inputs,
                              "output_dir": output_dir})
        try:
            self.process.stdin.write(request.encode() + b"\n")
            self.process.stdin.flush()
            ready, _, _ = select.select([self.process.stdout], [], [], timeout)
            line = self.process.stdout.readline() if ready else b""
            reply = json.loads(line) if line else None
        except (OSError, ValueError):
            reply = None
        if not reply or "error" in reply:
            self.stop()
            return None
        return {backend: (result["kind"], result["text"])
                for backend, result in reply.items()}

    def stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def input_files(args):
    """{name: path} of tilegen's `--input=NAME=@PATH` arguments."""
    files = {}
    for arg in args:
        name, path = arg[len("--input="):].split("=@", 1)
        files[name] = os.path.abspath(path)
    return files
