import { describe, expect, it } from 'vitest';
import { type JsonSchema, standaloneChecks } from '../../../build/standalone-checks.js';

// How the build turns JSON Schemas into checks (the contract's and the SDK's generated files): what the code
// may need at run time, what it refuses to compile, and the two rewrites that keep a page's check fast.

/** The named check of the code, as the generated module holds it. */
function compiled(schemas: Record<string, JsonSchema>, name = 'isValue'): (value: unknown) => boolean {
  const code = standaloneChecks(schemas, { [name]: Object.keys(schemas)[0] as string });
  return new Function(`${code}\nreturn ${name};`)() as (value: unknown) => boolean;
}

describe('standaloneChecks', () => {
  it('writes self-contained code: no import, no require, no export', () => {
    const code = standaloneChecks({ Page: { type: 'object', required: ['count'] } }, { isPage: 'Page' });
    expect(code).not.toMatch(/\brequire\(|^import |^export /m);
    const isPage = compiled({ Page: { type: 'object', required: ['count'] } });
    expect([isPage({ count: 1 }), isPage({}), isPage(null)]).toEqual([true, false, false]);
  });

  it('refuses a keyword it does not know, rather than a check that ignores it', () => {
    expect(() => standaloneChecks({ Odd: { type: 'string', maxDigits: 3 } }, { isOdd: 'Odd' })).toThrow(
      /maxDigits/,
    );
  });

  it('refuses a schema whose check would import a helper of ajv at run time', () => {
    expect(() => standaloneChecks({ Set: { type: 'array', uniqueItems: true } }, { isSet: 'Set' })).toThrow(
      /helper of ajv at run time/,
    );
  });

  it('inlines every $ref: one function per check, whatever it refers to', () => {
    const schemas = {
      List: { type: 'array', items: { $ref: 'Item' } },
      // ajv inlines a small schema without refs by itself; not one that refers on.
      Item: { type: 'object', properties: { id: { $ref: 'Id' } }, required: ['id'] },
      Id: { type: 'string' },
    };
    const code = standaloneChecks(schemas, { isList: 'List' });
    expect(code.match(/^function /gm)).toHaveLength(1);
    const isList = compiled(schemas);
    expect([isList([{ id: 'a' }]), isList([{ id: 1 }]), isList([{}])]).toEqual([true, false, false]);
  });

  it('checks an open enum (known values or any string) as a string, with no branch per known value', () => {
    const schemas = { Source: { anyOf: [{ type: 'string', enum: ['voice_agent'] }, { type: 'string' }] } };
    expect(standaloneChecks(schemas, { isSource: 'Source' })).not.toContain('voice_agent');
    const isSource = compiled(schemas);
    expect([isSource('voice_agent'), isSource('other'), isSource(1)]).toEqual([true, true, false]);
  });
});
