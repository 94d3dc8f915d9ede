// The install recipe exactly as Getting started prints it: the commands run in a clone (build, then pack the
// workspaces into a folder) and the commands that set up a fresh project around the tarballs. The checks run
// these commands rather than their own, so the guide cannot drift from what works.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { shellCommands } from '../docs/markdown.mjs';

/** Clone commands `npm test` has already run on this checkout before the packaging checks. */
const DONE_BEFORE = {
  'npm ci': 'the workspace is installed from the lockfile before `npm test`',
  'npm run build': '`npm test` builds before `check:packages`, and the `built` step checks the build',
};

/**
 * Finds the recipe in the guides' shell blocks: the block with `npm pack` (commands in the clone) and the block
 * with `npm init` (a project for the snippets), plus every other guide's `npm install` of a dependency.
 *
 * @returns {{ pack: string[], packagesDir: string, projectName: string, setup: string[][], projectCommands: number }} `pack` is the
 *   arguments of `npm pack …` after `npm`, `packagesDir` its documented destination, `setup` the project's commands as argument
 *   lists, in order.
 */
export function installRecipe(guides) {
  const blocks = guides.flatMap((guide) =>
    guide.blocks.filter((block) => block.lang === 'sh').map((block) => ({ guide, block })),
  );
  const cloneBlock = single(blocks, /^npm pack /m, 'the clone commands (`npm pack …`)');
  const projectBlock = single(blocks, /^npm init /m, 'the project commands (`npm init …`)');

  let pack;
  let madeDir;
  for (const command of shellCommands(cloneBlock.block)) {
    if (command.startsWith('npm pack '))
      pack = words(command).slice(1); // after `npm`
    else if (command.startsWith('mkdir -p ')) madeDir = command.slice('mkdir -p '.length);
    else if (!(command in DONE_BEFORE)) throw unknownCommand(cloneBlock, command);
  }
  const packagesDir = pack?.[pack.indexOf('--pack-destination') + 1];
  if (!pack?.includes('--workspaces') || !pack.includes('--pack-destination') || !packagesDir) {
    throw new Error(`${where(cloneBlock)}: expected \`npm pack --workspaces --pack-destination <folder>\``);
  }
  // npm pack does not create its destination.
  if (madeDir !== packagesDir)
    throw new Error(`${where(cloneBlock)}: expected \`mkdir -p ${packagesDir}\` first`);

  const [first, ...rest] = shellCommands(projectBlock.block);
  const projectName = /^mkdir ([\w.-]+) && cd \1$/.exec(first ?? '')?.[1];
  if (!projectName)
    throw new Error(`${where(projectBlock)}: expected \`mkdir <folder> && cd <folder>\` first`);
  const setup = rest.map((command) => {
    if (!/^npm (init|pkg set|install) /.test(command)) throw unknownCommand(projectBlock, command);
    return words(command);
  });
  // Getting started's own commands come first; `projectCommands` counts them.
  const projectCommands = setup.length;
  // Other guides' dependencies (vitest, msw…). Installs of @company-data packages by name wait for them to be
  // on npm: the tarballs of the recipe stand in for them, for a package the project does not have yet (an
  // add-on such as the Redis gate, which its own guide installs).
  for (const { block } of blocks) {
    if (block === projectBlock.block) continue;
    for (const command of shellCommands(block)) {
      if (!command.startsWith('npm install ')) continue;
      const args = command.includes('@company-data/')
        ? asTarballs(words(command), packagesDir, setup)
        : words(command);
      if (args !== undefined && !setup.some((known) => known.join(' ') === args.join(' '))) setup.push(args);
    }
  }
  return { pack, packagesDir, projectName, setup, projectCommands };
}

/**
 * An `npm install` of @company-data packages by name, as the install of their tarballs from the packages
 * folder; `undefined` when the project's commands already install each of them.
 */
function asTarballs(args, packagesDir, setup) {
  const installed = (tarball) => setup.some((known) => known.some((arg) => arg.startsWith(tarball)));
  let added = false;
  const mapped = args.map((arg) => {
    if (!arg.startsWith('@company-data/')) return arg;
    const tarball = `${packagesDir}/company-data-${arg.slice('@company-data/'.length)}-`;
    if (!installed(tarball)) added = true;
    return `${tarball}*.tgz`;
  });
  return added ? mapped : undefined;
}

/**
 * Where a documented command names the packages folder, the real one: a pattern such as
 * `<packagesDir>/company-data-sdk-*.tgz` becomes the matching tarballs in `tarballDir` (expanded here, as the
 * reader's shell expands it; each pattern must match), `<packagesDir>` the folder.
 */
export function withPackagesDir(args, packagesDir, tarballDir) {
  return args.flatMap((arg) => {
    if (arg.startsWith(`${packagesDir}/`) && arg.endsWith('.tgz')) {
      const pattern = arg.slice(packagesDir.length + 1);
      const glob = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[^/]*')}$`);
      const tarballs = existsSync(tarballDir) ? readdirSync(tarballDir).filter((f) => glob.test(f)) : [];
      if (tarballs.length === 0) throw new Error(`no tarballs in ${tarballDir} match \`${arg}\``);
      return tarballs.sort().map((file) => path.join(tarballDir, file));
    }
    return arg === packagesDir ? [tarballDir] : [arg];
  });
}

const escapeRegExp = (text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

function single(blocks, pattern, what) {
  const found = blocks.filter(({ block }) => pattern.test(block.code));
  if (found.length !== 1) {
    const places = found.map(where).join(', ') || 'none';
    throw new Error(`expected one shell block with ${what} in the guides, found ${found.length} (${places})`);
  }
  return found[0];
}

function unknownCommand(place, command) {
  return new Error(
    `${where(place)}: \`${command}\` is not a command the packaging check knows how to run; teach scripts/packaging/recipe.mjs`,
  );
}

const where = ({ guide, block }) => `${guide.file}:${block.line}`;
const words = (command) => command.split(/\s+/);
