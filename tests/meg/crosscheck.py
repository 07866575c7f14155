#!/usr/bin/env python3
"""Compares the TSV tables of rules/meg/maximus.rules (tables/meg/*.tsv) with the
independent reading in tests/meg/*.expect.tsv, without the compiler: reads each
TSV as docs/language.md describes (header, `^` repeats the cell above, sets as
codes) and prints the value a `regula query` should print.
Run from the repository root: python3 tests/meg/crosscheck.py
"""
import glob
import sys

TERR = [("S", "Standard"), ("C", "Coastal"), ("D", "Desert"), ("F", "Forest"), ("J", "Jungle"),
        ("M", "Mountains"), ("P", "Plains")]
TERRAINS = ["OpenArea", "Hills", "RockyGround", "Brush", "PloughedFields", "TallCrops", "Village",
            "BoundariedFields", "Orchards", "Vineyards", "Town", "Woods", "Gully", "Marsh", "Mountains",
            "Forest", "Swamp", "SandyGround", "Wadi", "SandDunes", "TerrainedHills", "ImpassableHills",
            "DeepWater", "River", "Streams"]
GOING = {"Good": "Good Going", "Rough": "Rough", "Difficult": "Difficult", "Impassable": "Impassable",
         "Special": "Special"}


def split_camel(c):
    out = ""
    for i, ch in enumerate(c):
        if i and ch.isupper():
            out += " "
        out += ch
    return out


def rows(path):
    lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
    lines = [l for l in lines if l and not l.startswith("#")]
    return [l.split("\t") for l in lines]


def terr_set(cell):
    if cell.strip() == "-":
        return "none"           # an empty set prints as none
    codes = cell.replace(",", " ").split()
    assert all(c in dict(TERR) for c in codes), cell
    return ", ".join(n for c, n in TERR if c in codes)


def terrain_set(cell):
    if cell.strip() == "-":
        return "none"
    codes = cell.replace(",", " ").split()
    assert all(c in TERRAINS for c in codes), cell
    return ", ".join(split_camel(c) for c in TERRAINS if c in codes)


def two_key(path, conv, name):
    r = rows(path)
    head = r[0][1:]
    got = {}
    above = [None] * len(head)
    for row in r[1:]:
        assert len(row) == len(head) + 1, row
        for i, cell in enumerate(row[1:]):
            if cell == "^":
                cell = above[i]
            assert cell is not None, (path, row)
            above[i] = cell
            got[(name, row[0], head[i])] = conv(cell)
    return got


def one_key_record(path, name, conv):
    r = rows(path)
    head = r[0]
    got = {}
    for row in r[1:]:
        assert len(row) == len(head), (path, row)
        for f, v in zip(head[1:], row[1:]):
            if f == "assumed":
                continue
            got[(name + "." + f, row[0])] = conv.get(f, lambda x: x)(v)
    return got


def main():
    actual = {}
    actual.update(two_key("tables/meg/weather.tsv", lambda x: x, "weather"))
    actual.update(two_key("tables/meg/pbs_map.tsv", terr_set, "pbs_map"))
    actual.update(two_key("tables/meg/secure_flank.tsv", terrain_set, "secure_flank"))
    actual.update(one_key_record("tables/meg/terrain.tsv", "terrain",
                                 {"territories": terr_set, "going": lambda x: GOING[x]}))
    actual.update(one_key_record("tables/meg/density.tsv", "density", {}))
    checked = bad = 0
    seen = set()
    for f in sorted(glob.glob("tests/meg/*.expect.tsv")):
        for n, line in enumerate(open(f, encoding="utf-8"), 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            key = tuple(parts[:-1])
            if key not in actual:
                continue            # an inline table of the rule file
            seen.add(key)
            checked += 1
            if actual[key] != parts[-1]:
                bad += 1
                print(f"{f}:{n}: {key}: expected {parts[-1]!r}, TSV gives {actual[key]!r}")
    # every non-empty TSV value must be covered by an expectation
    missing = [k for k, v in actual.items() if v != "" and k not in seen]
    for k in missing:
        print("not checked:", k, actual[k])
    print(f"{checked} checked, {bad} differ, {len(missing)} non-empty TSV values not checked")
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
