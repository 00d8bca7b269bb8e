#!/usr/bin/env node
// Builds latch's seed catalogue (`.latch/catalogue/seed.json`, a bundle that
// `latch catalogue import` reads) from wallet metadata and icons published
// under the MIT licence in two packages:
//   - @rainbow-me/rainbowkit: names, EIP-6963 rdns, icons, store links, deep
//     links, injected flags of ~100 wallets, and network icons;
//   - @web3-onboard/injected-wallets: injected-provider flags and icons.
// Their attribution travels inside the bundle (`attribution`).
//
// The packages are fetched as tarballs (`npm pack`, integrity pinned below)
// and read as source text with a JS parser, never executed: RainbowKit's
// modules import wagmi, whose dependency tree we do not want here.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as acorn from 'acorn';
import * as walk from 'acorn-walk';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The sources, pinned by version and by the registry's sha512 integrity. */
export const SOURCES = {
  rainbowkit: {
    spec: '@rainbow-me/rainbowkit@2.2.11',
    integrity: 'sha512-FHPsRHMBpuHHhuyKktAR13O9agmsUUunDnVEP4hG1dSZ2JojXLUSWyLG28VbGIJakHYylkNguiLFnqM/BM8ERA==',
    license: 'MIT',
    copyright: 'Copyright (c) 2024 Rainbow',
    project: 'RainbowKit (github.com/rainbow-me/rainbowkit)',
  },
  onboard: {
    spec: '@web3-onboard/injected-wallets@2.11.3',
    integrity: 'sha512-DSfcJRwe7KgXHSosXSz8QUMpoSTd6ltrb3qb8xhDjwLdpYlSlcmhaH5blP/gvNeB38imiJ9xCQpnI5tpaLKneQ==',
    license: 'MIT',
    copyright: 'Copyright (c) Blocknative',
    project: 'web3-onboard (github.com/blocknative/web3-onboard)',
  },
};

/**
 * The networks a seeded wallet is listed for. Both sources are EVM-only kits
 * whose wallets accept any EVM chain; we list the networks Latch's demo and
 * catalogue use, the local devnet included, so `/getWallets?chains=` finds them.
 */
export const EVM_CHAINS = ['eip155:1', 'eip155:10', 'eip155:56', 'eip155:137', 'eip155:8453', 'eip155:42161', 'eip155:11155111', 'eip155:31337'];

/** RainbowKit's network icons by CAIP-2 id (served by /public/getAssetImage/{caip2}). */
export const CHAIN_ICONS = {
  ethereum: ['eip155:1', 'eip155:11155111'],
  optimism: ['eip155:10'],
  bsc: ['eip155:56'],
  polygon: ['eip155:137'],
  base: ['eip155:8453'],
  arbitrum: ['eip155:42161'],
  avalanche: ['eip155:43114'],
  gnosis: ['eip155:100'],
  zksync: ['eip155:324'],
  linea: ['eip155:59144'],
  scroll: ['eip155:534352'],
  zora: ['eip155:7777777'],
  celo: ['eip155:42220'],
  blast: ['eip155:81457'],
  mantle: ['eip155:5000'],
  hardhat: ['eip155:31337'],
};

/** Fetches and unpacks `source` into `dir` (once), checking its integrity. */
function unpack(source, dir) {
  const marker = join(dir, '.integrity');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === source.integrity) return join(dir, 'package');
  mkdirSync(dir, { recursive: true });
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', source.spec, '--json', '--pack-destination', dir, '--loglevel=error'], { encoding: 'utf8' }),
  );
  if (packed.integrity !== source.integrity) {
    throw new Error(`${source.spec}: integrity ${packed.integrity}, expected ${source.integrity}`);
  }
  execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', dir]);
  writeFileSync(marker, source.integrity);
  return join(dir, 'package');
}

const parse = (text) => acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module' });

/** The value of a property named `name` of an object expression, if any. */
function property(object, name) {
  return object.properties.find((p) => p.type === 'Property' && (p.key.name ?? p.key.value) === name)?.value;
}

const literal = (node) => (node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined);

/** The relative path of the `import("./x.js")` inside `node`, if any. */
function importPath(node) {
  let path;
  if (node) walk.full(node, (n) => { if (n.type === 'ImportExpression') path = literal(n.source) ?? path; });
  return path;
}

/** Bytes and media type of a `data:` URL. */
export function decodeDataUrl(url) {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (!match) throw new Error(`not a data URL: ${url.slice(0, 40)}`);
  const [, contentType, base64, payload] = match;
  return { contentType, data: base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8') };
}

/** The default export (a string) of a module file with no imports of its own. */
async function defaultExport(file) {
  return (await import(pathToFileURL(file).href)).default;
}

/**
 * A deep-link base (`scheme://…`) from a template literal such as
 * `` `rainbow://wc?uri=${encodeURIComponent(uri)}` `` in `node`; https universal links are not deep links.
 */
function deepLink(node) {
  let link;
  walk.full(node, (n) => {
    if (link || n.type !== 'TemplateLiteral' || n.expressions.length === 0) return;
    const head = n.quasis[0].value.cooked;
    const match = /^([a-z][a-z0-9+.-]*:\/\/[^?]*?)(wc)?\?uri=$/i.exec(head);
    if (match && !/^https?:/i.test(match[1])) link = match[1];
  });
  return link;
}

/** RainbowKit's wallets: every returned object literal with `id`, `name` and `iconUrl`. */
export async function rainbowkitWallets(pkg) {
  const dir = join(pkg, 'dist', 'wallets', 'walletConnectors');
  const wallets = [];
  for (const file of readdirSync(dir).filter((f) => f.startsWith('chunk-') && f.endsWith('.js'))) {
    const ast = parse(readFileSync(join(dir, file), 'utf8'));
    const found = [];
    walk.ancestor(ast, {
      ObjectExpression(node, _, ancestors) {
        const id = literal(property(node, 'id'));
        const name = literal(property(node, 'name'));
        const icon = importPath(property(node, 'iconUrl'));
        if (!id || !name || !icon) return;
        // The enclosing wallet function holds flags and deep links used outside the literal.
        const scope = [...ancestors].reverse().find((a) => a.type === 'ArrowFunctionExpression' || a.type === 'FunctionDeclaration') ?? node;
        found.push({ node, id, name, icon, scope });
      },
    });
    for (const { node, id, name, icon, scope } of found) {
      const urls = property(node, 'downloadUrls');
      const url = (key) => (urls?.type === 'ObjectExpression' ? literal(property(urls, key)) : undefined);
      let flag;
      walk.full(scope, (n) => {
        if (!flag && n.type === 'ObjectExpression') flag = literal(property(n, 'flag'));
      });
      const { contentType, data } = decodeDataUrl(await defaultExport(join(dir, icon)));
      wallets.push({
        sourceId: id,
        name,
        rdns: literal(property(node, 'rdns')),
        homepage: url('browserExtension') ?? url('qrCode') ?? url('mobile') ?? url('desktop'),
        app_store: url('ios'),
        play_store: url('android'),
        chrome_store: url('chrome'),
        mobile_link: deepLink(scope),
        injected_flag: flag,
        image: { contentType, data },
      });
    }
  }
  return wallets;
}

/** RainbowKit's network icons, keyed by CAIP-2 id. */
export async function rainbowkitChainIcons(pkg) {
  const dist = join(pkg, 'dist');
  const icons = [];
  for (const file of readdirSync(dist)) {
    const name = /^([a-z]+)-[A-Z0-9]+\.js$/.exec(file)?.[1];
    if (!name || !CHAIN_ICONS[name]) continue;
    const text = readFileSync(join(dist, file), 'utf8');
    if (!text.includes('chainIcons/')) continue;
    const image = decodeDataUrl(await defaultExport(join(dist, file)));
    for (const id of CHAIN_ICONS[name]) icons.push({ kind: 'asset', id, ...image });
  }
  return icons;
}

/** web3-onboard's injected wallets: label, provider flag and icon of each `{label, getIcon}` literal. */
export async function onboardWallets(pkg) {
  const dist = join(pkg, 'dist');
  const types = await import(pathToFileURL(join(dist, 'types.js')).href);
  const member = (node, enumName) =>
    node?.type === 'MemberExpression' && node.object.name === enumName ? types[enumName][node.property.name] : undefined;
  const wallets = [];
  const pending = [];
  walk.simple(parse(readFileSync(join(dist, 'wallets.js'), 'utf8')), {
    ObjectExpression(node) {
      const label = member(property(node, 'label'), 'ProviderLabel');
      const icon = importPath(property(node, 'getIcon'));
      if (!label || !icon) return;
      let flag;
      walk.full(property(node, 'checkProviderIdentity') ?? node, (n) => {
        flag ??= member(n, 'ProviderIdentityFlag');
      });
      const namespace = member(property(node, 'injectedNamespace'), 'InjectedNameSpace');
      pending.push({ label, icon, flag, namespace, homepage: member(property(node, 'externalUrl'), 'ProviderExternalUrl') });
    },
  });
  for (const { label, icon, flag, namespace, homepage } of pending) {
    const svg = await defaultExport(join(dist, icon));
    wallets.push({
      name: label,
      injected_flag: namespace === 'ethereum' ? flag : undefined,
      homepage,
      image: { contentType: 'image/svg+xml', data: Buffer.from(svg, 'utf8') },
    });
  }
  return wallets;
}

/** A catalogue id from a display name: lower-case letters and digits with dashes. */
export const slug = (name) => name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const key = (name) => slug(name).replace(/-?wallet$/, '').replace(/-/g, '');

/** Connectors of the source kits that are not wallets (a generic injected provider, WalletConnect itself). */
const GENERIC = new Set(['browser-wallet', 'detected-wallet', 'walletconnect', 'injected']);

/** Merges both sources into Explorer-format entries plus their images; RainbowKit wins on conflicts. */
export function merge(rainbow, onboard) {
  const byKey = new Map();
  for (const wallet of rainbow) if (!byKey.has(key(wallet.name))) byKey.set(key(wallet.name), { ...wallet });
  for (const wallet of onboard) {
    const known = byKey.get(key(wallet.name));
    if (known) {
      known.injected_flag ??= wallet.injected_flag;
      known.homepage ??= wallet.homepage;
    } else if (wallet.injected_flag) {
      byKey.set(key(wallet.name), { ...wallet });
    }
  }
  const data = [];
  const images = [];
  const seen = new Set();
  for (const wallet of [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'))) {
    const id = slug(wallet.name);
    if (!id || seen.has(id) || GENERIC.has(id)) continue;
    seen.add(id);
    const injected = wallet.injected_flag ? [{ namespace: 'eip155', injected_id: wallet.injected_flag }] : null;
    data.push({
      id,
      name: wallet.name.slice(0, 100),
      homepage: wallet.homepage ?? null,
      image_id: id,
      order: data.length,
      mobile_link: wallet.mobile_link ?? null,
      desktop_link: null,
      webapp_link: null,
      link_mode: null,
      app_store: wallet.app_store ?? null,
      play_store: wallet.play_store ?? null,
      chrome_store: wallet.chrome_store ?? null,
      rdns: wallet.rdns ?? null,
      chains: EVM_CHAINS,
      injected,
      badge_type: 'none',
      supports_wc: Boolean(wallet.mobile_link || wallet.app_store || wallet.play_store),
      description: null,
    });
    images.push({ kind: 'wallet', id, contentType: wallet.image.contentType, data: wallet.image.data });
  }
  return { data, images };
}

/** Fiat currencies the on-ramp shows (behaviour 7.6), with the sign drawn on their badge. */
export const CURRENCIES = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', CHF: 'Fr', CAD: 'C$', AUD: 'A$', BRL: 'R$', INR: '₹', KRW: '₩' };
/** Tokens of the devnet fixture world and the common natives without artwork of their own here. */
export const TOKENS = ['ETH', 'WETH', 'USDC', 'USDT', 'DAI', 'LTK', 'SOL', 'BTC', 'POL', 'BNB'];

/** A badge of our own drawing (Apache-2.0, like Latch): `text` on a disc whose hue follows the text. */
export function badge(text) {
  const hue = [...text].reduce((h, c) => (h * 31 + c.codePointAt(0)) % 360, 7);
  const size = text.length > 3 ? 9 : text.length > 2 ? 11 : 14;
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40"><circle cx="20" cy="20" r="20" fill="hsl(${hue} 55% 42%)"/>` +
      `<text x="20" y="20" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="600" font-size="${size}" fill="#fff">${escaped}</text></svg>`,
    'utf8',
  );
}

/** Currency and token badges, generated here (no third-party artwork). */
export function badges() {
  const svg = (kind, id, text) => ({ kind, id, contentType: 'image/svg+xml', data: badge(text) });
  return [
    ...Object.entries(CURRENCIES).map(([code, sign]) => svg('currency', code, sign)),
    ...TOKENS.map((symbol) => svg('token', symbol, symbol)),
  ];
}

const license = (pkg) => {
  const file = ['LICENSE', 'LICENSE.md', 'license'].map((f) => join(pkg, f)).find(existsSync);
  return file ? readFileSync(file, 'utf8') : null;
};

/** Builds the bundle; `cache` holds the unpacked packages between runs. */
export async function buildSeed(cache = join(root, '.latch', 'catalogue')) {
  const rainbowPkg = unpack(SOURCES.rainbowkit, join(cache, 'rainbowkit'));
  const onboardPkg = unpack(SOURCES.onboard, join(cache, 'onboard'));
  const { data, images } = merge(await rainbowkitWallets(rainbowPkg), await onboardWallets(onboardPkg));
  images.push(...(await rainbowkitChainIcons(rainbowPkg)), ...badges());
  const attribution = [
    { ...SOURCES.rainbowkit, used: 'wallet names, rdns, links, injected flags, wallet and network icons', licenseText: license(rainbowPkg) },
    { ...SOURCES.onboard, used: 'injected-provider flags, wallet icons', licenseText: license(onboardPkg) },
  ].map(({ integrity, ...rest }) => rest);
  return {
    attribution,
    count: data.length,
    data,
    images: images.map((image) => ({ ...image, data: image.data.toString('base64') })),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join(root, '.latch', 'catalogue', 'seed.json'));
  const seed = await buildSeed();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(seed));
  console.log(`catalogue: ${seed.count} wallets, ${seed.images.length} images -> ${out}`);
}
