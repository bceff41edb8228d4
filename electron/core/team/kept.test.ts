import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileKeySealer, TeamKeeping } from './kept.ts';

// team.json: which team store each domain uses, the URL and password sealed, the rest shown.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function keeping(): { path: string; kept: TeamKeeping } {
  const dir = mkdtempSync(join(tmpdir(), 'desk-kept-'));
  dirs.push(dir);
  const path = join(dir, 'team.json');
  return { path, kept: new TeamKeeping(path) };
}

const key = randomBytes(32);
const sealer = fileKeySealer(() => key, 'sandbox');
const CONN = { url: 'postgresql://treasurer@db.example.com:5432/team?sslmode=verify-full', password: 'p4ss-w0rd-in-the-vault' };

describe('TeamKeeping', () => {
  it('keeps the URL and password sealed, shows only the host and database, and opens them again', () => {
    const { path, kept } = keeping();
    kept.put('sandbox', CONN, 'joined', 'ab'.repeat(32), sealer);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(CONN.password);
    expect(text).not.toContain('treasurer');
    expect(kept.shown('sandbox')).toEqual({ host: 'db.example.com:5432', database: 'team', how: 'joined', founding: 'ab'.repeat(32) });
    expect(kept.shown('vault')).toBeNull();
    expect(new TeamKeeping(path).open('sandbox', sealer)).toEqual({ ...CONN, founding: 'ab'.repeat(32) });
    kept.drop('sandbox');
    expect(kept.open('sandbox', sealer)).toBeNull();
  });

  it("refuses a connection sealed by another desk's key, and a damaged file, saying which", () => {
    const { path, kept } = keeping();
    kept.put('sandbox', CONN, 'founded', 'cd'.repeat(32), sealer);
    expect(() =>
      kept.open(
        'sandbox',
        fileKeySealer(() => randomBytes(32), 'sandbox'),
      ),
    ).toThrow(/could not be opened: it was edited, or sealed by another desk/);
    writeFileSync(path, '{"sandbox": 1}');
    expect(() => kept.shown('sandbox')).toThrow(/team\.json is not the desk's record of its team stores: it was damaged or edited/);
  });
});
