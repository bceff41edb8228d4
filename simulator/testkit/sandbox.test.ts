import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, signed } from './http.ts';
import { useTestSandbox } from './sandbox.ts';

// The fixture's own promises: a Sandbox per calling scope, closed when the scope ends, and a clear error,
// never undefined, for a read while none runs (a file's top level, or after its scope).

const answers = async (baseUrl: string): Promise<boolean> => {
  try {
    await send(baseUrl, { method: 'GET', path: `${new URL(baseUrl).pathname}/spot/time`, timeoutMs: 5_000 });
    return true;
  } catch {
    return false;
  }
};
const errorOf = (read: () => unknown): string => {
  try {
    return `no error: ${String(read())}`;
  } catch (e) {
    return (e as Error).message;
  }
};

const s = useTestSandbox({ noLimits: true });
const atTopLevel = errorOf(() => s.baseUrl);

it('refuses a read at the top level of a file with a sentence naming what was read', () => {
  expect(atTopLevel).toMatch(/the test Sandbox's baseUrl was read while no Sandbox runs/);
});

it("serves the file's tests with a running Sandbox and its credentials", async () => {
  const r = await signed(s.baseUrl, s.credentials.main, { method: 'GET', path: '/wallet/total_balance' });
  expect(r.status, r.text).toBe(200);
});

describe('a Sandbox of its own for a describe block', () => {
  let url = '';
  // Registered before the block's fixture, so it runs after the fixture's own afterAll has closed it.
  afterAll(async () => {
    expect(errorOf(() => inner.baseUrl)).toMatch(/baseUrl was read while no Sandbox runs/);
    expect(await answers(url)).toBe(false);
  });
  const inner = useTestSandbox({ noLimits: true });
  beforeAll(() => {
    url = inner.baseUrl;
  });

  it("runs apart from the file's, and is closed when the block ends", async () => {
    expect(inner.baseUrl).not.toBe(s.baseUrl);
    expect(await answers(inner.baseUrl)).toBe(true);
    expect(await answers(s.baseUrl)).toBe(true);
  });
});
