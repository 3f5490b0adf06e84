"""Reads an 8-bit RGB PNG with the standard library alone, checking what a
viewer checks (the signature, every chunk's CRC, IHDR first and IEND last,
the image data's size once inflated), and prints its size, format and the
pixels asked for: read_png.py FILE [ROW,COLUMN ...]."""

import struct
import sys
import zlib


def chunks(data):
    offset = 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        if zlib.crc32(kind + body) != crc:
            sys.exit(f"read_png: chunk {kind!r} has a bad CRC")
        yield kind, body
        offset += 12 + length


def paeth(left, up, upper_left):
    estimate = left + up - upper_left
    distances = [abs(estimate - v) for v in (left, up, upper_left)]
    return (left, up, upper_left)[distances.index(min(distances))]


def unfilter(raw, width, height, bpp):
    """The rows of the image, each filter (PNG section 9) undone."""
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for r in range(height):
        start = r * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = row[i - bpp] if i >= bpp else 0
            upper_left = previous[i - bpp] if i >= bpp else 0
            predictor = [0, left, previous[i], (left + previous[i]) // 2,
                         paeth(left, previous[i], upper_left)][kind]
            row[i] = (row[i] + predictor) & 0xFF
        rows.append(row)
        previous = row
    return rows


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("read_png: not a PNG signature")
    found = list(chunks(data))
    if found[0][0] != b"IHDR" or found[-1][0] != b"IEND":
        sys.exit("read_png: IHDR must come first and IEND last")
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", found[0][1])
    if (depth, color, interlace) != (8, 2, 0):
        sys.exit(f"read_png: not 8-bit RGB, non-interlaced: {depth}, {color}, {interlace}")
    raw = zlib.decompress(b"".join(body for kind, body in found if kind == b"IDAT"))
    if len(raw) != height * (1 + 3 * width):
        sys.exit(f"read_png: {len(raw)} bytes of image data for {width}x{height}")
    print(f"PNG {width}x{height} 8-bit RGB")
    rows = unfilter(raw, width, height, 3)
    for spec in sys.argv[2:]:
        r, c = (int(v) for v in spec.split(","))
        print(f"pixel {r},{c}: {tuple(rows[r][3 * c:3 * c + 3])}")


main()
