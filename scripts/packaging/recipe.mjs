// The install recipe exactly as Getting started prints it: the commands run in a clone (build, then pack the
// workspaces into a folder) and the commands that set up a fresh project around the tarballs. The packing
// step packs with that command, and the install-by-name rehearsal sets its project up with those commands;
// the guides themselves run as written, in one shell (scripts/packaging/guide-runner.mjs).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { shellCommands } from '../docs/markdown.mjs';
import { DONE_BEFORE } from './guide-snippets.mjs';

/**
 * The install recipe: `pack` is the arguments of `npm pack …` after `npm`, `packagesDir` its documented
 * destination, `setup` the project's commands as argument lists, in order.
 *
 * @typedef {{ pack: string[], packagesDir: string, projectName: string, setup: string[][] }} InstallRecipe
 */

/** @typedef {{ guide: import('../docs/guides.mjs').Guide, block: import('../docs/markdown.mjs').CodeBlock }} Place */

/**
 * Finds the recipe in the guides' shell blocks: the block with `npm pack` (commands in the clone) and the block
 * with `npm init` (a project for the snippets).
 *
 * @param {readonly import('../docs/guides.mjs').Guide[]} guides
 * @returns {InstallRecipe}
 */
export function installRecipe(guides) {
  const blocks = guides.flatMap((guide) =>
    guide.blocks.filter((block) => block.lang === 'sh').map((block) => ({ guide, block })),
  );
  const cloneBlock = single(blocks, /^npm pack /m, 'the clone commands (`npm pack …`)');
  const projectBlock = single(blocks, /^npm init /m, 'the project commands (`npm init …`)');

  /** @type {string[] | undefined} */
  let pack;
  /** @type {string | undefined} */
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
  return { pack, packagesDir, projectName, setup };
}

/**
 * Where a documented command names the packages folder, the real one: a pattern such as
 * `<packagesDir>/company-data-sdk-*.tgz` becomes the matching tarballs in `tarballDir` (expanded here, as the
 * reader's shell expands it; each pattern must match), `<packagesDir>` the folder.
 *
 * @param {readonly string[]} args
 * @param {string} packagesDir
 * @param {string} tarballDir
 * @returns {string[]}
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

const escapeRegExp = (/** @type {string} */ text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {readonly Place[]} blocks
 * @param {RegExp} pattern
 * @param {string} what
 * @returns {Place}
 */
function single(blocks, pattern, what) {
  const found = blocks.filter(({ block }) => pattern.test(block.code));
  if (found.length !== 1) {
    const places = found.map(where).join(', ') || 'none';
    throw new Error(`expected one shell block with ${what} in the guides, found ${found.length} (${places})`);
  }
  return /** @type {Place} */ (found[0]);
}

/**
 * @param {Place} place
 * @param {string} command
 */
function unknownCommand(place, command) {
  return new Error(
    `${where(place)}: \`${command}\` is not a command the packaging check knows how to run; teach scripts/packaging/recipe.mjs`,
  );
}

const where = (/** @type {Place} */ { guide, block }) => `${guide.file}:${block.line}`;
const words = (/** @type {string} */ command) => command.split(/\s+/);
