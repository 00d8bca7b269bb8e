// @vitest-environment node
// Every string a visitor sees or hears goes through the catalogue (issue 32): a JSX text child with
// letters, or a literal aria-label, title, placeholder or alt, would stay English in every locale.
// What is not language sits in ALLOWED with the reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = import.meta.dirname;
const ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt']);
const LETTERS = /\p{L}/u;

/** `file:text` → why it is not language. */
const ALLOWED: Record<string, string> = {};

const files = (readdirSync(root, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.tsx') && !/\.test\.tsx$/.test(file) && !file.startsWith('test'))
  .map((file) => file.split('\\').join('/'))
  .sort();

/** The string literals an expression can show: itself, or either branch of `?:`, `??`, `||` and `&&`. */
function literalTexts(node: ts.Node | undefined): string[] {
  if (!node) return [];
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isJsxExpression(node) || ts.isParenthesizedExpression(node)) return literalTexts(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalTexts(node.whenTrue), ...literalTexts(node.whenFalse)];
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(node.operatorToken.kind)) {
    return [...literalTexts(node.left), ...literalTexts(node.right)];
  }
  return [];
}

/** Every hard-coded visible string of one source file, as `file:line: text`. */
function findings(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const trimmed = text.replace(/\s+/g, ' ').trim();
    if (!LETTERS.test(trimmed) || ALLOWED[`${file}:${trimmed}`]) return;
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    found.push(`${file}:${line + 1}: ${JSON.stringify(trimmed)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      for (const text of literalTexts(node.expression)) report(node, text);
    } else if (ts.isJsxAttribute(node) && ATTRIBUTES.has(node.name.getText(sourceFile))) {
      for (const text of literalTexts(node.initializer)) report(node, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

it('reads the components and views', () => {
  expect(files.length).toBeGreaterThan(10);
  expect(files).toContain('views/Account/AccountTabs.tsx');
});

it('catches text children and literal labels (the scanner itself)', () => {
  const sample = [
    'const a = <p>Hello {name}</p>;',
    'const b = <button aria-label="Close" title={"Shut"}>×</button>;',
    'const c = <input placeholder={`Search`} alt="" />;',
    'const d = <p>{t("ok")} · {"Literal"}</p>;',
    'const e = <img alt={ok ? t("a") : "Fallback"} title={name ?? "Unnamed"} />;',
  ].join('\n');
  expect(findings('sample.tsx', sample)).toEqual([
    'sample.tsx:1: "Hello"',
    'sample.tsx:2: "Close"',
    'sample.tsx:2: "Shut"',
    'sample.tsx:3: "Search"',
    'sample.tsx:4: "Literal"',
    'sample.tsx:5: "Fallback"',
    'sample.tsx:5: "Unnamed"',
  ]);
});

it('shows no visible string that bypasses the catalogue', () => {
  const all = files.flatMap((file) => findings(file, readFileSync(join(root, file), 'utf8')));
  expect(all, `hard-coded visible strings: add a catalogue key (in every locale) or allow-list them with a reason:\n${all.join('\n')}`).toEqual([]);
});

it('allow-lists nothing that is no longer in the sources', () => {
  const sources = Object.fromEntries(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const stale = Object.keys(ALLOWED).filter((entry) => {
    const at = entry.indexOf(':');
    return !sources[entry.slice(0, at)]?.includes(entry.slice(at + 1));
  });
  expect(stale).toEqual([]);
});
