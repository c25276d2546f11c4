"""validate_schema2.py SCHEMA DIR: every line of every expected stream in the corpus DIR
(*.expected*.jsonl) is valid against the JSON Schema of a schema 2 line, judged by the
format its header names; and lines that break the schema's rules are refused, so the
schema is shown to say something. Needs python3-jsonschema (Debian's). Prints
"N passed, N failed" (streams and refusals checked) and exits 1 on any failure."""

import copy
import glob
import json
import os
import sys

import jsonschema


def line_validators(schema):
    """One validator per stream format (its lines are `<format>_line`), and one per
    record kind of each format (the definition that kind's lines must match), so that
    most lines are checked against one definition rather than a oneOf of all."""
    def validator(ref):
        return jsonschema.Draft202012Validator(
            {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/" + ref})

    by_format, by_kind = {}, {}
    for fmt in ("memtrace", "ring", "sampler"):
        by_format[fmt] = validator(fmt + "_line")
        for alt in schema["$defs"][fmt + "_line"]["oneOf"]:
            name = alt["$ref"].rsplit("/", 1)[1]
            kind = schema["$defs"][name]["properties"].get("kind", {"const": "header"})
            for k in kind.get("enum", [kind.get("const")]):
                by_kind[(fmt, k)] = validator(name)
    return by_format, by_kind


def main(schema_path, corpus):
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    whole = jsonschema.Draft202012Validator(schema)
    by_format, by_kind = line_validators(schema)
    passed = failed = 0
    streams = sorted(glob.glob(os.path.join(corpus, "*", "*.expected*.jsonl")))
    samples = {}
    for path in streams:
        bad = None
        with open(path) as f:
            lines = [json.loads(line) for line in f]
        fmt = lines[0].get("format")
        for number, line in enumerate(lines, 1):
            if fmt not in by_format:
                bad = "line 1: no format"
                break
            kind = "header" if number == 1 else line.get("kind")
            check = by_kind.get((fmt, kind), by_format[fmt])
            err = jsonschema.exceptions.best_match(check.iter_errors(line))
            if err is None and (fmt, kind) not in samples:
                # The first line of each kind also through the whole schema's anyOf/oneOf.
                if not whole.is_valid(line) or not by_format[fmt].is_valid(line):
                    err = "valid as a %s %s, not under the whole schema" % (fmt, kind)
                samples[(fmt, kind)] = line
            if err is not None:
                bad = "line %d: %s" % (number, getattr(err, "message", err))
                break
        if bad:
            failed += 1
            print("FAIL %s: %s" % (os.path.relpath(path, corpus), bad[:300]))
        else:
            passed += 1

    # Lines that break a stated rule must be refused: signedness, members, types.
    def broken(fmt, kind, edit):
        line = samples.get((fmt, kind))
        if line is None:
            return None
        line = copy.deepcopy(line)
        edit(line)
        return fmt, line

    def set_(member, value):
        def edit(line):
            target = line
            *path, last = member.split("/")
            for p in path:
                target = target[p]
            target[last] = value
        return edit

    refusals = [
        ("memtrace alloc with a negative domain", broken("memtrace", "alloc", set_("domain", -1))),
        ("memtrace alloc id past OCaml's int", broken("memtrace", "alloc", set_("id", 2**62))),
        ("memtrace alloc without its backtrace",
         broken("memtrace", "alloc", lambda j: j.pop("backtrace"))),
        ("memtrace alloc with an unknown member", broken("memtrace", "alloc", set_("extra", 1))),
        ("memtrace alloc with an upper-case code",
         broken("memtrace", "alloc", set_("backtrace", ["AB"]))),
        ("memtrace header pid past int64", broken("memtrace", "header", set_("info/pid", 2**63))),
        ("memtrace header context that is a number",
         broken("memtrace", "header", set_("info/context", 0))),
        ("ring counter value past uint64", broken("ring", "counter", set_("value", 2**64))),
        ("ring counter value negative", broken("ring", "counter", set_("value", -1))),
        ("ring alloc with 19 buckets", broken("ring", "alloc", lambda j: j["buckets"].pop())),
        ("sampler draw as a string", broken("sampler", "draw", set_("value", "1"))),
        ("end line without records", broken("sampler", "end_of_stream", lambda j: j.pop("records"))),
        ("end line with an unknown error code",
         broken("sampler", "end_of_stream", set_("error", {"code": "bad", "check": "x", "offset": None}))),
    ]
    for name, case in refusals:
        if case is None:
            failed += 1
            print("FAIL refusal '%s': the corpus has no line of that kind to break" % name)
        elif by_format[case[0]].is_valid(case[1]):
            failed += 1
            print("FAIL refusal '%s': the schema accepts %s" % (name, json.dumps(case[1])[:200]))
        else:
            passed += 1
    print("schema2: %d streams, %d refusals" % (len(streams), len(refusals)))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and streams else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
