import { timingSafeEqual } from 'node:crypto';

// Both loopback hosts take their token the same way. Only `Authorization: Bearer <token>` exactly: a bare
// token or another scheme is refused, so the token is never accepted from a header that a proxy, a
// browser or a log treats as something other than a credential.

export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
