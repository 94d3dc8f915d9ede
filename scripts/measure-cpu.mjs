// How much work a command does: the CPU time of all its processes (user plus system), beside its wall time.
// The proof's budget is counted this way (`npm test` at most 300 CPU-seconds on a 2-core machine): unlike the
// wall time, it barely moves with what else the machine runs.
//
//   node scripts/measure-cpu.mjs                    # npm test
//   node scripts/measure-cpu.mjs npm run typecheck  # any command
//
// bash runs the command and then its `times`, which counts every process the command started and waited for,
// down the whole tree (the kernel adds a child's own children to it when it is reaped). The command's output
// goes through; the measure is printed on stderr last; the exit code is the command's.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const command = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'test'];
const started = performance.now();
const child = spawn('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bash', ...command], {
  stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
});
let times = '';
child.stdio[3]?.on('data', (chunk) => {
  times += chunk;
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => {});
const [code, signal] = await once(child, 'exit');
const wallSeconds = (performance.now() - started) / 1000;

/** `1m2.345s` in seconds. */
const seconds = (/** @type {string} */ text) => {
  const [, minutes = '0', rest = '0'] = /^(\d+)m([\d.]+)s$/.exec(text) ?? [];
  return Number(minutes) * 60 + Number(rest);
};
// `times` prints the shell's own user and system time, then its children's.
const [user = 0, system = 0] = (times.trim().split('\n')[1] ?? '').split(/\s+/).map(seconds);
const round = (/** @type {number} */ value) => value.toFixed(1);
console.error(
  `\n${command.join(' ')}: ${round(user + system)} CPU-seconds (user ${round(user)}, system ${round(system)}), all its processes; ${round(wallSeconds)} s wall`,
);
process.exitCode = signal ? 1 : (code ?? 1);
