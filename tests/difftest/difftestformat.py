"""The differential test's lit format: one test per seed of the CI set
(lit.cfg.py), each running difftest.py on that seed alone, and `selftest`,
which checks the comparison and the generator (selftest.py). A test passes when
the program agrees on every backend or its findings are known issues
(known_issues.py). A module of its own so that lit's worker processes can
unpickle it."""

import os
import subprocess

import lit.formats
import lit.Test


class DiffTest(lit.formats.TestFormat):
    def __init__(self, seeds, tilec, work_root):
        self.seeds = list(seeds)
        self.tilec = tilec
        self.work_root = work_root

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        if path_in_suite:
            return
        yield lit.Test.Test(testSuite, ("selftest",), localConfig)
        for seed in self.seeds:
            yield lit.Test.Test(testSuite, ("seed-%d" % seed,), localConfig)

    def execute(self, test, litConfig):
        here = os.path.dirname(__file__)
        if test.path_in_suite[-1] == "selftest":
            cmd = ["/usr/bin/python3", os.path.join(here, "selftest.py")]
        else:
            seed = int(test.path_in_suite[-1].split("-")[1])
            work = os.path.join(self.work_root, "work")
            os.makedirs(work, exist_ok=True)
            cmd = ["/usr/bin/python3", os.path.join(here, "difftest.py"),
                   "--seeds", str(seed), "--jobs", "1", "--tilec", self.tilec,
                   "--work", work, "--keep", os.path.join(self.work_root, "findings")]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=test.config.environment)
        output = "$ %s\n%s" % (" ".join(cmd), p.stdout.decode(errors="replace"))
        return (lit.Test.PASS if p.returncode == 0 else lit.Test.FAIL), output
