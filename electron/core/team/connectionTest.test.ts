import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTeamStore } from './connectionTest.ts';
import { DeskIdentity } from './deskIdentity.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import { openTeamDesk } from './testkit/teamDesks.ts';

// Settings' "Test connection" against a real PostgreSQL: an empty store (to found a team in), a team's
// store with the founding record's link the joining desk pins and shows for comparison, and the clear
// reasons of a store it cannot reach or will not try.

const missing = postgresMissing();

describe.skipIf(missing !== null)(`testing a team store's connection${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  it('says an empty store is one to found a team in, and a team store shows the founding link its founder pinned', async () => {
    const url = await server.newDatabase('conn_test');
    expect(await testTeamStore(url)).toEqual({ reached: true, server: expect.stringMatching(/^\d+/), team: { records: 0 } });

    const cleanup: (() => Promise<void>)[] = [];
    try {
      const a = await openTeamDesk(url, cleanup);
      await a.approvals.createFirstOperator('alice', 'alice passphrase 1');
      const pinned = new DeskIdentity(join(a.dir, 'team')).pin()!.founding;
      expect(await testTeamStore(url)).toEqual({ reached: true, server: expect.any(String), team: { records: 1, founding: pinned } });
    } finally {
      for (const c of cleanup.reverse()) await c();
    }
  });

  it('names why it could not connect, and does not try a store on another machine without TLS', async () => {
    const down = `postgresql://desk@127.0.0.1:${server.port}/no_such_database`;
    expect(await testTeamStore(down)).toEqual({
      reached: false,
      reason: expect.stringMatching(/^Could not reach the team store: .*no_such_database.*\.$/),
    });
    expect(await testTeamStore('postgresql://desk@db.example.com/team', 'secret')).toEqual({
      reached: false,
      reason: expect.stringMatching(/^Not tried: the team store at db\.example\.com is on another machine: add sslmode=verify-full/),
    });
  });
});
