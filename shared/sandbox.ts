import { z } from 'zod';

// The Sandbox's credentials.json (simulator/README.md): written by the Sandbox, read by the desk's
// built-in profile, its tests and its benchmarks. One schema for all of them.

export const SandboxKey = z.object({ uid: z.string(), key: z.string(), secret: z.string() });
export type SandboxKey = z.infer<typeof SandboxKey>;

export const SandboxCredentials = z.object({
  base_url: z.string().url(),
  admin_url: z.string().url(),
  admin_token: z.string().min(1),
  main: SandboxKey,
  read_only: SandboxKey,
  sub_accounts: z.array(SandboxKey),
});
export type SandboxCredentials = z.infer<typeof SandboxCredentials>;

/** Parses the text of a credentials.json; the message says which field is wrong. */
export function parseSandboxCredentials(text: string, where: string): SandboxCredentials {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`Sandbox credentials at ${where} are not JSON`);
  }
  const parsed = SandboxCredentials.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Sandbox credentials at ${where} are malformed: ${issue.path.join('.') || 'file'}: ${issue.message}`);
  }
  return parsed.data;
}
