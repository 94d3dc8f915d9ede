import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The mock's layers, read from the import lines of its sources: a test of the layout, not of behaviour.
const SRC = resolve(import.meta.dirname, '../src');

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import and re-export of every source file, as paths relative to `src/`. */
function edges(): Edge[] {
  const pattern = /^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'(\.[^']+)'/gm;
  return sources(SRC).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(pattern)].map((match) => ({
      from: relative(SRC, file),
      to: relative(SRC, resolve(file, '..', (match[2] as string).replace(/\.js$/, '.ts'))),
      typeOnly: match[1] !== undefined,
    }));
  });
}

const folder = (path: string) => (path.includes('/') ? (path.split('/')[0] as string) : '.');
const between = (from: string, to: string) =>
  edges().filter((edge) => folder(edge.from) === from && folder(edge.to) === to);

describe('the mock server’s layers', () => {
  it('reads the import lines it checks (the parser finds the engine’s imports)', () => {
    expect(between('engine', 'http').length).toBeGreaterThan(0);
    expect(between('resolvers', 'store').length).toBeGreaterThan(0);
  });

  it('keeps the store below the engine: no import from store/ to engine/', () => {
    expect(between('store', 'engine')).toEqual([]);
  });

  it('runs one way between engine/ and resolvers/: the engine imports only their types, they import nothing of it', () => {
    expect(between('resolvers', 'engine')).toEqual([]);
    expect(between('engine', 'resolvers').filter((edge) => !edge.typeOnly)).toEqual([]);
  });

  it('keeps the side routes and the request log out of the engine core', () => {
    const outside = ['admin', 'openapi.ts', 'request-log.ts', 'server.ts'];
    const core = edges().filter((edge) => folder(edge.from) === 'engine' && !edge.typeOnly);
    expect(core.filter((edge) => outside.some((name) => edge.to.startsWith(name)))).toEqual([]);
  });

  it('keeps the activity above the data: store/, records/, generate/, engine/ and resolvers/ never import activity/', () => {
    const below = ['store', 'records', 'generate', 'engine', 'resolvers'];
    expect(
      edges().filter((edge) => below.includes(folder(edge.from)) && folder(edge.to) === 'activity'),
    ).toEqual([]);
    expect(between('activity', 'records').length).toBeGreaterThan(0);
  });

  it('keeps http/ neutral: it imports nothing else of the mock', () => {
    expect(edges().filter((edge) => folder(edge.from) === 'http' && folder(edge.to) !== 'http')).toEqual([]);
  });
});
