#!/usr/bin/env node
// Rewrites citations of the former product spec ("spec §4", "Spec §2:", "SPEC §3", or a bare
// "§5" in a file that cites the spec) to the numbered sections of docs/behaviour
// ("behaviour 2.6"), using docs/behaviour/spec-map.json. No dependencies.
//
//   node scripts/cite-behaviour.mjs [--write] [--verbose] FILE...   (default: a dry run)
//   node scripts/cite-behaviour.mjs --table                          (spec-map.md's table)
//
// For each citation the section's rules are tried in order against, first, the words right
// after it (up to the next § or closing bracket), then its line, then its comment block, then
// the file's path; the first rule that matches decides. A citation no rule matches is left as
// it is and printed as undecided. References to other documents' sections (RFC 3339 §5.6,
// FIPS-197 §4.2) are never touched: a spec citation is § and one digit, not followed by ".n".
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const mapPath = join(here, '..', 'docs', 'behaviour', 'spec-map.json');
const map = JSON.parse(readFileSync(mapPath, 'utf8'));

const sections = {};
for (const [n, s] of Object.entries(map.sections)) {
  sections[n] = s.rules.map((r) => ({ ...r, re: new RegExp(r.match, r.case ? '' : 'i') }));
}

const undecidedLines = (map.undecided || []).map((u) => new RegExp(u));
const overrides = (map.overrides || []).map((o) => ({ ...o, re: new RegExp(o.match) }));

const args = process.argv.slice(2);
const flag = (f) => {
  const i = args.indexOf(f);
  if (i < 0) return false;
  args.splice(i, 1);
  return true;
};

if (flag('--table')) {
  console.log('| spec | sub-topic | behaviour | words that select it (regular expression) |');
  console.log('| --- | --- | --- | --- |');
  for (const [n, s] of Object.entries(map.sections)) {
    for (const r of s.rules) {
      console.log(`| §${n} ${s.title} | ${r.topic} | ${r.to} | \`${r.match.replace(/\|/g, '\\|')}\` |`);
    }
  }
  console.log('');
  console.log('Lines no rule can decide (they summarise a file), and what each spec section on them becomes:');
  console.log('');
  console.log('| file | line | becomes |');
  console.log('| --- | --- | --- |');
  for (const o of overrides) {
    const to = Object.entries(o.to).map(([k, v]) => `§${k} → ${v}`).join(', ');
    console.log(`| \`${o.path}\` | \`${o.match.replace(/\|/g, '\\|')}\` | ${to} |`);
  }
  process.exit(0);
}

const write = flag('--write');
const verbose = flag('--verbose');
if (args.length === 0) {
  console.error('usage: node scripts/cite-behaviour.mjs [--write] [--verbose] FILE...');
  process.exit(2);
}

// "spec §4", "Spec §4", "SPEC §4", "spec's §4", or a bare "§4"; not "§4.2" nor "§§".
const CITE = /(\b(?:[Ss]pec|SPEC)(?:'s)?\s+)?§([1-9])(?![.\d])/g;
// Section signs that belong to another document.
const FOREIGN = /(?:RFC\s*\d+|FIPS-\d+|EIP-\d+|ERC-\d+|ENSIP-\d+|BIP-?\d+|CAIP-\d+)[,:]?\s*$/;
const COMMENT = /^\s*(\/\/|\/\*|\*|#|<!--|--)/;

function block(lines, i) {
  const isComment = COMMENT.test(lines[i]);
  const same = (l) => l !== undefined && l.trim() !== '' && (!isComment || COMMENT.test(l));
  let a = i;
  let b = i;
  while (a > i - 4 && same(lines[a - 1])) a--;
  while (b < i + 4 && same(lines[b + 1])) b++;
  return lines.slice(a, b + 1).join(' ');
}

// Whether `prev` is a comment or prose line whose sentence runs on into the next line.
function continues(prev) {
  if (prev === undefined) return false;
  const text = prev.replace(/^\s*(\/\/[!/]?|\/\*\*?|\*|#+|<!--)?\s*/, '');
  return text !== '' && !/[.!?:]\s*(\*\/)?$/.test(text);
}

function decide(n, contexts) {
  const rules = sections[n];
  if (!rules) return null;
  for (const [tier, text] of contexts) {
    if (!text) continue;
    for (const r of rules) if (r.re.test(text)) return { to: r.to, tier, topic: r.topic };
  }
  return null;
}

let resolved = 0;
let undecided = 0;
let foreign = 0;
let changedFiles = 0;
const byTarget = {};

// These files are about the citations themselves.
const SELF = /(^|\/)(docs\/behaviour\/|scripts\/cite-behaviour\.mjs$)/;

for (const file of args) {
  if (SELF.test(file.replace(/\\/g, '/'))) continue;
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    continue;
  }
  const lines = text.split('\n');
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.includes('§')) continue;
    const cites = [...line.matchAll(CITE)];
    if (cites.length === 0) continue;
    const override = overrides.find((o) => file.replace(/\\/g, '/').endsWith(o.path) && o.re.test(line));
    const leaveLine = !override && undecidedLines.some((u) => u.test(line));
    // A line that cites four or more sections lists them; only each one's own words decide.
    const onlyAfter = cites.length >= 4;
    let out = '';
    let last = 0;
    for (let k = 0; k < cites.length; k++) {
      const m = cites[k];
      const start = m.index;
      const end = start + m[0].length;
      if (!m[1] && FOREIGN.test(line.slice(0, start))) {
        foreign++;
        continue;
      }
      const next = k + 1 < cites.length ? cites[k + 1].index : line.length;
      const after = line.slice(end, next).split(/[)\]]/)[0].slice(0, 80);
      const d = override?.to[m[2]]
        ? { to: override.to[m[2]], tier: 'override', topic: override.match }
        : leaveLine
        ? null
        : decide(
            m[2],
            onlyAfter
              ? [['after', after]]
              : [
                  ['after', after],
                  ['line', line],
                  ['block', block(lines, i)],
                  ['path', file],
                ],
          );
      const where = `${file}:${i + 1}`;
      if (!d) {
        undecided++;
        console.log(`UNDECIDED ${where}: §${m[2]}: ${line.trim().slice(0, 140)}`);
        continue;
      }
      resolved++;
      byTarget[d.to] = (byTarget[d.to] || 0) + 1;
      if (verbose) console.log(`${d.to.padEnd(5)} ${where}: §${m[2]} [${d.tier}: ${d.topic}] ${line.trim().slice(0, 120)}`);
      // "Spec §n" keeps its capital; so does a bare "§n" that starts a sentence or a comment.
      const before = line.slice(0, start);
      const capital = m[1]
        ? m[1][0] === 'S' && m[1][1] === 'p'
        : /[\w)"'`][.!?]\s+$/.test(before) ||
          (/^\s*(\/\/[!/]?|\/\*\*?|\*|#+|<!--)?\s*$/.test(before) && !continues(lines[i - 1]));
      const word = capital ? 'Behaviour' : 'behaviour';
      out += line.slice(last, start) + `${word} ${d.to}`;
      last = end;
    }
    if (last === 0) continue;
    out += line.slice(last);
    // "behaviour 1.1, behaviour 5.12" → "behaviour 1.1, 5.12"; a section repeated in such a list
    // once; the same section cited twice in a row, the second time with no words of its own: once.
    let prev;
    do {
      prev = out;
      out = out.replace(/(?<=[Bb]ehaviour (?:[\d.–]+(?:, | and | \/ ))*)([\d.–]+)(, | and | \/ )behaviour ([\d.–]+)(?![\d.–])/, '$1$2$3');
      out = out.replace(/(?<=[Bb]ehaviour (?:[\d.–]+, )*)([\d.–]+)((?:, [\d.–]+)*), \1(?![\d.–])/, '$1$2');
      out = out.replace(/([Bb]ehaviour ([\d.–]+)( "[^"]*")?), behaviour \2(?![\d.–])(?=[),;]|$)/, '$1');
      out = out.replace(/([Bb]ehaviour ([\d.–]+)( "[^"]*")), behaviour \2\3(?=[),;]|$)/, '$1');
    } while (out !== prev);
    if (out !== line) {
      lines[i] = out;
      changed = true;
    }
  }
  if (changed) {
    changedFiles++;
    if (write) writeFileSync(file, lines.join('\n'));
  }
}

console.log(
  `${write ? 'rewrote' : 'dry run:'} ${resolved} resolved, ${undecided} undecided, ` +
    `${foreign} other documents' § left alone; ${changedFiles} file(s) ${write ? 'changed' : 'would change'}`,
);
if (verbose) {
  const rows = Object.entries(byTarget).sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }));
  console.log('by section: ' + rows.map(([t, c]) => `${t} ${c}`).join(', '));
}
process.exit(0);
