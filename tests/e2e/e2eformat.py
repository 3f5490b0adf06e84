"""The e2e suite's test format: lit's ShTest, with the programs a backend
is known to fail on (tests/e2e/lit.cfg.py lists them with the reasons)
expected to fail. A module of its own so that lit's worker processes can
unpickle it."""

import lit.formats


class E2ETest(lit.formats.ShTest):
    def __init__(self, known_failures):
        super().__init__(execute_external=False)
        self.known_failures = set(known_failures)

    def execute(self, test, lit_config):
        if test.path_in_suite[-1] in self.known_failures:
            test.xfails += ["*"]
        return super().execute(test, lit_config)
