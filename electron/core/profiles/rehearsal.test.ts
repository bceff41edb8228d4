import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtInSandbox, keepRehearsal, rehearsalPath, rehearsalProfile } from './sandbox.ts';

// rehearsal.json (docs/team.md §Rehearsing a team): the built-in Sandbox profile on another desk's
// Sandbox. Read again at every start, its address must still be a loopback Sandbox's: an edited file
// cannot point the built-in profile (play money rules) anywhere else.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rehearsal-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const kept = { base_url: 'http://127.0.0.1:41234/api/v4', uid: '10000001', key: 'ab'.repeat(16), secret: 'cd'.repeat(32) };

describe('rehearsal.json', () => {
  it('is absent on a desk that joined no rehearsal: the built-in profile is its own Sandbox', () => {
    expect(rehearsalProfile(dir)).toBeNull();
    expect(builtInSandbox(dir, undefined)).toBeUndefined();
  });

  it('makes the built-in profile a Sandbox profile on that address, with that key, kept 0600', () => {
    keepRehearsal(dir, kept);
    expect(statSync(rehearsalPath(dir)).mode & 0o777).toBe(0o600);
    expect(builtInSandbox(dir, join(dir, 'no-credentials.json'))).toEqual({
      name: 'Sandbox',
      environment: 'sandbox',
      baseUrl: kept.base_url,
      credentials: { key: kept.key, secret: kept.secret },
      subKeys: [],
    });
  });

  it.each([
    ['https://api.example.com/api/v4', /rehearsal\.json is malformed \(base_url\)/],
    ['http://10.1.2.3:41234/api/v4', /rehearsal\.json is malformed \(base_url\)/],
    ['http://127.0.0.1:41234/admin/v1', /rehearsal\.json is malformed \(base_url\)/],
  ])('refuses a file edited to point at %s', (base_url, message) => {
    writeFileSync(rehearsalPath(dir), JSON.stringify({ ...kept, base_url }));
    expect(() => rehearsalProfile(dir)).toThrow(message);
    expect(() => keepRehearsal(dir, { ...kept, base_url })).toThrow();
  });

  it('refuses a file that is not JSON, naming it', () => {
    writeFileSync(rehearsalPath(dir), '{');
    expect(() => rehearsalProfile(dir)).toThrow(/rehearsal\.json is not JSON: remove it/);
  });
});
