// Each workspace declares what it imports and nothing more, and the engine range in package.json
// is one every installed package supports (issue 23, item 7). Imports are read with TypeScript's
// own parser from every source file of the workspace: static, dynamic, `export from`, require
// and require.resolve; a package counts by its name (`@scope/name` or `name`), Node's built-ins
// aside. A workspace's shipped code is what its entry points reach, tests aside; the rest (tests,
// what only tests import, config, build plugins) runs under the tools and may also use the root's
// devDependencies: the root holds the test runner, the browser driver and the like for all
// workspaces.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import semver from 'semver';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface Manifest {
  name: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
}

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Manifest;

/** Each workspace by its folder, with the folders and files whose imports it answers for. */
const WORKSPACES: Record<string, string[]> = {
  'packages/shared': ['packages/shared'],
  'apps/server': ['apps/server'],
  'apps/web': ['apps/web'],
  '.': ['e2e', 'bench', 'scripts', 'vitest.config.ts', 'eslint.config.js'],
};

/**
 * Where each workspace's shipped code starts: the server's process and the CLIs the package.json
 * scripts run, the web app's page script (index.html), and every module of the shared library
 * (it exports `./*`).
 */
const ENTRY_POINTS: Record<string, (file: string) => boolean> = {
  'packages/shared': (f) => f.startsWith('packages/shared/src/'),
  'apps/server': (f) => ['src/main.ts', 'src/backup/cli.ts', 'src/modules/ledger/cli.ts', 'src/sim/cli.ts'].some((e) => f === `apps/server/${e}`),
  'apps/web': (f) => f === 'apps/web/src/main.tsx',
  '.': () => false,
};

/**
 * Declared and used, but by a command, a configuration string or a tool rather than an import.
 * Each entry says where; an entry that is no longer true is a stale declaration to remove.
 */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  typescript: 'tsc in the typecheck script; typescript-eslint loads it',
  tsx: 'node --import tsx in the start, bench and CLI scripts',
  jsdom: "vitest's web project runs in environment 'jsdom'",
  'drizzle-kit': 'the db:generate script (apps/server/drizzle.config.ts imports its types)',
  lighthouse: 'the web bench (issue 23, item 3, being added)',
  '@axe-core/playwright': 'the accessibility browser test (issue 23, item 4, being added)',
};

const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);
function sourceFiles(path: string, out: string[] = []): string[] {
  const full = join(ROOT, path);
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full)) if (!SKIP_DIRS.has(name)) sourceFiles(join(path, name), out);
  } else if (/\.(m?[jt]sx?|css)$/.test(path) && !path.endsWith('.d.ts')) out.push(path);
  return out;
}

interface Use { pkg: string; file: string; typeOnly: boolean }
const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.includes('/src/test/');

/** The package a specifier names, or null for relative paths, aliases and Node's built-ins. */
export function packageOf(specifier: string): string | null {
  if (/^(\.|\/|node:|virtual:|~)/.test(specifier)) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? null : name;
}

/** Every package a source file imports, with whether the import is for types only. */
export function importsOf(file: string, text: string, relatives: string[] = []): Omit<Use, 'file'>[] {
  const found: Omit<Use, 'file'>[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    const pkg = packageOf(spec);
    if (pkg) found.push({ pkg, typeOnly });
    else if (spec.startsWith('.')) relatives.push(normalize(join(dirname(file), spec)));
  };
  if (file.endsWith('.css')) {
    for (const m of text.matchAll(/@import\s+(?:url\()?\s*['"]([^'"]+)['"]/g)) add(m[1]!, false);
    return found;
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, !!node.importClause?.isTypeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const isResolve = ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && /require/i.test(callee.expression.getText(source));
      if (isImport || isRequire || isResolve) add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A workspace's shipped files: its entry points and what they import, tests aside. */
function shippedFiles(workspace: string, importsByFile: Map<string, string[]>): Set<string> {
  const shipped = new Set<string>();
  const queue = [...importsByFile.keys()].filter((f) => ENTRY_POINTS[workspace]!(f) && !isTest(f));
  if (workspace !== '.' && !queue.length) throw new Error(`no entry point found in ${workspace}`);
  while (queue.length) {
    const file = queue.pop()!;
    if (shipped.has(file) || !importsByFile.has(file) || isTest(file)) continue;
    shipped.add(file);
    queue.push(...importsByFile.get(file)!);
  }
  return shipped;
}

const typesOf = (pkg: string) => `@types/${pkg.startsWith('@') ? pkg.slice(1).replace('/', '__') : pkg}`;

function audit() {
  const root = read('package.json');
  const rootDev = root.devDependencies ?? {};
  const problems: string[] = [];
  const declaredIn = new Map<string, Map<string, string>>();
  const usedThroughRoot = new Set<string>();
  const unused: Array<[workspace: string, pkg: string]> = [];
  for (const [workspace, paths] of Object.entries(WORKSPACES)) {
    const manifest = read(join(workspace, 'package.json'));
    const deps = manifest.dependencies ?? {};
    const dev = manifest.devDependencies ?? {};
    const importsByFile = new Map<string, string[]>();
    const uses: Use[] = paths.flatMap((p) => sourceFiles(p)).flatMap((file) => {
      const relatives: string[] = [];
      const found = importsOf(file, readFileSync(join(ROOT, file), 'utf8'), relatives);
      importsByFile.set(file, relatives);
      return found.map((u) => ({ ...u, file }));
    });
    const shipped = shippedFiles(workspace, importsByFile);
    for (const { pkg, file, typeOnly } of uses) {
      if (pkg === manifest.name) continue;
      const tooling = !shipped.has(file);
      const inDeps = pkg in deps || (typeOnly && typesOf(pkg) in deps);
      const inDev = pkg in dev || (typeOnly && typesOf(pkg) in dev);
      const inRootDev = tooling && (pkg in rootDev || (typeOnly && typesOf(pkg) in rootDev));
      if (inDeps || (inDev && (tooling || typeOnly))) continue;
      if (inRootDev) {
        usedThroughRoot.add(pkg);
        continue;
      }
      problems.push(inDev
        ? `${file} ships with ${workspace} but imports ${pkg}, a devDependency: move it to dependencies`
        : `${file} imports ${pkg}, which ${workspace}/package.json does not declare`);
    }
    const used = new Set(uses.map((u) => u.pkg));
    for (const [pkg, range] of [...Object.entries(deps), ...Object.entries(dev)]) {
      if (!declaredIn.has(pkg)) declaredIn.set(pkg, new Map());
      declaredIn.get(pkg)!.set(workspace, range);
      if (used.has(pkg) || pkg in USED_WITHOUT_IMPORT) continue;
      if (pkg === '@types/node' || (pkg.startsWith('@types/') && [...used].some((u) => typesOf(u) === pkg))) continue;
      unused.push([workspace, pkg]);
    }
  }
  for (const [workspace, pkg] of unused) {
    if (workspace === '.' && (usedThroughRoot.has(pkg) || [...usedThroughRoot].some((u) => typesOf(u) === pkg))) continue;
    problems.push(`${workspace}/package.json declares ${pkg}, which nothing in it imports`);
  }
  for (const [pkg, ranges] of declaredIn) {
    if (new Set(ranges.values()).size > 1) problems.push(`${pkg} is declared with different ranges: ${[...ranges].map(([w, r]) => `${w} ${r}`).join(', ')}`);
  }
  return problems;
}

describe('dependencies match the code', () => {
  it('reads every kind of import a source file can make', () => {
    const text = [
      "import a from 'alpha/sub';",
      "import type { B } from '@scope/beta';",
      "export { c } from 'gamma';",
      "const d = await import('delta');",
      "const e = require('epsilon');",
      "const f = require.resolve('zeta/file.js');",
      "type G = import('eta').G;",
      "import { readFileSync } from 'node:fs';",
      "import path from 'path';",
      "import local from './local.ts';",
    ].join('\n');
    expect(importsOf('x.ts', text)).toEqual([
      { pkg: 'alpha', typeOnly: false },
      { pkg: '@scope/beta', typeOnly: true },
      { pkg: 'gamma', typeOnly: false },
      { pkg: 'delta', typeOnly: false },
      { pkg: 'epsilon', typeOnly: false },
      { pkg: 'zeta', typeOnly: false },
      { pkg: 'eta', typeOnly: true },
    ]);
    expect(importsOf('x.css', "@import 'leaflet/dist/leaflet.css';")).toEqual([{ pkg: 'leaflet', typeOnly: false }]);
  });

  // Parsing some 1,300 files takes several seconds on a loaded two-core machine.
  it('each workspace declares what it imports, nothing unused, one range per package', { timeout: 60_000 }, () => {
    expect(audit()).toEqual([]);
  });

  it('every installed package runs on the oldest Node that package.json allows', () => {
    const root = read('package.json');
    const lowest = semver.minVersion(root.engines!.node!)!.version;
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(lowest, p.engines.node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} needs Node ${(p.engines as { node: string }).node}`);
    expect(refusing, `engines.node is ${root.engines!.node}`).toEqual([]);
  });
});
