// Type-checks every ```ts block of every `@example` in the packages' TSDoc, of every guide in docs/ and of
// the READMEs, against the real public API: the packages' declarations as the build writes them
// (build/declarations, `npm run build` first), which a sample's types resolve against without checking the
// sources they come from again (the declaration build checked them).
// Each block becomes its own module: the block's imports stay on top, the rest runs inside an async
// function (top-level await, free to shadow), and every public export it does not import itself is in
// scope; a guide's whole file ("save this as `name.ts`:") stays the module it is. Names a snippet leaves to the reader (`json`, `id`…) are not errors; everything else is.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { codeBlocks } from './docs/markdown.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const PACKAGES = ['contract', 'mock-server', 'sdk', 'redis-gate', 'cli'];
// Where the virtual example modules pretend to live (nothing is written): inside the workspace, so the
// packages resolve as they do for the tests.
const OUT_DIR = path.join(ROOT, 'packages', '.doc-examples');
// Placeholders a snippet may use without declaring them: reported names of this kind are fine.
const IGNORED_CODES = new Set([2304, 2552, 2580, 2582]);
// Well-known receivers get their real types so calls on them are checked.
const RECEIVERS = `
declare const client: import('@company-data/sdk').CompanyData;
declare const mock: import('@company-data/mock-server').MockServer;
declare const server: import('@company-data/mock-server').MockServer;
`;

/**
 * @param {string} dir
 * @returns {string[]} every `.ts` file under it.
 */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    /** @type {string} */
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** @typedef {{ file: string, line: number, code: string, wholeFile?: boolean }} Sample */

/**
 * @param {string} file
 * @returns {Sample[]}
 */
function examplesOf(file) {
  const text = readFileSync(file, 'utf8');
  /** @type {Sample[]} */
  const blocks = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const body = comment[0].replace(/^\s*\/?\*+\/?[ ]?/gm, '');
    for (const example of body.split('@example').slice(1)) {
      const match = /```ts\n([\s\S]*?)```/.exec(example.split(/\n@\w+/)[0] ?? '');
      if (match) {
        const line = text.slice(0, comment.index).split('\n').length;
        blocks.push({ file: path.relative(ROOT, file), line, code: match[1] ?? '' });
      }
    }
  }
  return blocks;
}

/**
 * @param {string} file
 * @returns {Sample[]}
 */
function markdownBlocks(file) {
  return codeBlocks(readFileSync(file, 'utf8'))
    .filter((block) => block.lang === 'ts')
    .map(({ line, code, fileName }) => ({
      file: path.relative(ROOT, file),
      line,
      code,
      wholeFile: !!fileName,
    }));
}

/**
 * @param {ts.Program} program
 * @param {string} file - the entry point, relative to the root.
 */
function exportedNames(program, file) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(ROOT, file));
  const symbol = source && checker.getSymbolAtLocation(source);
  return symbol ? checker.getExportsOfModule(symbol).map((s) => s.getName()) : [];
}

const DECLARATIONS = path.join(ROOT, 'build', 'declarations');
if (!existsSync(path.join(DECLARATIONS, 'sdk', 'src', 'index.d.ts'))) {
  console.error(
    `check-doc-samples: no declarations in ${path.relative(ROOT, DECLARATIONS)}: run \`npm run build\` first`,
  );
  process.exit(1);
}
const options = {
  ...ts.getDefaultCompilerOptions(),
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  paths: {
    '@company-data/contract/runtime': [path.join(DECLARATIONS, 'contract/src/runtime.d.ts')],
    '@company-data/mock-server/msw': [path.join(DECLARATIONS, 'mock-server/src/entries/msw.d.ts')],
    '@company-data/mock-server/vitest': [path.join(DECLARATIONS, 'mock-server/src/entries/vitest.d.ts')],
    '@company-data/sdk/opentelemetry': [path.join(DECLARATIONS, 'sdk/src/opentelemetry.d.ts')],
    '@company-data/cli/copy': [path.join(DECLARATIONS, 'cli/src/entries/copy.d.ts')],
    '@company-data/*': [path.join(DECLARATIONS, '*/src/index.d.ts')],
  },
  types: ['node'],
  strict: true,
  // Snippets may leave callback parameters untyped, as readers do.
  noImplicitAny: false,
  noEmit: true,
  skipLibCheck: true,
  allowImportingTsExtensions: false,
};

// Each entry point a sample's names may come from: the packages' main ones, then their subpaths.
const ENTRIES = [
  ...PACKAGES.map((pkg) => ({
    specifier: `@company-data/${pkg}`,
    file: path.join('build', 'declarations', pkg, 'src', 'index.d.ts'),
  })),
  {
    specifier: '@company-data/cli/copy',
    file: path.join('build', 'declarations', 'cli', 'src', 'entries', 'copy.d.ts'),
  },
  {
    specifier: '@company-data/mock-server/vitest',
    file: path.join('build', 'declarations', 'mock-server', 'src', 'entries', 'vitest.d.ts'),
  },
];
const base = ts.createProgram(
  ENTRIES.map((entry) => path.join(ROOT, entry.file)),
  options,
);
const owners = new Map();
for (const entry of ENTRIES) {
  for (const name of exportedNames(base, entry.file))
    if (!owners.has(name)) owners.set(name, entry.specifier);
}

// The guides and the READMEs: the docs site renders them all.
const markdownFiles = [
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(ROOT, 'docs', name)),
  path.join(ROOT, 'README.md'),
  ...PACKAGES.map((pkg) => path.join(ROOT, 'packages', pkg, 'README.md')),
];
const examples = [
  ...PACKAGES.flatMap((pkg) => sourceFiles(path.join(ROOT, 'packages', pkg, 'src')).flatMap(examplesOf)),
  ...markdownFiles.flatMap(markdownBlocks),
];
const virtual = new Map();
examples.forEach((example, index) => {
  const parsed = ts.createSourceFile('sample.ts', example.code, ts.ScriptTarget.ES2022, true);
  const imports = [];
  const rest = [];
  const own = new Set();
  for (const statement of parsed.statements) {
    if (!ts.isImportDeclaration(statement)) {
      rest.push(statement.getFullText());
      continue;
    }
    const names = statement.importClause
      ? [...statement.importClause.getText().matchAll(/\b(\w+)\b/g)].map((m) => m[1])
      : [];
    for (const name of names) own.add(name);
    // The reader's own modules (`./my-app.js`) do not exist here: their bindings become untyped.
    if (statement.moduleSpecifier.getText().slice(1).startsWith('.')) {
      const bindings = names.filter((name) => name !== 'type' && name !== 'as');
      imports.push(bindings.map((name) => `declare const ${name}: any;`).join('\n'));
    } else {
      imports.push(statement.getText());
    }
  }
  const byPkg = new Map();
  for (const [name, pkg] of owners) {
    if (own.has(name)) continue;
    byPkg.set(pkg, [...(byPkg.get(pkg) ?? []), name]);
  }
  const prelude = [...byPkg].map(
    ([specifier, names]) => `import { ${names.join(', ')} } from '${specifier}';`,
  );
  // A whole file of a guide ("save this as `my-app.ts`:") is checked as the module it is.
  const body = example.wholeFile
    ? [...rest, 'export {};']
    : [...prelude, RECEIVERS, 'export async function example() {', ...rest, '}'];
  const text = [...imports, ...body, ''].join('\n');
  virtual.set(path.join(OUT_DIR, `example-${index}.ts`), { text, example });
});

const host = ts.createCompilerHost(options);
const readFile = host.readFile.bind(host);
const fileExists = host.fileExists.bind(host);
const getSourceFile = host.getSourceFile.bind(host);
host.readFile = (/** @type {string} */ name) => virtual.get(name)?.text ?? readFile(name);
host.fileExists = (/** @type {string} */ name) => virtual.has(name) || fileExists(name);
// A file the first program read (the packages' sources, the libraries' types) is reused as it was parsed
// there, as an editor's language service does: same options, same text.
/** @type {ts.CompilerHost['getSourceFile']} */
const virtualSourceFile = (name, version, onError, create) => {
  const text = virtual.get(name)?.text;
  if (text !== undefined) return ts.createSourceFile(name, text, version, true);
  return base.getSourceFile(name) ?? getSourceFile(name, version, onError, create);
};
host.getSourceFile = virtualSourceFile;

const program = ts.createProgram([...virtual.keys()], options, host);
let failures = 0;
for (const [name, { example }] of virtual) {
  const source = program.getSourceFile(name);
  for (const diagnostic of [
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source),
  ]) {
    if (IGNORED_CODES.has(diagnostic.code)) continue;
    if (diagnostic.code === 6133 || diagnostic.code === 6192) continue;
    failures++;
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    console.error(`${example.file}:${example.line}: TS${diagnostic.code} ${message}`);
  }
}
console.log(`check-doc-samples: ${examples.length} code samples, ${failures} problem(s)`);
process.exitCode = failures === 0 ? 0 : 1;
