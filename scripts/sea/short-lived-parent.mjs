// A parent that dies: starts the command given after `--`, tied to this process as the testing guide says a
// harness ties it (`stdin`: a pipe, and `--exit-on-stdin-close`; `parent-pid`: `--parent-pid` with this pid),
// passes on what it prints, and waits to be killed. The mock binary's check kills it with SIGKILL, as a
// crashed test runner dies, and expects the command to stop by itself.
//
//   node scripts/sea/short-lived-parent.mjs <stdin|parent-pid> -- <program> [arguments]
import { spawn } from 'node:child_process';

const [how, separator, program = '', ...args] = process.argv.slice(2);
if (separator !== '--' || (how !== 'stdin' && how !== 'parent-pid')) {
  process.stderr.write('usage: short-lived-parent.mjs <stdin|parent-pid> -- <program> [arguments]\n');
  process.exit(2);
}
const tie = how === 'stdin' ? ['--exit-on-stdin-close'] : ['--parent-pid', String(process.pid)];
spawn(program, [...args, ...tie], { stdio: [how === 'stdin' ? 'pipe' : 'ignore', 'inherit', 'inherit'] });
setInterval(() => {}, 60_000); // alive until killed
