import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layout of every package of the repository, read from the imports of its sources: a test of the
// structure, not of behaviour. Every import counts, `import type`, `export … from`, `import('…')` types and
// dynamic imports included: a type-only circle still ties two files together for whoever reads them.

const PACKAGES = resolve(import.meta.dirname, '../packages');

/** One import between two files of a package's `src/`, as paths relative to it. */
interface Edge {
  readonly from: string;
  readonly to: string;
  /** Whether the import names types only (`import type`, or every name marked `type`). */
  readonly typeOnly: boolean;
}

/**
 * A package's declared layers, lowest first. A room is a folder of `src/` or a file at its top. A room may
 * import itself and the rooms of lower layers; rooms of one layer are peers and import nothing of each other.
 */
interface Layout {
  readonly layers: readonly (readonly string[])[];
  /** Imports known to run back up or close a circle, with the work that removes them: tolerated, never added to. */
  readonly known?: readonly string[];
  /** The layers inside a room that is a folder (a wing), held as the package's are: its imports inside it. */
  readonly wings?: Readonly<Record<string, Layout>>;
}

const LAYOUTS: Record<string, Layout> = {
  contract: {
    layers: [
      ['api-key.ts', 'closest-name.ts', 'list-limits.ts', 'request-limits.ts', 'error-details.ts'],
      ['schemas'],
      ['query.ts'],
      ['endpoints.ts'],
      ['paths.ts', 'query-wire.ts', 'operation-meta.ts'],
      ['compiled'],
      ['openapi.ts'],
      ['index.ts', 'runtime.ts'],
    ],
  },
  'mock-server': {
    // Five wings by what each part does, lowest first, and the package's main entry (docs/architecture.md
    // draws them):
    // - data: what a world holds and how it changes: the store, fake data, fixtures, record changes, the
    //   activity, the clock;
    // - serve: a request in, a response out: the ways in, the engine, the routes and resolvers, the HTTP
    //   vocabulary;
    // - inspect: what a test reads back of what was served: verification, the request log, keys, webhooks,
    //   record counts;
    // - server: a world's parts wired by the composition root, a server's sessions, saved states, the admin API;
    // - index.ts, the main entry, under the entries: the vitest global setup imports the server from it by the
    //   package's name (one copy of the server's code in a build);
    // - entries: the CLI and the msw and vitest entry points.
    layers: [['data'], ['serve'], ['inspect'], ['server'], ['index.ts'], ['entries']],
    wings: {
      data: {
        // Shared pieces; the store; fake data drawn into it; fixtures and the one path of record changes;
        // the activity, which changes records as the clock runs.
        layers: [
          ['random', 'journal', 'clock.ts', 'deprecation.ts'],
          ['store'],
          ['fake'],
          ['fixture', 'record-controls'],
          ['activity'],
        ],
      },
      // The HTTP vocabulary; the resolvers; the engine, handed the resolvers' table; the ways in and the
      // OpenAPI route.
      serve: { layers: [['http'], ['resolvers'], ['engine'], ['adapters', 'openapi.ts']] },
      // What a server lists and logs; verification over the journal's entries.
      inspect: { layers: [['request-log.ts', 'keys-and-webhooks.ts', 'record-counts.ts'], ['verify']] },
      server: {
        // The options and their names; sessions' rules and registry, saved states; the server interface; a
        // world's parts (the watch page's feed of events among them) and a server's sessions; the world a test
        // holds and the admin API that drives it (the watch page's files in admin/ui/); the
        // composition root.
        layers: [
          ['options.ts', 'version.ts'],
          ['option-names.ts'],
          ['sessions', 'state'],
          ['mock-server.ts'],
          ['world', 'session-front.ts'],
          ['mock-world.ts', 'admin'],
          ['create-mock-server.ts'],
        ],
      },
      // The CLI, and the HTTP client of a shared mock's sessions for the test runners' entries; the entries.
      entries: {
        layers: [
          ['cli', 'shared-mock'],
          ['bin.ts', 'msw.ts', 'vitest.ts', 'vitest-global-setup.ts'],
        ],
      },
    },
  },
  sdk: {
    // By feature, lowest first: what every feature shares (`core/`: the vocabulary of options, errors and the
    // logger; the option checks, `core/checks/`; the telemetry, `core/telemetry/`, whose OpenTelemetry side
    // only the opt-in `opentelemetry.ts` entry imports); one request, sent; a list's pages; a sync; the
    // resources and their operations, beside the connection settings; the client; the entries.
    layers: [
      ['core'],
      ['request'],
      ['pagination'],
      ['sync'],
      ['resources', 'settings.ts'],
      ['client.ts'],
      ['index.ts', 'opentelemetry.ts'],
    ],
  },
  cli: {
    layers: [
      [
        'errors.ts',
        'error-code.ts',
        'version.ts',
        'exchanges.ts',
        'for-each-concurrently.ts',
        'progress-bar.ts',
        'duration.ts',
        'files',
      ],
      ['connection.ts', 'copy'],
      ['snapshot', 'verify', 'check'],
      ['command'],
      ['index.ts', 'entries'],
    ],
  },
  'redis-gate': { layers: [['scripts.ts'], ['index.ts']] },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Specifier {
  readonly module: string;
  readonly typeOnly: boolean;
}

/** Whether an import or export declaration brings types only. */
function namesTypesOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node))
    return (
      node.isTypeOnly ||
      (node.exportClause !== undefined &&
        ts.isNamedExports(node.exportClause) &&
        node.exportClause.elements.every((element) => element.isTypeOnly))
    );
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** Every module a file names, parsed by TypeScript (so no import shape is missed). */
function specifiers(file: string): Specifier[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: Specifier[] = [];
  const literal = (node: ts.Node | undefined, typeOnly: boolean) => {
    if (node !== undefined && ts.isStringLiteral(node)) found.push({ module: node.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      literal(node.moduleSpecifier, namesTypesOnly(node));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      literal(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      literal(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The imports between a package's own source files (a package's `package.json` and others' are not its rooms). */
function edgesOf(pkg: string): Edge[] {
  const src = join(PACKAGES, pkg, 'src');
  return sources(src).flatMap((file) =>
    specifiers(file)
      .filter(({ module }) => module.startsWith('.'))
      .map(({ module, typeOnly }) => ({
        from: relative(src, file),
        to: relative(src, resolve(dirname(file), module.replace(/\.js$/, '.ts'))),
        typeOnly,
      }))
      .filter((edge) => !edge.to.startsWith('..') && edge.to.endsWith('.ts')),
  );
}

const show = (edge: Edge) => `${edge.from} -> ${edge.to}`;

/** Every circle of files, each as its files in order (Tarjan's strongly connected components). */
function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (next.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) connect(file);
  return found;
}

/**
 * The imports that run back up a layout (or sideways between peers), and the rooms no layer names; inside each
 * wing, the imports between its rooms held to its own layers.
 *
 * @param base - the folder the layout is of (`''` for `src/`, `data/` for the data wing).
 */
function backArrows(edges: readonly Edge[], layout: Layout, base = ''): { up: string[]; unplaced: string[] } {
  const room = (path: string) => {
    const rest = path.slice(base.length);
    return rest.includes('/') ? (rest.split('/')[0] as string) : rest;
  };
  const inside = edges.filter((edge) => edge.from.startsWith(base) && edge.to.startsWith(base));
  const level = new Map(layout.layers.flatMap((rooms, at) => rooms.map((name) => [name, at] as const)));
  const unplaced = new Set<string>();
  const up: string[] = [];
  for (const edge of inside) {
    const [from, to] = [room(edge.from), room(edge.to)];
    for (const name of [from, to]) if (!level.has(name)) unplaced.add(`${base}${name}`);
    if (from === to || !level.has(from) || !level.has(to)) continue;
    if ((level.get(from) as number) <= (level.get(to) as number)) up.push(show(edge));
  }
  for (const [wing, inner] of Object.entries(layout.wings ?? {})) {
    const found = backArrows(inside, inner, `${base}${wing}/`);
    up.push(...found.up);
    for (const name of found.unplaced) unplaced.add(name);
  }
  return { up, unplaced: [...unplaced] };
}

/** The rooms a layout names that are neither a file nor a folder of the package's `src/`. */
function missingRooms(pkg: string, layout: Layout, base = ''): string[] {
  const dir = join(PACKAGES, pkg, 'src', base);
  const present = new Set(readdirSync(dir));
  const missing = layout.layers
    .flat()
    .filter((name) => !present.has(name))
    .map((name) => `${base}${name}`);
  for (const [wing, inner] of Object.entries(layout.wings ?? {}))
    missing.push(...(present.has(wing) ? missingRooms(pkg, inner, `${base}${wing}/`) : []));
  return missing;
}

describe.each(Object.keys(LAYOUTS))('the layers of %s', (pkg) => {
  const layout = LAYOUTS[pkg] as Layout;
  const known = new Set(layout.known ?? []);
  const edges = edgesOf(pkg);
  const checked = edges.filter((edge) => !known.has(show(edge)));

  it('reads its imports (the parser finds them)', () => {
    expect(edges.length).toBeGreaterThan(0);
  });

  it('has no circle of imports, not even a type-only one', () => {
    expect(circles(checked)).toEqual([]);
  });

  it('never imports up its declared layers, nor between peers, and places every room', () => {
    expect(backArrows(checked, layout)).toEqual({ up: [], unplaced: [] });
  });

  it('names only rooms that are there', () => {
    expect(missingRooms(pkg, layout)).toEqual([]);
  });
});

describe('the structure test itself', () => {
  it('finds a circle and an arrow back up', () => {
    const edges = [
      { from: 'a/x.ts', to: 'b/y.ts', typeOnly: true },
      { from: 'b/y.ts', to: 'a/x.ts', typeOnly: false },
    ];
    expect(circles(edges)).toEqual([['a/x.ts', 'b/y.ts']]);
    expect(backArrows(edges, { layers: [['a'], ['b']] }).up).toEqual(['a/x.ts -> b/y.ts']);
    expect(backArrows(edges, { layers: [['a', 'b']] }).up).toHaveLength(2);
    expect(backArrows(edges, { layers: [['a']] }).unplaced).toEqual(['b']);
  });

  it('holds the rooms inside a wing to the wing’s own layers', () => {
    const down = { from: 'w/a/x.ts', to: 'w/b/y.ts', typeOnly: false };
    const layout = { layers: [['w']], wings: { w: { layers: [['b'], ['a']] } } };
    expect(backArrows([down], layout)).toEqual({ up: [], unplaced: [] });
    const back = { from: 'w/b/y.ts', to: 'w/a/x.ts', typeOnly: false };
    expect(backArrows([back], layout).up).toEqual(['w/b/y.ts -> w/a/x.ts']);
    expect(backArrows([down], { layers: [['w']], wings: { w: { layers: [['b']] } } }).unplaced).toEqual([
      'w/a',
    ]);
  });

  it('fails on an import back up or a circle in a real package, not only in a made-up one', () => {
    // One arrow added to the SDK's own imports: the vocabulary reaching up to the request it serves.
    const sdk = LAYOUTS.sdk as Layout;
    const upward = { from: 'core/errors.ts', to: 'request/request-core.ts', typeOnly: true };
    const edges = [...edgesOf('sdk'), upward];
    expect(backArrows(edges, sdk).up).toEqual([show(upward)]);
    expect(circles(edges).some((circle) => circle.includes('core/errors.ts'))).toBe(true);
    // A room no layer names is reported, not passed over.
    const stray = { from: 'client.ts', to: 'internal/anything.ts', typeOnly: false };
    expect(backArrows([...edgesOf('sdk'), stray], sdk).unplaced).toEqual(['internal']);
  });

  it('reads every shape of import', () => {
    const file = join(import.meta.dirname, 'import-shapes.fixture.txt');
    expect(specifiers(file).sort((a, b) => a.module.localeCompare(b.module))).toEqual([
      { module: './a.js', typeOnly: false },
      { module: './b.js', typeOnly: true },
      { module: './c.js', typeOnly: false },
      { module: './d.js', typeOnly: true },
      { module: './e.js', typeOnly: false },
      { module: './f.js', typeOnly: true },
    ]);
  });
});

describe('the mock server’s engine', () => {
  it('imports only the types of the resolvers: the composition root hands it their table', () => {
    const edges = edgesOf('mock-server').filter(
      (edge) => edge.from.startsWith('serve/engine/') && edge.to.startsWith('serve/resolvers/'),
    );
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.filter((edge) => !edge.typeOnly).map(show)).toEqual([]);
  });
});

describe('the SDK’s floor, core/', () => {
  it('keeps its vocabulary below its checks and its telemetry, which import nothing of each other', () => {
    // Inside core/: the files at its top are one room, the vocabulary; `checks/` and `telemetry/` stand on it.
    const room = (path: string) => {
      const inner = path.slice('core/'.length);
      return inner.includes('/') ? inner : `vocabulary/${inner}`;
    };
    const edges = edgesOf('sdk')
      .filter((edge) => edge.from.startsWith('core/') && edge.to.startsWith('core/'))
      .map((edge) => ({ ...edge, from: room(edge.from), to: room(edge.to) }));
    expect(edges.some((edge) => edge.from.startsWith('checks/') && edge.to.startsWith('vocabulary/'))).toBe(
      true,
    );
    expect(backArrows(edges, { layers: [['vocabulary'], ['checks', 'telemetry']] })).toEqual({
      up: [],
      unplaced: [],
    });
  });
});

describe('the SDK’s OpenTelemetry side', () => {
  it('is imported by the opt-in entry alone, so the main entry never reaches @opentelemetry/api', () => {
    const importers = edgesOf('sdk')
      .filter((edge) => edge.to === 'core/telemetry/open-telemetry-sink.ts')
      .map((edge) => edge.from);
    expect([...new Set(importers)]).toEqual(['opentelemetry.ts']);
  });
});
