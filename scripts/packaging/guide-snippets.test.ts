// How the guides become the steps a reader takes: which commands run, where, in what order and how, and
// how a placeholder is filled. Pure: nothing here runs a command.
import { describe, expect, it } from 'vitest';
import { codeBlocks } from '../docs/markdown.mjs';
import type { CommandStep, Guide } from './guide-snippets.mjs';
import { snippetPlan } from './guide-snippets.mjs';
import { fillPlaceholders } from './placeholders.mjs';

const FENCE = '```';

/** A guide from markdown lines, as scripts/docs/guides.mjs reads one. */
function guide(name: string, ...lines: string[]): Guide {
  const text = lines.join('\n');
  return { file: `docs/${name}.md`, name, text, blocks: codeBlocks(text) };
}

const commands = (plan: ReturnType<typeof snippetPlan>, index = 0) =>
  (plan.guides[index]?.steps ?? []).filter((step): step is CommandStep => 'command' in step);

describe('snippetPlan', () => {
  it('takes every step in the order of the text: files saved, snippets run, shell commands, printed commands', () => {
    const plan = snippetPlan([
      guide(
        'start',
        'Set up:', // 1
        `${FENCE}sh`, // 2
        'mkdir app && cd app   # a comment is not a command', // 3
        '', // 4
        'npm init -y', // 5
        FENCE, // 6
        'Save this as `snippet.ts`:', // 7
        `${FENCE}ts`, // 8
        "console.log('before');", // 9
        '// ← paste the snippet here', // 10
        FENCE, // 11
        `${FENCE}ts`, // 12
        "console.log('hi'); // → hi", // 13
        FENCE, // 14
        'Save this as `tool.ts`:', // 15
        `${FENCE}ts`, // 16
        "console.log('tool');", // 17
        FENCE, // 18
        'and run it with `npx tsx tool.ts`, then `npx tsc`.', // 19
      ),
    ]);
    expect(plan.typecheck).toBe(true);
    expect(
      plan.guides[0]?.steps.map((step) => ('save' in step ? `save ${step.save}` : step.command)),
    ).toEqual([
      'mkdir app && cd app',
      'npm init -y',
      'save snippet.ts',
      'save snippet-start-12.ts',
      'npx tsx snippet-start-12.ts',
      'save tool.ts',
      'npx tsx tool.ts',
      'npx tsc',
    ]);
    expect(commands(plan).map((step) => [step.line, step.mode, step.promises])).toEqual([
      [3, 'run', []],
      [5, 'run', []],
      [12, 'run', ['hi']],
      [19, 'run', []],
      [19, 'run', []],
    ]);
  });

  it('reads the marks of a shell block: where it runs, servers left running or stopped, installs that wait for npm', () => {
    const plan = snippetPlan([
      guide(
        'marks',
        `${FENCE}sh once-published`, // 1
        'npm install @company-data/sdk', // 2
        FENCE, // 3
        `${FENCE}sh in-clone`, // 4
        'npm run build', // 5
        'npm pack --workspaces --pack-destination ~/packages', // 6
        FENCE, // 7
        `${FENCE}sh keeps-running`, // 8
        'npx company-data-mock --port 4010', // 9
        FENCE, // 10
        `${FENCE}sh until-ctrl-c`, // 11
        'npx company-data-mock --port 0 \\', // 12
        '  --log text', // 13
        FENCE, // 14
      ),
    ]);
    expect(commands(plan)).toEqual([
      {
        line: 5,
        command: 'npm run build',
        mode: 'run',
        inClone: true,
        promises: [],
        doneBefore: expect.stringContaining('npm test'),
      },
      {
        line: 6,
        command: 'npm pack --workspaces --pack-destination ~/packages',
        mode: 'run',
        inClone: true,
        promises: [],
      },
      {
        line: 9,
        command: 'npx company-data-mock --port 4010',
        mode: 'keeps-running',
        inClone: false,
        promises: [],
      },
      {
        line: 12,
        command: 'npx company-data-mock --port 0 \\\n--log text',
        mode: 'until-ctrl-c',
        inClone: false,
        promises: [],
      },
    ]);
  });

  it('runs a by-name install of our packages as written when its block does not say it waits for npm', () => {
    const plan = snippetPlan([guide('add-on', `${FENCE}sh`, 'npm install @company-data/redis-gate', FENCE)]);
    expect(commands(plan).map((step) => step.command)).toEqual(['npm install @company-data/redis-gate']);
  });

  it('runs a command the text prints only once, where a shell block of the guide gives it', () => {
    const plan = snippetPlan([
      guide(
        'once',
        'A file runs with `npx tsx first.ts`.', // 1
        'Save this as `first.ts`:', // 2
        `${FENCE}ts`, // 3
        "console.log('first'); // → first", // 4
        FENCE, // 5
        `${FENCE}sh`, // 6
        'npx tsx first.ts', // 7
        FENCE, // 8
      ),
    ]);
    expect(commands(plan)).toEqual([
      { line: 7, command: 'npx tsx first.ts', mode: 'run', inClone: false, promises: ['first'] },
    ]);
  });

  it('refuses a mark it does not know, naming the guide and line', () => {
    expect(() =>
      snippetPlan([guide('typo', 'Run:', `${FENCE}sh keep-running`, 'npx server', FENCE)]),
    ).toThrow(/^docs\/typo\.md:2: `sh keep-running` is not a mark the check knows/);
  });

  it('refuses a once-published block that hides anything but a by-name install from the check', () => {
    expect(() =>
      snippetPlan([
        guide('hidden', `${FENCE}sh once-published`, 'npm install @company-data/sdk', 'rm -rf x', FENCE),
      ]),
    ).toThrow(/^docs\/hidden\.md:3: `rm -rf x` is in a block marked once-published/);
  });

  it("leaves with-mock-binary blocks to the mock binary's check, and if-installed only goes with them", () => {
    const plan = snippetPlan([
      guide(
        'binary',
        'Save this as `conftest.py`:',
        `${FENCE}python`,
        'import pytest',
        FENCE,
        `${FENCE}sh with-mock-binary`,
        'python3 -m pytest -q',
        FENCE,
      ),
    ]);
    expect(commands(plan)).toEqual([]);
    expect(plan.files.get('conftest.py')).toBe('import pytest\n');
    expect(() => snippetPlan([guide('go', `${FENCE}sh if-installed`, 'go test ./...', FENCE)])).toThrow(
      /^docs\/go\.md:1: `sh if-installed` goes only with with-mock-binary/,
    );
  });

  it('saves a file given with its folder, marks a with-pytest block as a pytest run, and pastes a Python snippet', () => {
    const plan = snippetPlan([
      guide(
        'parallel',
        'Save this as `suite/conftest.py`:', // 1
        `${FENCE}python`, // 2
        'import pytest', // 3
        FENCE, // 4
        `${FENCE}sh with-pytest`, // 5
        'pytest-3 -n 8 suite', // 6
        FENCE, // 7
        // A path in a folder names a file to save only after "as": here it names a file of the repository.
        // Nor is it pasted into python3: it is shown, not run.
        'The rules live in `suite/rules.py`:', // 8
        `${FENCE}python`, // 9
        'RULES = []', // 10
        FENCE, // 11
        'The same from Python:', // 12
        `${FENCE}python`, // 13
        'print(len(RULES))  # → 0', // 14
        FENCE, // 15
      ),
    ]);
    expect([...plan.files.keys()]).toEqual(['suite/conftest.py']);
    expect(plan.files.get('suite/conftest.py')).toBe('import pytest\n');
    expect(plan.guides[0]?.steps).toEqual([
      { line: 2, save: 'suite/conftest.py', content: 'import pytest\n' },
      { line: 6, command: 'pytest-3 -n 8 suite', mode: 'run', inClone: false, promises: [], pytest: true },
      // A Python block without a file name: a snippet pasted into the guide's python3, its `# → ` promises read.
      { line: 13, python: 'print(len(RULES))  # → 0\n', promises: ['0'] },
    ]);
  });

  it('runs a shell block introduced by variables in backticks: a name without an extension is no file', () => {
    const plan = snippetPlan([
      guide(
        'variables',
        'With the same `ADMIN` and `MOCK`:', // 1
        `${FENCE}sh`, // 2
        'curl -H "Authorization: Bearer $ADMIN" $MOCK/__admin/changes', // 3
        FENCE, // 4
        'Save this as `go.mod`:', // 5
        `${FENCE}text`, // 6
        'module example.com/orders', // 7
        FENCE, // 8
      ),
    ]);
    expect([...plan.files.keys()]).toEqual(['go.mod']);
    expect(
      plan.guides[0]?.steps.map((step) => ('save' in step ? `save ${step.save}` : step.command)),
    ).toEqual(['curl -H "Authorization: Bearer $ADMIN" $MOCK/__admin/changes', 'save go.mod']);
  });

  it('refuses a guide that runs a file before any guide gives it', () => {
    expect(() =>
      snippetPlan([
        guide(
          'early',
          `${FENCE}sh`,
          'npx tsx later.ts',
          FENCE,
          'Save this as `later.ts`:',
          `${FENCE}ts`,
          "console.log('x');",
          FENCE,
        ),
      ]),
    ).toThrow(/^docs\/early\.md:2: `npx tsx later\.ts` runs later\.ts before any guide has given it/);
  });
});

describe('fillPlaceholders', () => {
  const banner = [
    'Company Data mock server 1.0.0 listening (pid 7)',
    '  Base URL   http://127.0.0.1:4010/v1',
    '    valid           svc_live_abc',
    '    expired         svc_live_def',
    '    audience      POST http://127.0.0.1:4010/v1/outbound-campaigns/webhook/tok-1/   (Spring)',
    '    audience      POST http://127.0.0.1:4010/v1/outbound-campaigns/webhook/tok-2/   (Win-back)',
    '    lead          POST http://127.0.0.1:4010/messaging-agent/webhook/lead-1/   (Website form)',
    '  Admin API        http://127.0.0.1:4010/__admin/   (Authorization: Bearer adm1n)',
  ].join('\n');

  it('types what the server started last printed, as the reader does', () => {
    expect(fillPlaceholders('export K=<the "valid" key it printed>', banner)).toBe('export K=svc_live_abc');
    expect(fillPlaceholders('export A=<the first "audience" URL it printed>', banner)).toBe(
      'export A=http://127.0.0.1:4010/v1/outbound-campaigns/webhook/tok-1/',
    );
    expect(
      fillPlaceholders('curl $M/audiences/<the token of an audience URL it printed>/members', banner),
    ).toBe('curl $M/audiences/tok-1/members');
    expect(fillPlaceholders('T=<the admin token it printed>', banner)).toBe('T=adm1n');
  });

  it('keeps what Getting started exported for a placeholder of the reader’s own account', () => {
    expect(fillPlaceholders('export COMPANY_DATA_API_KEY=<your API key>', undefined)).toBe(
      'export COMPANY_DATA_API_KEY="$COMPANY_DATA_API_KEY"',
    );
  });

  it('leaves a command without placeholders, redirections included, as written', () => {
    expect(fillPlaceholders('npx company-data verify --json > report.json 2>&1', undefined)).toBe(
      'npx company-data verify --json > report.json 2>&1',
    );
  });

  it('refuses a placeholder it does not know, an elided value, and a value no server printed', () => {
    expect(() => fillPlaceholders('curl <audience token>', banner)).toThrow(
      /<audience token> is not a placeholder the check knows how to fill/,
    );
    expect(() => fillPlaceholders('export KEY=svc_live_…', banner)).toThrow(/an elided value \(…\)/);
    expect(() => fillPlaceholders('export K=<the "valid" key it printed>', undefined)).toThrow(
      /no server has been started before it/,
    );
    expect(() =>
      fillPlaceholders('export K=<the "valid" key it printed>', 'listening on http://x\n'),
    ).toThrow(/printed no such value/);
  });
});

describe('a snippet that needs `client`', () => {
  const USES = 'const page = await client.calls.list({ page_size: 1 });';
  it('is refused as a whole file that does not declare one, and accepted once it does', () => {
    expect(() =>
      snippetPlan([guide('misplaced', 'Save this as `export.ts`:', `${FENCE}ts`, USES, FENCE)]),
    ).toThrow(
      'docs/misplaced.md:2: export.ts uses `client.` but declares no `client`: give the whole file (its imports and `const client = new CompanyData()`), or say it goes into snippet.ts',
    );
    const whole = snippetPlan([
      guide(
        'whole',
        'Save this as `export.ts`:',
        `${FENCE}ts`,
        "import { CompanyData } from '@company-data/sdk';",
        'const client = new CompanyData();',
        USES,
        FENCE,
        'Run it with `npx tsx export.ts`.',
      ),
    ]);
    expect([...whole.files.keys()]).toEqual(['export.ts']);
  });

  it('is refused in a template that declares none, and runs in one that does', () => {
    const template = (declares: boolean) =>
      guide(
        'start',
        'Save this as `snippet.ts`:',
        `${FENCE}ts`,
        declares ? 'const client = new CompanyData();' : "console.log('no client here');",
        '// ← paste the snippet here',
        FENCE,
        `${FENCE}ts`,
        USES,
        FENCE,
      );
    expect(() => snippetPlan([template(false)])).toThrow(
      'docs/start.md:6: a snippet for snippet.ts uses `client.` but declares no `client`',
    );
    expect(commands(snippetPlan([template(true)])).map((step) => step.command)).toEqual([
      'npx tsx snippet-start-6.ts',
    ]);
  });

  it('is not confused by a client of something else, or one given as a parameter', () => {
    const file = (code: string) => () =>
      snippetPlan([guide('other', 'Save this as `x.ts`:', `${FENCE}ts`, code, FENCE, 'Run `npx tsx x.ts`.')]);
    expect(file('this.client.close();')).not.toThrow();
    expect(file("it('reads', async ({ client }) => { await client.users.list(); });")).not.toThrow();
  });
});
