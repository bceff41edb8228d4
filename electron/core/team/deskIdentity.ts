import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../vault/file.ts';
import { deskPrivateKey, newDeskKey, type DeskCert } from './envelope.ts';
import type { KeyObject } from 'node:crypto';
import type { GovernanceBody } from '../journal/records.ts';

// What one desk keeps about its team, beside its operators' keys: its own desk key (0600, never sent),
// the certificate an operator signed for it, and the pin: which team it belongs to (the founding
// record's link, taken when it joined) and the furthest record it has verified, so that records cut
// from the end of the store are noticed too.

const Pin = z.strictObject({
  team: z.string().uuid(),
  /** The founding record's link; null while this desk is founding the team and has not written it yet. */
  founding: z.string().nullable(),
  seen: z.strictObject({ seq: z.number().int().min(0), link: z.string() }),
});
export type Pin = z.infer<typeof Pin>;

const StoredKey = z.union([
  z.strictObject({ private: z.string(), public: z.string() }),
  z.strictObject({ sealed: z.string(), public: z.string() }),
]);

/** Seals and opens the desk key's private half (the vault's box, bound to its purpose). */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

const Cert = z.strictObject({ team: z.string().uuid(), key: z.string(), by: z.string(), cert: z.string() });

export class DeskIdentity {
  private key: { private: KeyObject; public: string } | null = null;

  constructor(
    private readonly dir: string,
    /** The vault's seal, for a stored profiles' team: the desk key's private half is then never in clear on disk. */
    private readonly sealer?: Sealer,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** This desk's signing key, made the first time it is needed; a key kept in clear is sealed once a sealer is given. */
  deskKey(): { private: KeyObject; public: string } {
    if (this.key) return this.key;
    const path = join(this.dir, 'desk-key.json');
    const write = (pem: string, pub: string): void =>
      writeFileAtomic(
        path,
        `${JSON.stringify(this.sealer ? { sealed: this.sealer.seal(pem), public: pub } : { private: pem, public: pub })}\n`,
      );
    if (!existsSync(path)) {
      const k = newDeskKey();
      write(k.privatePem, k.publicKey);
    }
    if (process.platform !== 'win32') chmodSync(path, 0o600);
    const held = StoredKey.parse(JSON.parse(readFileSync(path, 'utf8')));
    let pem: string;
    if ('sealed' in held) {
      if (!this.sealer) throw new Error("This desk's team key is sealed by the vault: unlock the vault to use the team store.");
      pem = this.sealer.open(held.sealed);
    } else {
      pem = held.private;
      if (this.sealer) write(pem, held.public);
    }
    this.key = { private: deskPrivateKey(pem), public: held.public };
    return this.key;
  }

  cert(team: string): DeskCert | null {
    const path = join(this.dir, 'desk-cert.json');
    if (!existsSync(path)) return null;
    const c = Cert.parse(JSON.parse(readFileSync(path, 'utf8')));
    return c.team === team && c.key === this.deskKey().public ? { key: c.key, by: c.by, cert: c.cert } : null;
  }

  putCert(team: string, cert: DeskCert): void {
    writeFileAtomic(join(this.dir, 'desk-cert.json'), `${JSON.stringify({ team, ...cert }, null, 2)}\n`);
  }

  pin(): Pin | null {
    const path = join(this.dir, 'pin.json');
    return existsSync(path) ? Pin.parse(JSON.parse(readFileSync(path, 'utf8'))) : null;
  }

  putPin(pin: Pin): void {
    writeFileAtomic(join(this.dir, 'pin.json'), `${JSON.stringify(pin, null, 2)}\n`);
  }

  /** Freezes signed while the store was offline, to post on reconnection (kept-freezes.json). */
  kept(): GovernanceBody[] {
    const path = join(this.dir, 'kept-freezes.json');
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as GovernanceBody[]) : [];
  }

  putKept(bodies: GovernanceBody[]): void {
    writeFileAtomic(join(this.dir, 'kept-freezes.json'), `${JSON.stringify(bodies, null, 2)}\n`);
  }

  dropKept(body: GovernanceBody): void {
    this.putKept(this.kept().filter((b) => JSON.stringify(b) !== JSON.stringify(body)));
  }

  /** A new team's id, for the desk that founds it. */
  static newTeam(): string {
    return randomUUID();
  }
}

/** A desk as people and leases name it: the first 12 hex digits of its public key's SHA-256. */
export function deskFingerprint(publicKey: string): string {
  return `desk-${createHash('sha256').update(publicKey).digest('hex').slice(0, 12)}`;
}
