import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PgGovernanceStore } from './pgStore.ts';
import { teamUrlRefusal } from './url.ts';

const rules = { coolingOffMs: 0, profiles: () => [] };

describe('team store URLs', () => {
  it('connects in clear only to this machine', () => {
    for (const ok of [
      'postgresql://desk@127.0.0.1:5432/team',
      'postgres://desk@localhost/team',
      'postgresql://desk@[::1]/team',
      'postgresql://desk@db.example.com/team?sslmode=verify-full',
      'postgresql://desk@10.0.0.5/team?sslmode=require',
    ])
      expect(teamUrlRefusal(ok), ok).toBeNull();
    expect(teamUrlRefusal('postgresql://desk@db.example.com/team')).toMatch(
      /db\.example\.com is on another machine: add sslmode=verify-full/,
    );
    expect(teamUrlRefusal('postgresql://desk@10.0.0.5/team?sslmode=disable')).toMatch(/on another machine/);
    expect(teamUrlRefusal('mysql://desk@127.0.0.1/team')).toMatch(/postgresql:\/\/ URL/);
  });

  it('refuses to open a store in clear across the network, before any connection', () => {
    expect(
      () => new PgGovernanceStore({ url: 'postgresql://desk:pw@db.example.com/team', dir: join(tmpdir(), 'desk-team-never-made'), rules }),
    ).toThrow(/on another machine/);
  });
});
