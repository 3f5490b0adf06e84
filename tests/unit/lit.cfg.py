# lit configuration that runs every GoogleTest binary named *Tests.
import lit.formats

config.name = "tilec-unit"
config.suffixes = []
config.test_source_root = config.tilec_unittests_dir
config.test_exec_root = config.tilec_unittests_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
