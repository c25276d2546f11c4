#!/usr/bin/env python3
"""Writes the seed corpus of ring_consumer_fuzzer: small valid ring files (one or two
domains of 16 words, four name slots) and OCaml's test_corrupted mutations of them
(each metadata word and the first ring's head set to 0, 3/4 and 2x the file size, the
int64 extremes and max_int >> 1; single event headers of every type with lengths 0-3).
Run from this directory: python3 make_seeds.py"""
import os
import struct

OUT = "corpus/ring_consumer_fuzzer"


def header(length, user, typ, ident):
    return (length << 54) | (user << 53) | (typ << 49) | (ident << 36)


def ring_file(domains, events_per_domain, names=4, words=16):
    hdrs = 64
    data = hdrs + domains * 80
    custom = data + domains * words * 8
    size = custom + names * 128
    buf = bytearray(size)
    struct.pack_into("<8Q", buf, 0, 1, domains, 80, words * 8, words, hdrs, data, custom)
    for d in range(domains):
        ring = [0] * words
        tail = 0
        for ev in events_per_domain(d):
            length = len(ev)
            off = tail % words
            if words - off < length:
                ring[off] = header(words - off, 0, 0, 0)
                tail += words - off
                off = 0
            for i, w in enumerate(ev):
                ring[off + i] = w & 0xFFFFFFFFFFFFFFFF
            tail += length
        assert tail < words, "seeds do not lap their ring: head stays 0"
        struct.pack_into("<2Q", buf, hdrs + d * 80, 0, tail)
        struct.pack_into("<%dQ" % words, buf, data + d * words * 8, *ring)
    for i, name in enumerate([b"fuzz.unit", b"fuzz.int", b"fuzz.span", b"fuzz.str"][:names]):
        buf[custom + i * 128: custom + i * 128 + len(name)] = name
    return bytes(buf)


def events(d):
    return [
        [header(3, 0, 1, 6), 100, 1234 + d],          # lifecycle domain_spawn
        [header(2, 0, 2, 11), 101],                    # begin minor
        [header(3, 0, 4, 4), 102, 77],                 # counter minor_promoted
        [header(2, 0, 3, 11), 103],                    # end minor
        [header(2, 1, 0, 0), 104],                     # user unit
    ]


def short_events(d):
    return [[header(3, 0, 1, 0), 1, 4242], [header(3, 1, 1, 1), 2, 0xFFFFFFFFFFFFFFFF],
            [header(2, 1, 2, 2), 3], [header(3, 1, 4, 3), 4, int.from_bytes(b"hi!\0\0\0\0\x04", "little")]]


def main():
    os.makedirs(OUT, exist_ok=True)
    seeds = {
        "valid_one_domain": ring_file(1, short_events),
        "valid_two_domains": ring_file(2, events),
    }
    base = seeds["valid_one_domain"]
    size = len(base)
    values = [0, size * 3 // 4, size * 2, (1 << 63) - 1, 1 << 63, ((1 << 63) - 1) >> 1]
    for word in range(9):
        for k, v in enumerate(values):
            b = bytearray(base)
            struct.pack_into("<Q", b, 8 * word, v & 0xFFFFFFFFFFFFFFFF)
            seeds["meta_w%d_v%d" % (word, k)] = bytes(b)
    data_offset = 64 + 80
    for user in (0, 1):
        for typ in (0, 1, 2, 3, 4, 5, 15):
            for length in (0, 1, 2, 3):
                b = bytearray(base)
                struct.pack_into("<Q", b, data_offset, header(length, user, typ, 3))
                seeds["event_u%d_t%d_l%d" % (user, typ, length)] = bytes(b)
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
