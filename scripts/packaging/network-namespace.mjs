// A network of the guides' own: their shell runs in a Linux network namespace, so the ports they name (4010,
// 4011, 6379…) are theirs even while a reader's own mock from Getting started, or anything else, holds the
// same ports on the machine. slirp4netns (Debian's package) gives the namespace the outside world through a
// user-mode NAT, as rootless containers have it: the npm registry for the reader's installs, and the
// machine's own loopback as 10.0.2.2 (the check's PostgreSQL).
//
// As root (CI), `unshare --net`; otherwise a user namespace that maps the caller to root in it
// (`unshare --user --map-root-user --net`), where the kernel allows one. A machine whose resolver listens on
// its own loopback (systemd-resolved's 127.0.0.53) would be unreachable from inside: the namespace then gets
// a mount namespace of its own with /etc/resolv.conf naming slirp4netns' resolver, which asks the machine's.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findProgram, isCI, programOrSkip } from '../system-packages.mjs';

/** The machine's loopback, as the namespace reaches it through slirp4netns. */
export const HOST_LOOPBACK = '10.0.2.2';
/** slirp4netns' resolver, which forwards to the machine's. */
const SLIRP_RESOLVER = '10.0.2.3';
/** How long slirp4netns and unshare may take to start: a bound for a failure, far above their milliseconds. */
const READY_TIMEOUT_MS = 30_000;

/**
 * How the guides' shell gets a network of its own.
 *
 * @typedef {object} IsolatedNetwork
 * @property {(program: string, args: string[], dir: string) => Promise<string[]>} command - the command line
 *   that runs `program args` in a new namespace (`dir` gets the resolver file, when one is needed).
 * @property {(pid: number) => Promise<{ stop: () => Promise<void> }>} attach - connects the namespace of `pid`
 *   (the program `command` started) to the outside; resolves once it is connected.
 * @property {(pid: number) => string[]} enter - the command prefix that runs a program in the namespace of
 *   `pid` (`nsenter`), for a program the runner starts itself (the guides' python3 prompt).
 * @property {string} how - one line for the check's output.
 */

/**
 * A network namespace for the guides, or why there is none: no slirp4netns (under CI, a failure, as for any
 * program the tests need), or namespaces the kernel refuses this user. Without one, the guides use the
 * machine's own ports, and a process holding 4010 or 4011 fails them.
 *
 * @param {{ env?: NodeJS.ProcessEnv, log?: (line: string) => void, rootless?: boolean, resolverInside?: boolean }} [options]
 *   `rootless` and `resolverInside` force the user namespace and the resolver file (for tests, as root).
 * @returns {IsolatedNetwork | undefined}
 */
export function isolatedNetworkOrSkip({
  env = process.env,
  log = console.warn,
  rootless = process.getuid?.() !== 0,
  resolverInside = resolverOnLoopback(),
} = {}) {
  const slirp = programOrSkip('slirp4netns', { env, log });
  if (slirp === undefined) return undefined;
  const unshare = findProgram('unshare', env);
  const nsenter = findProgram('nsenter', env);
  const userFlags = rootless ? ['--user', '--map-root-user'] : [];
  const mountFlags = resolverInside ? ['--mount'] : [];
  const probe =
    unshare === undefined
      ? undefined
      : spawnSync(unshare, [...userFlags, ...mountFlags, '--net', 'true'], { encoding: 'utf8' });
  if (unshare === undefined || nsenter === undefined || probe?.status !== 0) {
    const why =
      unshare === undefined || nsenter === undefined
        ? 'no unshare or nsenter (util-linux) on the PATH'
        : `the kernel refuses this user a network namespace (\`unshare ${[...userFlags, ...mountFlags, '--net'].join(' ')} true\`: ${probe?.stderr.trim() || `exit ${probe?.status}`})`;
    const line = `the guides' own network: ${why}; they use the machine's ports, and a process holding 4010 or 4011 fails them`;
    if (isCI(env)) throw new Error(`cannot give ${line}`);
    log(`!!!! SKIPPED ${line}`);
    return undefined;
  }
  return {
    how: `a network namespace of their own (${rootless ? 'a user namespace, ' : ''}slirp4netns for the registry, the machine's loopback as ${HOST_LOOPBACK})`,
    async command(program, args, dir) {
      if (!resolverInside) return [unshare, ...userFlags, '--net', '--', program, ...args];
      const resolver = path.join(dir, 'resolv.conf');
      await writeFile(resolver, `nameserver ${SLIRP_RESOLVER}\n`);
      // The bind mount stays inside the namespace's own mount table; the machine's file is not touched.
      return [
        unshare,
        ...userFlags,
        '--mount',
        '--net',
        '--',
        'sh',
        '-c',
        'mount --bind "$0" /etc/resolv.conf && exec "$@"',
        resolver,
        program,
        ...args,
      ];
    },
    async attach(pid) {
      await namespaceMade(pid, unshare);
      const child = spawn(
        slirp,
        [
          '--configure',
          '--mtu=65520',
          '--ready-fd=3',
          // Its end: the pipe closing, also when this process dies without a word.
          '--exit-fd=4',
          ...(rootless ? [`--userns-path=/proc/${pid}/ns/user`] : []),
          String(pid),
          'tap0',
        ],
        {
          stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
          // Every packet of the guides passes through it (their npm installs too): a session of its own is,
          // on Linux, a scheduler autogroup of its own at normal priority, as the guides' shell has, rather
          // than a share of the check's lowered one.
          detached: true,
        },
      );
      let errors = '';
      child.stderr?.setEncoding('utf8').on('data', (text) => {
        errors += text;
      });
      const exited = once(child, 'exit');
      const readyPipe = /** @type {import('node:stream').Readable} */ (child.stdio[3]);
      const exitPipe = /** @type {import('node:stream').Writable} */ (child.stdio[4]);
      /** @type {NodeJS.Timeout | undefined} */
      let timer;
      try {
        await Promise.race([
          once(readyPipe, 'data'),
          exited.then(([code]) => {
            throw new Error(`slirp4netns exited (${code}) before it connected: ${errors.trim()}`);
          }),
          new Promise((_, reject) => {
            // Fails only after one more turn of the event loop: should the loop have been held up past the
            // bound, the ready signal that arrived meanwhile is read first.
            timer = setTimeout(
              () =>
                setImmediate(() =>
                  reject(
                    new Error(
                      `slirp4netns did not connect within ${READY_TIMEOUT_MS / 1000} s${errors.trim() ? `: ${errors.trim()}` : ''}`,
                    ),
                  ),
                ),
              READY_TIMEOUT_MS,
            );
          }),
        ]);
      } catch (error) {
        child.kill('SIGKILL');
        throw error;
      } finally {
        clearTimeout(timer);
      }
      return {
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          exitPipe.destroy();
          await exited;
        },
      };
    },
    enter(pid) {
      return [
        nsenter,
        `--target=${pid}`,
        ...(rootless ? ['--user', '--preserve-credentials'] : []),
        ...(resolverInside ? ['--mount'] : []),
        '--net',
        '--',
      ];
    },
  };
}

/**
 * Waits until `unshare` has made the namespaces of `pid` and run its program: attached any earlier,
 * slirp4netns would join the machine's own network.
 *
 * @param {number} pid
 * @param {string} unshare - the path `unshare` was started by.
 */
async function namespaceMade(pid, unshare) {
  const program = realpathSync(unshare);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    /** @type {string | undefined} */
    let running;
    try {
      running = readlinkSync(`/proc/${pid}/exe`);
    } catch {
      throw new Error(`the guides' shell (pid ${pid}) ended before its network was made`);
    }
    if (running !== program) return;
    if (Date.now() > deadline) {
      throw new Error(`unshare (pid ${pid}) did not start its program within ${READY_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Whether the machine's resolver is on its loopback, which a network namespace has a loopback of its own for. */
function resolverOnLoopback() {
  try {
    return /^\s*nameserver\s+(127\.|::1\b)/m.test(readFileSync('/etc/resolv.conf', 'utf8'));
  } catch {
    return false;
  }
}
