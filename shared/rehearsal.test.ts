import { describe, expect, it } from 'vitest';
import { encodeInvitation, parseInvitation, type Invitation } from './rehearsal.ts';

// A pasted invitation is checked field by field, and each refusal names what is wrong.

const good: Invitation = {
  sandbox: 'http://127.0.0.1:41234/api/v4',
  uid: '10000001',
  key: 'a'.repeat(32),
  secret: 'b'.repeat(64),
  team: { url: 'postgresql://desk@127.0.0.1:5432/team', founding: 'c'.repeat(64) },
};

/** An invitation code over any JSON (encodeInvitation itself refuses a bad one). */
const raw = (value: unknown): string => `tdrh1.${btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
const refusal = (text: string): string => {
  try {
    parseInvitation(text);
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('rehearsal invitations', () => {
  it('round-trips, with or without a team, and ignores the spaces a paste adds', () => {
    expect(parseInvitation(`  ${encodeInvitation(good)}\n`)).toEqual(good);
    expect(parseInvitation(encodeInvitation({ ...good, team: null }))).toEqual({ ...good, team: null });
    expect(encodeInvitation(good)).toMatch(/^tdrh1\.[A-Za-z0-9_-]+$/);
  });

  it('refuses what is not an invitation, or is damaged, saying so', () => {
    expect(refusal('')).toMatch(/^The invitation is empty/);
    expect(refusal('postgresql://x/y')).toMatch(/^That is not a rehearsal invitation: it should start with tdrh1\./);
    expect(refusal('tdrh1.abc def')).toMatch(/^The invitation is damaged: after tdrh1\./);
    expect(refusal(encodeInvitation(good).slice(0, 40))).toMatch(/^The invitation is damaged: it does not decode/);
    expect(refusal(raw([1, 2]))).toMatch(/^The invitation /);
  });

  it.each([
    [{ sandbox: 'http://10.0.0.7:41234/api/v4' }, /^The invitation's sandbox must be on this machine \(127\.0\.0\.1\)/],
    [{ sandbox: 'ftp://127.0.0.1/api/v4' }, /^The invitation's sandbox must be an http:\/\/ address/],
    [{ sandbox: 'http://127.0.0.1:41234/' }, /^The invitation's sandbox must end in \/api\/v4/],
    [{ sandbox: 'http://u:p@127.0.0.1:1/api/v4' }, /^The invitation's sandbox must be a plain address/],
    [{ sandbox: 'not a url' }, /^The invitation's sandbox is not a URL/],
    [{ uid: 'main' }, /^The invitation's uid must be an account number/],
    [{ key: 'KEY!' }, /^The invitation's key must be a Sandbox key/],
    [{ secret: '' }, /^The invitation's secret must be a Sandbox secret/],
    [{ team: { url: 'mysql://h/db', founding: 'c'.repeat(64) } }, /^The invitation's team\.url must be a postgresql:\/\/ URL/],
    [
      { team: { url: 'postgresql://desk:pw@127.0.0.1/team', founding: 'c'.repeat(64) } },
      /^The invitation's team\.url must not carry a password/,
    ],
    [{ team: { url: 'postgresql://127.0.0.1/team?password=pw', founding: 'c'.repeat(64) } }, /team\.url must not carry a password/],
    [{ team: { url: 'postgresql://127.0.0.1', founding: 'c'.repeat(64) } }, /^The invitation's team\.url must name a database/],
    [{ team: { url: good.team!.url, founding: 'nope' } }, /^The invitation's team\.founding must be the founding record's link/],
    [{ extra: 1 }, /^The invitation has a field this desk does not know \(extra\)/],
  ])('refuses %j, naming the field', (change, message) => {
    expect(refusal(raw({ ...good, ...change }))).toMatch(message);
  });

  it('refuses a missing field by its name', () => {
    const { key: _key, ...noKey } = good;
    expect(refusal(raw(noKey))).toMatch(/^The invitation's key /);
  });
});
