import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsStore } from './settings.ts';

// The settings file as the operator's data folder holds it. The adversary: anyone who can write that
// folder (or a crash mid-write); a bad file must be reported and kept, never silently replaced.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'desk-settings-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const file = () => join(dir, 'settings.json');

describe('settings store', () => {
  it('starts from the defaults and writes the file private (0600)', () => {
    const store = new SettingsStore(dir);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    store.set({ idle_lock_minutes: 5, settle_seconds: 45 });
    expect(new SettingsStore(dir).get()).toEqual({ idle_lock_minutes: 5, settle_seconds: 45 });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('reads the file the earlier store wrote, as it is, and keeps it private once it writes', () => {
    writeFileSync(file(), `${JSON.stringify({ idle_lock_minutes: 7, settle_seconds: 90 }, null, 2)}\n`, { mode: 0o644 });
    const store = new SettingsStore(dir);
    expect(store.get()).toEqual({ idle_lock_minutes: 7, settle_seconds: 90 });
    store.set({ idle_lock_minutes: 8, settle_seconds: 90 });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ idle_lock_minutes: 8, settle_seconds: 90 });
  });

  it.each([
    ['a file that is not JSON', '{"idle_lock_min', /settings\.json cannot be read/],
    [
      'a value outside the contract',
      '{"idle_lock_minutes": 0, "settle_seconds": 30}',
      /settings\.json does not have the expected shape \(idle_lock_minutes/,
    ],
  ])('reports %s and leaves the file as it was', (_name, text, message) => {
    writeFileSync(file(), text);
    expect(() => new SettingsStore(dir).get()).toThrow(message);
    expect(readFileSync(file(), 'utf8')).toBe(text);
  });
});
