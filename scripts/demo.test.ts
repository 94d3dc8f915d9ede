// `npm run demo` as a CI log or a pipe sees it: stdout and stderr captured apart. Everything the demo says
// must be on stdout, in order, ending with what to do next; stderr stays empty, so nothing interleaves.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url);

it('prints its sections in order on stdout, then the three next steps', async () => {
  const { scripts } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
  const [node, ...args] = scripts.demo.split(' ');
  expect(node).toBe('node');
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
  });

  expect(stderr).toBe('');
  const sections = [
    'Users (',
    'Calls: ',
    'Transcript of call',
    'Audience member added twice',
    'Lead submitted twice',
    'Next steps:',
  ];
  expect(sections.filter((section) => !stdout.includes(section))).toEqual([]);
  const positions = sections.map((section) => stdout.indexOf(section));
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  expect(stdout.trimEnd().split('\n').slice(-3)).toEqual([
    expect.stringMatching(/^ {2}1\. .*scripts\/demo\.mjs$/),
    expect.stringMatching(/^ {2}2\. .*npx company-data-mock --port 4010/),
    expect.stringMatching(/^ {2}3\. .*docs\/getting-started\.md$/),
  ]);
}, 30_000);
