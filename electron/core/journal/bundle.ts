import { createHash, createPrivateKey, createPublicKey, hkdfSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { applyGovernance } from '../governance/fold.ts';
import { emptyState, type GovernanceRules } from '../governance/state.ts';
import type { JournalSource } from './audit.ts';
import { isGovernance, RecordBody } from './records.ts';
import { journalIdOf, verifyJournal } from './verify.ts';

// A signed export an auditor checks without the desk. The MAC key never leaves the desk: the desk
// verifies every MAC itself, then signs the journal's lines and head with an Ed25519 key derived from
// the MAC key for this one purpose (HKDF, its own label), and puts that key's public half in the bundle.
// The auditor checks the signature, the chain of MACs each line names, the head, and every operator's
// own Ed25519 signature in the governance journal; the MACs themselves stay checkable only by the desk.

const INFO = 'treasury-desk-journal-audit-v1';
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export function auditKey(macKey: Buffer, journalId: string): { privateKey: KeyObject; publicKey: string } {
  const seed = Buffer.from(hkdfSync('sha256', macKey, Buffer.from(journalId, 'utf8'), INFO, 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  seed.fill(0);
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64');
  return { privateKey, publicKey };
}

/** A short fingerprint of an audit public key, for comparing with the one the desk shows. */
export function fingerprint(publicKey: string): string {
  return createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
}

const Section = z.strictObject({
  journal: z.enum(['profile', 'governance']),
  id: z.string(),
  lines: z.array(z.string()),
  /** SHA-256 of each line: the signature covers these, so a changed line is named, not just detected. */
  line_sha256: z.array(z.string()),
  head: z.strictObject({ seq: z.number().int().nonnegative(), mac: z.string() }),
  /** Governance only: what the signatures are checked under (operators join after the cooling-off). */
  rules: z.strictObject({ cooling_off_ms: z.number().nonnegative(), profiles: z.array(z.string()) }).optional(),
  audit_public_key: z.string(),
  signature: z.string(),
});
const Bundle = z.strictObject({
  format: z.literal('treasury-desk-journal-bundle'),
  version: z.literal(1),
  created_at: z.string(),
  journals: z.array(Section).min(1),
});
type Section = z.infer<typeof Section>;

const sha256 = (line: string): string => createHash('sha256').update(line, 'utf8').digest('hex');
const signedPart = (s: Omit<Section, 'signature' | 'lines'>): string =>
  JSON.stringify(['treasury-desk-journal-bundle-v1', s.journal, s.id, s.line_sha256, s.head, s.rules ?? null, s.audit_public_key]);

/** Builds the bundle; refuses a journal that fails verification (export the CSV and archive it instead). */
export function makeBundle(sources: { source: JournalSource; rules?: GovernanceRules }[], now: Date): string {
  const journals = sources
    .filter((x) => existsSync(x.source.path))
    .map(({ source, rules }) => {
      const key = source.key();
      const v = verifyJournal(source.path, key);
      const id = journalIdOf(source.path);
      const lines = readFileSync(source.path, 'utf8').split('\n').slice(0, v.records.length);
      const last = v.records.at(-1);
      const { privateKey, publicKey } = auditKey(key, id);
      const body = {
        journal: source.journal,
        id,
        lines,
        line_sha256: lines.map(sha256),
        head: { seq: v.records.length, mac: last?.mac ?? '' },
        ...(rules ? { rules: { cooling_off_ms: rules.coolingOffMs, profiles: rules.profiles() } } : {}),
        audit_public_key: publicKey,
      };
      return { ...body, signature: sign(null, Buffer.from(signedPart(body)), privateKey).toString('base64') };
    });
  return `${JSON.stringify({ format: 'treasury-desk-journal-bundle', version: 1, created_at: now.toISOString(), journals }, null, 1)}\n`;
}

export interface BundleCheck {
  ok: boolean;
  journals: {
    journal: string;
    id: string;
    entries: number;
    fingerprint: string;
    ok: boolean;
    entry: number | null;
    reason: string | null;
  }[];
}

function checkSection(s: Section): { entry: number | null; reason: string } | null {
  let pub: KeyObject;
  try {
    pub = createPublicKey({ key: Buffer.from(s.audit_public_key, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return { entry: null, reason: 'its audit public key is not an Ed25519 key' };
  }
  if (!verify(null, Buffer.from(signedPart(s)), pub, Buffer.from(s.signature, 'base64'))) {
    return {
      entry: null,
      reason: "the audit signature does not verify: the bundle's list of entries or its head was changed after the desk signed it",
    };
  }
  if (s.line_sha256.length !== s.lines.length) {
    const n = Math.min(s.line_sha256.length, s.lines.length) + 1;
    return {
      entry: n,
      reason: `the desk signed ${s.line_sha256.length} entries and the bundle holds ${s.lines.length}: entries were ${s.lines.length < s.line_sha256.length ? 'removed' : 'added'}`,
    };
  }
  let prev: string | null = null;
  const gov = emptyState();
  const rules: GovernanceRules | null = s.rules ? { coolingOffMs: s.rules.cooling_off_ms, profiles: () => s.rules!.profiles } : null;
  for (const [i, line] of s.lines.entries()) {
    const n = i + 1;
    if (sha256(line) !== s.line_sha256[i]) return { entry: n, reason: 'it was changed after the desk signed the bundle' };
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return { entry: n, reason: 'it is not valid JSON: it was changed' };
    }
    const { seq, at, prev: p, mac, ...rest } = raw;
    if (seq !== n) return { entry: n, reason: `it is numbered ${String(seq)}: entries were removed, added or moved` };
    if (prev !== null && p !== prev)
      return { entry: n, reason: 'it does not name the MAC of the entry before it: entries were removed or replaced' };
    const body = RecordBody.safeParse(rest);
    if (!body.success || typeof at !== 'string' || typeof mac !== 'string')
      return { entry: n, reason: 'it is not an entry the desk writes: it was changed' };
    if (rules && isGovernance(body.data)) {
      try {
        applyGovernance(gov, body.data, Date.parse(at), rules);
      } catch (e) {
        return { entry: n, reason: `its operator signature does not check: ${(e as Error).message}` };
      }
    }
    prev = mac;
  }
  if (s.head.seq !== s.lines.length)
    return { entry: s.lines.length + 1, reason: `the head says ${s.head.seq} entries, the bundle holds ${s.lines.length}` };
  if (s.lines.length > 0 && s.head.mac !== prev) return { entry: s.lines.length, reason: 'the last entry is not the one the head names' };
  return null;
}

/** Checks a bundle's text; never throws on bad input, it says what is wrong. */
export function verifyBundle(text: string): BundleCheck {
  let parsed: z.infer<typeof Bundle>;
  try {
    parsed = Bundle.parse(JSON.parse(text));
  } catch (e) {
    return {
      ok: false,
      journals: [
        {
          journal: '?',
          id: '?',
          entries: 0,
          fingerprint: '',
          ok: false,
          entry: null,
          reason: `not a journal bundle (${(e as Error).message.split('\n')[0]})`,
        },
      ],
    };
  }
  const journals = parsed.journals.map((s) => {
    const bad = checkSection(s);
    return {
      journal: s.journal,
      id: s.id,
      entries: s.lines.length,
      fingerprint: fingerprint(s.audit_public_key),
      ok: !bad,
      entry: bad?.entry ?? null,
      reason: bad?.reason ?? null,
    };
  });
  return { ok: journals.every((j) => j.ok), journals };
}
