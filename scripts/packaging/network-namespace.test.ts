// The guides' shell in a network of its own: a port the machine's loopback holds is free inside (a reader's
// mock on 4010 does not fail npm test), what listens inside is not seen outside, the machine's loopback is
// reached as HOST_LOOPBACK (the check's PostgreSQL), and a program the runner starts itself through `enter`
// (the guides' python3) shares the shell's network. Loopback only: nothing here reaches beyond the machine.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type GuideShell, openShell } from './guide-shell.mjs';
import { HOST_LOOPBACK, isolatedNetworkOrSkip } from './network-namespace.mjs';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(port = 0): Promise<Server> {
  const server = createServer((socket) => socket.end('from the machine\n'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}
const portOf = (server: Server) => (server.address() as { port: number }).port;

async function shellIn(options: Parameters<typeof isolatedNetworkOrSkip>[0] = {}): Promise<GuideShell> {
  const network = isolatedNetworkOrSkip({ log: () => {}, ...options });
  if (network === undefined) throw new Error('no network namespace here');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'network-namespace-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const shell = await openShell({ cwd: dir, env: process.env, dir, network });
  cleanups.push(() => shell.close());
  return shell;
}

/** A node one-liner that connects to 127.0.0.1 or another host and prints what it read, or the error code. */
const reads = (host: string, port: number) =>
  `node -e 'require("net").connect(${port}, "${host}").on("data", (d) => process.stdout.write(d)).on("error", (e) => console.log(e.code))'`;

/** Runs a command outside the test's process, which keeps serving meanwhile (its servers answer). */
async function output(command: string[]): Promise<string> {
  const [program = '', ...args] = command;
  return (await promisify(execFile)(program, args, { encoding: 'utf8' })).stdout;
}

const available = isolatedNetworkOrSkip({ log: () => {} }) !== undefined;

describe.runIf(available)("the guides' network of their own", () => {
  it('holds ports of its own: a port the machine holds is free inside, and what listens inside is not seen outside', async () => {
    const held = await listen();
    const shell = await shellIn();
    // slirp4netns made its device in the shell's network, not the machine's.
    expect(existsSync('/sys/class/net/tap0')).toBe(false);
    const inside = await shell.start(
      `node -e 'require("net").createServer((s) => s.end("from inside\\n")).listen(${portOf(held)}, "127.0.0.1", () => console.log("http://127.0.0.1:${portOf(held)}/"))'`,
      { timeoutMs: 10_000 },
    );
    expect(inside.output).toBe(`http://127.0.0.1:${portOf(held)}/\n`);
    expect((await shell.run(reads('127.0.0.1', portOf(held)), { timeoutMs: 10_000 })).stdout).toBe(
      'from inside\n',
    );
    // Outside, the same port is still the machine's own server.
    expect(await output(['sh', '-c', reads('127.0.0.1', portOf(held))])).toBe('from the machine\n');
    await inside.stop();
  });

  it("reaches the machine's loopback as HOST_LOOPBACK, and its own 127.0.0.1 is not the machine's", async () => {
    const machine = await listen();
    const shell = await shellIn();
    expect((await shell.run(reads(HOST_LOOPBACK, portOf(machine)), { timeoutMs: 10_000 })).stdout).toBe(
      'from the machine\n',
    );
    expect((await shell.run(reads('127.0.0.1', portOf(machine)), { timeoutMs: 10_000 })).stdout).toBe(
      'ECONNREFUSED\n',
    );
  });

  it("runs a program the runner starts itself (the guides' python3) in the shell's network, through enter", async () => {
    const shell = await shellIn();
    const server = await shell.start(
      `node -e 'const s = require("net").createServer((c) => c.end("from inside\\n")).listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + s.address().port + "/"))'`,
      { timeoutMs: 10_000 },
    );
    const port = Number(/:(\d+)\//.exec(server.output)?.[1]);
    expect(await output([...shell.enter, 'sh', '-c', reads('127.0.0.1', port)])).toBe('from inside\n');
    // Without it, the same address is the machine's, where nothing listens.
    expect(await output(['sh', '-c', reads('127.0.0.1', port)])).toBe('ECONNREFUSED\n');
    await server.stop();
  });

  it('works in a user namespace too, as for a developer who is not root', async () => {
    const held = await listen();
    const shell = await shellIn({ rootless: true });
    const result = await shell.run(
      `node -e 'require("net").createServer().listen(${portOf(held)}, "127.0.0.1", function () { console.log("bound"); this.close() })' && ${reads(HOST_LOOPBACK, portOf(held))}`,
      { timeoutMs: 10_000 },
    );
    expect(result.stdout).toBe('bound\nfrom the machine\n');
  });

  it("names slirp4netns' resolver inside when the machine's listens on its own loopback, leaving the machine's file alone", async () => {
    const machines = readFileSync('/etc/resolv.conf', 'utf8');
    const shell = await shellIn({ resolverInside: true });
    expect((await shell.run('cat /etc/resolv.conf', { timeoutMs: 10_000 })).stdout).toBe(
      'nameserver 10.0.2.3\n',
    );
    expect(readFileSync('/etc/resolv.conf', 'utf8')).toBe(machines);
  });
});
