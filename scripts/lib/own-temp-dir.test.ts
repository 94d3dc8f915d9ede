import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownTempDir } from './own-temp-dir.mjs';

describe('ownTempDir', () => {
  it('lists what was left in it, sorted, and removes it with its contents', () => {
    const temp = ownTempDir();
    expect(temp.leftovers()).toEqual([]);
    mkdirSync(path.join(temp.path, 'docs-site-abc'));
    writeFileSync(path.join(temp.path, 'docs-site-abc', 'index.html'), '');
    writeFileSync(path.join(temp.path, 'a-checkpoint'), '');
    mkdirSync(path.join(temp.path, 'tsx-0')); // tsx's cache: kept by design
    mkdirSync(path.join(temp.path, 'tsx-0-left')); // not it
    expect(temp.leftovers()).toEqual(['a-checkpoint', 'docs-site-abc', 'tsx-0-left']);
    temp.remove();
    expect(existsSync(temp.path)).toBe(false);
  });
});
