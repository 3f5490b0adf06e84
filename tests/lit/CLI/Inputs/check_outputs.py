"""Checks the files that outputs.test writes with --output: each holds the
values given inline, in its dtype (bf16 as the bit patterns of |V2)."""

import sys

import numpy as np

folder = sys.argv[1]
expected = {
    "f32": np.array([1.5, -2, 1e-3], np.float32),
    "f64": np.array([0.1, -1e300], np.float64),
    "f16": np.array([0.5, -65504, np.inf], np.float16),
    "i8": np.array([-128, 127], np.int8),
    "i16": np.array([-32768, 32767], np.int16),
    "i32": np.array([-2147483648, 2147483647], np.int32),
    "i64": np.array([-9223372036854775808, 9223372036854775807], np.int64),
    "u8": np.array([0, 255], np.uint8),
    "u16": np.array([0, 65535], np.uint16),
    "u32": np.array([0, 4294967295], np.uint32),
    "u64": np.array([0, 18446744073709551615], np.uint64),
    "bool": np.array([True, False, True]),
}
for name, want in expected.items():
    got = np.load(f"{folder}/{name}.npy")
    assert got.dtype == want.dtype, (name, got.dtype)
    np.testing.assert_array_equal(got, want, err_msg=name)

# bf16: 1.5, -2 and 3e38 rounded to bfloat16 (0x3FC0, 0xC000, 0x7F62).
bf16 = np.load(f"{folder}/bf16.npy")
assert bf16.dtype == np.dtype("V2"), bf16.dtype
bits = bf16.view("<u2").tolist()
assert bits == [0x3FC0, 0xC000, 0x7F62], [hex(b) for b in bits]
print("all outputs read back")
