#!/usr/bin/env python3
"""An independent implementation of OCaml 5's memprof sampler, behind the kit's adapter.

It reads a sampler request (`*.sampler.json`, core/corpus/SCHEMA.md "sampler") and prints
the schema 2 stream `memprof-oracle corpus check` compares: a header line, one
`{"kind":"draw","value":N}` per draw, and the end line. A request it refuses still gets
the header and an end line whose `error` says why (exit 1). Its error wording is its own:
the kit compares the error's class (`code`), never its words.

Written from the description of runtime/memprof.c, in plain Python (no packages), to show
what an outside implementation needs: the 64 xoshiro128+ lanes seeded by splitmix64, the
single-precision log approximation, the geometric draw, and rand_binom's surplus.

    python3 memprof_sampler.py CASE.sampler.json
"""

import json
import math
import sys
from array import array
from bisect import bisect_left
from itertools import accumulate

LANES = 64
MAX_LONG = (1 << 62) - 1
MASK32 = 0xFFFFFFFF
MASK64 = 0xFFFFFFFFFFFFFFFF
# The request limits the oracle publishes: a hostile request costs seconds, not hours.
MAX_DRAWS = 1_000_000
MAX_BINOMIAL_WORK = 1e8


def f32(values):
    """Rounds each double to single precision (one rounding per IEEE operation)."""
    return array("f", values).tolist()


def f32_bits(values):
    return array("i", array("f", values).tobytes()).tolist()


def bits_f32(bits):
    return array("f", array("i", bits).tobytes()).tolist()


# The log approximation's coefficients and ln 2, as single-precision constants.
C0, C1, C2, C3, LN2 = f32([-111.70172433407, 2.104659476859, -0.720478916626,
                           0.107132064797, 0.6931471805])
TWO_POW_62 = float(1 << 62)


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class Lanes:
    """64 independent xoshiro128+ generators, seeded in order from one splitmix64 stream."""

    def __init__(self, seed):
        self.s = [[0] * LANES for _ in range(4)]
        state = seed & MASK64
        for i in range(LANES):
            state, t = splitmix64(state)
            self.s[0][i], self.s[1][i] = t & MASK32, t >> 32
            state, t = splitmix64(state)
            self.s[2][i], self.s[3][i] = t & MASK32, t >> 32

    def step(self):
        """Each lane's output (s0 + s3), then its state advanced one step."""
        s0, s1, s2, s3 = self.s
        out = [0] * LANES
        for i in range(LANES):
            a, b, c, d = s0[i], s1[i], s2[i], s3[i]
            out[i] = (a + d) & MASK32
            t = (b << 9) & MASK32
            c ^= a
            d ^= b
            s1[i] = b ^ c
            s0[i] = a ^ d
            s2[i] = c ^ t
            s3[i] = ((d << 11) | (d >> 21)) & MASK32
        return out


def geometric_batch(lanes, k):
    """64 geometric draws: floor(1 + log_approx(u) * k), in single precision, clipped."""
    u = lanes.step()
    f = f32([y + 0.5 for y in f32(u)])  # (float)u + 0.5f
    bits = f32_bits(f)
    e = f32([b >> 23 for b in bits])
    x = bits_f32([(b & 0x7FFFFF) | 0x3F800000 for b in bits])
    p = f32([C2 + v for v in f32([xi * C3 for xi in x])])
    p = f32([C1 + v for v in f32([xi * pi for xi, pi in zip(x, p)])])
    p = f32([C0 + v for v in f32([xi * pi for xi, pi in zip(x, p)])])
    log = f32([pi + v for pi, v in zip(p, f32([LN2 * ei for ei in e]))])
    b = f32([1.0 + v for v in f32([li * k for li in log])])
    return [int(v) if v < TWO_POW_62 else MAX_LONG for v in b]


class Sampler:
    """One domain's sampler: batches of 64 draws, started at a rate (rand_init)."""

    def __init__(self, seed, lam):
        self.lanes = Lanes(seed)
        # 1 / log(1 - lambda), or -inf where the rate never samples (lambda = 0, where
        # C divides by -0.0 and Python would raise).
        k = 0.0 if lam == 1.0 else -math.inf if lam == 0.0 else 1.0 / math.log1p(-lam)
        self.never = not k <= 0.0 or k == -math.inf
        self.one_log1m_lambda = k
        self.k = f32([-math.inf if self.never else k])[0]
        self.buffer, self.pos = [], 0
        # rand_init: the surplus is one draw minus one (nothing is drawn when never sampling).
        self.surplus = 0 if self.never else self.geometric() - 1

    def geometric(self):
        if self.pos == len(self.buffer):
            self.buffer, self.pos = geometric_batch(self.lanes, self.k), 0
        self.pos += 1
        return self.buffer[self.pos - 1]

    def binomial(self, length):
        if self.never:
            return 0
        if self.one_log1m_lambda == 0.0:  # lambda = 1: every word sampled, each draw is 1
            hits = max(length - self.surplus, 0)
            self.surplus += hits - length
            return hits
        # rand_binom adds draws to the surplus until it reaches the block's end; taken a
        # batch at a time (the same draws, in order) so that Python loops per batch.
        hits = 0
        while self.surplus < length:
            if self.pos == len(self.buffer):
                self.buffer, self.pos = geometric_batch(self.lanes, self.k), 0
            need = length - self.surplus
            sums = list(accumulate(self.buffer[self.pos:]))
            taken = bisect_left(sums, need) + 1  # draws until the surplus reaches `length`
            taken = min(taken, len(sums))
            self.surplus += sums[taken - 1]
            self.pos += taken
            hits += taken
        self.surplus -= length
        return hits


class Refused(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def is_unsigned(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MASK64


def reject_constant(name):
    raise ValueError("not JSON: " + name)


def finite_float(text):
    v = float(text)
    if not math.isfinite(v):
        raise ValueError("number out of range: " + text)
    return v


def read_request(text):
    """(header members, validated request or the Refused error)."""
    header = {"mode": None, "seed": None, "lambda": None}
    try:
        doc = json.loads(text, parse_constant=reject_constant, parse_float=finite_float)
    except (ValueError, RecursionError) as e:
        return header, Refused("corrupt", "the request is not JSON: %s" % e)
    if not isinstance(doc, dict):
        return header, Refused("corrupt", "the request is not an object")
    mode, seed, lam = doc.get("mode"), doc.get("seed"), doc.get("lambda")
    if mode in ("geometric", "binomial"):
        header["mode"] = mode
    if is_unsigned(seed):
        header["seed"] = seed
    if isinstance(lam, (int, float)) and not isinstance(lam, bool):
        header["lambda"] = lam
    if header["seed"] is None:
        return header, Refused("corrupt", "no unsigned seed")
    if header["lambda"] is None:
        return header, Refused("corrupt", "no numeric lambda")
    if not 0.0 <= lam <= 1.0:
        return header, Refused("out of range", "lambda outside [0, 1]")
    if header["mode"] is None:
        return header, Refused("corrupt", "unknown mode")
    if mode == "geometric":
        count = doc.get("count")
        if not is_unsigned(count) or count > MAX_DRAWS:
            return header, Refused("out of range", "bad count")
        return header, doc
    lengths = doc.get("lengths")
    if not isinstance(lengths, list) or len(lengths) > MAX_DRAWS:
        return header, Refused("corrupt", "bad lengths")
    if not all(is_unsigned(n) for n in lengths):
        return header, Refused("corrupt", "a length is not an unsigned integer")
    if lam < 1 and sum(float(n) * lam for n in lengths) > MAX_BINOMIAL_WORK:
        return header, Refused("out of range", "too many expected samples")
    return header, doc


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: memprof_sampler.py REQUEST.sampler.json\n")
        return 2
    try:
        with open(argv[1], "rb") as f:
            text = f.read(1 << 26).decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write("memprof_sampler.py: %s\n" % e)
        return 2
    out = sys.stdout
    header, request = read_request(text)
    # Numbers compare by value (0.5 equals 5e-1), so Python's own spelling will do.
    out.write('{"schema":2,"format":"sampler","mode":%s,"seed":%s,"lambda":%s}\n' % (
        json.dumps(header["mode"]), json.dumps(header["seed"]), json.dumps(header["lambda"])))
    records = 0
    error = request if isinstance(request, Refused) else None
    if error is None:
        sampler = Sampler(request["seed"], float(request["lambda"]))
        if request["mode"] == "geometric":
            # From a fresh seed: the draw rand_init consumed first, then what rand_geom returns.
            draws = []
            if request["count"] > 0:
                draws.append(MAX_LONG if sampler.never else sampler.surplus + 1)
            while len(draws) < request["count"]:
                draws.append(sampler.geometric())
        else:
            draws = []
            for length in request["lengths"]:
                if length >= MAX_LONG:
                    error = Refused("out of range", "a block length reaches Max_long")
                    break
                draws.append(sampler.binomial(length))
        for d in draws:
            out.write('{"kind":"draw","value":%d}\n' % d)
        records = len(draws)
    if error is None:
        out.write('{"kind":"end_of_stream","error":null,"records":%d}\n' % records)
        return 0
    out.write('{"kind":"end_of_stream","error":{"code":%s,"check":%s,"offset":null},'
              '"records":%d}\n' % (json.dumps(error.code), json.dumps(str(error)), records))
    sys.stderr.write("memprof_sampler.py: refused: %s\n" % error)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
