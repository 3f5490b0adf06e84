"""The differential test's lit format: one test per seed of the CI set
(lit.cfg.py), each running difftest.py on that seed alone, `in-process`, which
runs the first 8 of them through the in-process worker (inprocess.py),
`gpu-profile`, which runs the first 16 through the worker with a GPU's profile
over the devices' own (tests/e2e/Inputs/gpu-schedule.json: the GPU schedules,
with their vectors and lanes, on the CPU devices), and `selftest`, which checks the comparison, the generator and the worker's
fallbacks (selftest.py). A test passes when
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
        yield lit.Test.Test(testSuite, ("in-process",), localConfig)
        yield lit.Test.Test(testSuite, ("gpu-profile",), localConfig)
        for seed in self.seeds:
            yield lit.Test.Test(testSuite, ("seed-%d" % seed,), localConfig)

    def execute(self, test, litConfig):
        here = os.path.dirname(__file__)
        name = test.path_in_suite[-1]
        work = os.path.join(self.work_root, "work")
        os.makedirs(work, exist_ok=True)
        driver = ["/usr/bin/python3", os.path.join(here, "difftest.py"), "--jobs", "1",
                  "--tilec", self.tilec, "--work", work,
                  "--keep", os.path.join(self.work_root, "findings")]
        if name == "selftest":
            cmd = ["/usr/bin/python3", os.path.join(here, "selftest.py"), self.tilec]
        elif name == "in-process":
            # The first seeds of the CI set again, through the worker.
            cmd = driver + ["--in-process", "--seeds", "%d..%d" % (self.seeds[0],
                                                                   self.seeds[7])]
        elif name == "gpu-profile":
            profile = os.path.join(here, "..", "e2e", "Inputs", "gpu-schedule.json")
            cmd = driver + ["--in-process", "--profile", profile, "--seeds",
                            "%d..%d" % (self.seeds[0], self.seeds[15])]
        else:
            cmd = driver + ["--seeds", name.split("-")[1]]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=test.config.environment)
        output = "$ %s\n%s" % (" ".join(cmd), p.stdout.decode(errors="replace"))
        passed = p.returncode == 0
        if name in ("in-process", "gpu-profile"):
            # A worker that never answers would pass through the fallback.
            count = 8 if name == "in-process" else 16
            passed &= ("%d programs ran in-process, 0 through tilec run" % count
                       in output)
        return (lit.Test.PASS if passed else lit.Test.FAIL), output
