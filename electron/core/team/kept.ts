import { existsSync, readFileSync } from 'node:fs';
import { hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { writeFileAtomic } from '../vault/file.ts';
import { open, seal } from '../vault/crypto.ts';
import type { Sealer } from './deskIdentity.ts';

// Which team store each governance domain uses, kept across restarts in `team.json` of the data folder.
// The URL and the password are sealed (the vault's box for the stored profiles' domain, the per-desk
// file key for the Sandbox's): only the host and database, how the desk came to the team and the
// founding record it pinned are in clear, for the Settings page to say which team this is while locked.

export type TeamDomain = 'vault' | 'sandbox';

const Kept = z.strictObject({
  /** The URL and password, sealed: JSON {url, password?}. */
  sealed: z.string(),
  host: z.string(),
  database: z.string(),
  /** 'audited': joined from an auditor profile; what binds the desk to read only is the sealed copy of it. */
  how: z.enum(['founded', 'joined', 'audited']),
  /** The founding record's link this desk pinned. */
  founding: z.string(),
});
export type KeptTeam = z.infer<typeof Kept>;

const KeptFile = z.strictObject({ vault: Kept.optional(), sandbox: Kept.optional() });

const Connection = z.strictObject({
  url: z.string(),
  password: z.string().optional(),
  /**
   * Joined from an auditor profile, without an operator's consent: the domain then signs and sends nothing,
   * whichever profile is active. Sealed, so that whoever can write team.json cannot lift it.
   */
  auditor: z.boolean().optional(),
});
export type TeamConnection = z.infer<typeof Connection>;

/** The host and database a URL names, to show; never its user or password. */
export function whereOf(url: string): { host: string; database: string } {
  const u = new URL(url);
  const host = u.searchParams.get('host') ?? u.host;
  return { host, database: decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)' };
}

export class TeamKeeping {
  constructor(private readonly path: string) {}

  private read(): z.infer<typeof KeptFile> {
    if (!existsSync(this.path)) return {};
    try {
      return KeptFile.parse(JSON.parse(readFileSync(this.path, 'utf8')));
    } catch {
      throw new Error(
        `${this.path} is not the desk's record of its team stores: it was damaged or edited. Restore it from a backup, or remove it and join the team again from Settings.`,
      );
    }
  }

  /** What is shown of a domain's team store, without opening anything. */
  shown(domain: TeamDomain): Omit<KeptTeam, 'sealed'> | null {
    const k = this.read()[domain];
    if (!k) return null;
    const { sealed: _sealed, ...shown } = k;
    return shown;
  }

  /** The domain's team store and its pin, opened with `sealer`; null when the domain keeps its own journal. */
  open(domain: TeamDomain, sealer: Sealer): (TeamConnection & { founding: string }) | null {
    const k = this.read()[domain];
    if (!k) return null;
    return { ...Connection.parse(JSON.parse(sealer.open(k.sealed))), founding: k.founding };
  }

  put(domain: TeamDomain, conn: TeamConnection, how: KeptTeam['how'], founding: string, sealer: Sealer): void {
    const file = this.read();
    file[domain] = { sealed: sealer.seal(JSON.stringify(conn)), ...whereOf(conn.url), how, founding };
    writeFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`);
  }

  drop(domain: TeamDomain): void {
    const file = this.read();
    delete file[domain];
    writeFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`);
  }
}

/**
 * A sealer under a key derived from a per-desk key file (the Sandbox's journal key): the Sandbox's team
 * connection is then not in clear in team.json, though whoever reads the whole data folder can open it.
 */
export function fileKeySealer(fileKey: () => Buffer, purpose: string): Sealer {
  const key = (): Buffer => Buffer.from(hkdfSync('sha256', fileKey(), Buffer.alloc(0), `team-connection\u0000${purpose}`, 32));
  return {
    seal: (plain) => {
      const s = seal(key(), plain, purpose);
      return `${s.iv}.${s.tag}.${s.data}`;
    },
    open: (sealed) => {
      const [iv, tag, data] = sealed.split('.');
      const plain = iv && tag && data ? open(key(), { iv, tag, data }, purpose) : null;
      if (plain === null)
        throw new Error("The team store's connection in team.json could not be opened: it was edited, or sealed by another desk.");
      return plain;
    },
  };
}
