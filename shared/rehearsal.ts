import { z } from 'zod';
// Zod's messages in words (installs them once).
import './zodWords.ts';

// An invitation to rehearse a team (docs/team.md §Rehearsing a team): what a second desk needs to join the
// first desk's Sandbox and its team store, as one code to copy. The key in it is a Sandbox key (play money
// on loopback, like the Sandbox's credentials.json: docs/security.md §Keys at rest), never a live one; the
// team store's URL carries no password.

export const INVITATION_PREFIX = 'tdrh1.';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why `url` is not a Sandbox's base address (loopback, /api/v4), or null. */
export function sandboxUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http:// address';
  if (!LOOPBACK.has(u.hostname)) return `must be on this machine (127.0.0.1): a Sandbox listens on loopback only, not on ${u.hostname}`;
  if (u.username || u.password || u.search || u.hash) return 'must be a plain address, without a user, query or fragment';
  if (!/\/api\/v4$/.test(u.pathname)) return 'must end in /api/v4, as the Sandbox prints it';
  return null;
}

/** Why `url` is not a team store's address to put in an invitation (postgresql://, no password), or null. */
export function teamUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:') return 'must be a postgresql:// URL';
  if (u.password || u.searchParams.has('password')) return 'must not carry a password: each desk types it';
  if (!u.pathname.replace(/^\//, '')) return 'must name a database';
  return null;
}

const field = (check: (v: string) => string | null) =>
  z.string().superRefine((v, ctx) => {
    const problem = check(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const Invitation = z
  .object({
    /** The Sandbox's base address, as the first desk's credentials.json has it. */
    sandbox: field(sandboxUrlProblem),
    /** The main account the key is of. */
    uid: z.string().regex(/^\d{1,20}$/, 'must be an account number (digits)'),
    /** A key pair the Sandbox made for this invitation through its admin API (POST /admin/v1/keys). */
    key: z.string().regex(/^[0-9a-f]{16,128}$/, 'must be a Sandbox key (hex)'),
    secret: z.string().regex(/^[0-9a-f]{16,256}$/, 'must be a Sandbox secret (hex)'),
    /** The team store the first desk uses, and its founding record's link; null before it is in a team. */
    team: z
      .object({
        url: field(teamUrlProblem),
        founding: z.string().regex(/^[0-9a-f]{64}$/, "must be the founding record's link (64 hex characters)"),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type Invitation = z.output<typeof Invitation>;

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The invitation as one URL-safe code: `tdrh1.` and the base64url of its JSON. */
export function encodeInvitation(inv: Invitation): string {
  return INVITATION_PREFIX + toBase64Url(JSON.stringify(Invitation.parse(inv)));
}

/** A pasted invitation, every field checked; the message names what is wrong. */
export function parseInvitation(text: string): Invitation {
  const code = text.trim();
  if (!code) throw new Error('The invitation is empty: paste the code "Invite a desk" showed at the first desk.');
  if (!code.startsWith(INVITATION_PREFIX))
    throw new Error(`That is not a rehearsal invitation: it should start with ${INVITATION_PREFIX} (copy all of it from the first desk).`);
  const body = code.slice(INVITATION_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(body) || body.length > 4000)
    throw new Error('The invitation is damaged: after tdrh1. it holds only letters, digits, - and _ (was it cut or wrapped?).');
  let raw: unknown;
  try {
    const b64 = body.replace(/-/g, '+').replace(/_/g, '/');
    raw = JSON.parse(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)));
  } catch {
    throw new Error('The invitation is damaged: it does not decode (was it cut short?).');
  }
  const parsed = Invitation.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `invitation's ${issue.path.join('.')}` : 'invitation';
    const what = issue.code === 'unrecognized_keys' ? `has a field this desk does not know (${issue.keys.join(', ')})` : issue.message;
    throw new Error(`The ${where} ${what}.`);
  }
  return parsed.data;
}
