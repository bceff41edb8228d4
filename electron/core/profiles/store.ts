import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ENVIRONMENTS, OPERATOR_ENVIRONMENTS, type PermissionGroup } from '../../../shared/api/environments.ts';
import { Permissions, type AuditorProfileInput, type ProfileInput, ProfileSummary } from '../../../shared/ipc.ts';
import { InputError } from '../errors.ts';
import { JsonFile } from '../store/jsonFile.ts';
import type { SecretBox } from '../vault/box.ts';
import { secretBuffer } from '../vault/crypto.ts';
import { ALL_WRITE, maskKey, type Profile } from './profile.ts';

/** Seals and opens secrets; throws while the vault is locked (declared beside the vault that makes one). */
export type { SecretBox };

// The sealed part of a stored profile. Version 2 (bound to the profile's id, environment and base
// address): a JSON line without secrets, then the secrets' bytes back to back, so that they go from
// decryption to the HMAC in Buffers. Version 1 (unbound, sealed before the binding): JSON with strings.
const SealedHeader = z.object({
  // Also checked on open, as in version 1: an edited profiles.json must not send a key to another host.
  base_url: z.string(),
  key: z.string(),
  sub_keys: z.array(z.object({ uid: z.string(), key: z.string() })),
  /** Byte lengths of the main secret, then of each sub-account secret. */
  lengths: z.array(z.number().int().nonnegative()),
});
const LegacySealed = z.object({
  base_url: z.string(),
  key: z.string(),
  secret: z.string(),
  sub_keys: z.array(z.object({ uid: z.string(), key: z.string(), secret: z.string() })),
});

/** What a sealed profile is bound to: moved to another profile, environment or address, it does not open. */
export function profileBinding(p: { id: string; environment: string; base_url: string }): string {
  return JSON.stringify(['treasury-desk-profile', p.id, p.environment, p.base_url]);
}

function secretBytes(s: string | Buffer): Buffer {
  return typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s);
}

/** Zeroes every secret Buffer of a profile (on lock, switch or save); string secrets (the Sandbox's) cannot be. */
export function wipeProfile(p: Profile): void {
  if (Buffer.isBuffer(p.credentials.secret)) p.credentials.secret.fill(0);
  for (const k of p.subKeys ?? []) if (Buffer.isBuffer(k.secret)) k.secret.fill(0);
}

// What is kept on disk: the non-secret parts in clear (so that the Settings page can list profiles
// while the desk is locked), keys and secrets only inside `sealed`.
const StoredProfile = ProfileSummary.omit({ built_in: true })
  .extend({ sealed: z.string() })
  .refine((p) => p.auditor || (OPERATOR_ENVIRONMENTS as readonly string[]).includes(p.environment), {
    message: 'only an auditor profile may name the Sandbox environment',
    path: ['environment'],
  });
type StoredProfile = z.infer<typeof StoredProfile>;

/** Version 2: every profile's secrets are bound; an unbound blob is then refused, not opened. */
const ProfilesDoc = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  active_id: z.string().nullable(),
  profiles: z.array(StoredProfile),
});

const NO_PERMISSIONS: Permissions = { spot: 'none', futures: 'none', delivery: 'none', wallet: 'none', withdraw: 'none', unified: false };

/** An auditor profile's stand-in credentials: empty, and its client refuses before anything could sign with them. */
const NO_KEY = (): Pick<Profile, 'credentials' | 'permissions' | 'subKeys' | 'auditor'> => ({
  credentials: { key: '', secret: Buffer.alloc(0) },
  permissions: NO_PERMISSIONS,
  subKeys: [],
  auditor: true,
});

export class ProfileStore {
  private readonly file: JsonFile<typeof ProfilesDoc>;

  constructor(path: string) {
    this.file = new JsonFile(path, ProfilesDoc, () => ({ version: 2 as const, active_id: null, profiles: [] }));
  }

  summaries(): ProfileSummary[] {
    return this.file.read().profiles.map((p) => ({
      id: p.id,
      name: p.name,
      environment: p.environment,
      base_url: p.base_url,
      svc: p.svc,
      key_masked: p.key_masked,
      permissions: p.permissions,
      sub_keys: p.sub_keys,
      built_in: false,
      ...(p.auditor ? { auditor: true as const } : {}),
    }));
  }

  activeId(): string | null {
    return this.file.read().active_id;
  }

  setActive(id: string | null): void {
    const doc = this.file.read();
    this.file.write({ ...doc, active_id: id });
  }

  has(id: string): boolean {
    return this.file.read().profiles.some((p) => p.id === id);
  }

  /** The profile with its secrets (in Buffers the caller wipes), for the core's client only. */
  open(id: string, box: SecretBox): Profile {
    const doc = this.file.read();
    const p = doc.profiles.find((x) => x.id === id);
    if (!p) throw new Error(`no profile ${id}`);
    if (p.auditor) return { id: p.id, name: p.name, environment: p.environment, baseUrl: p.base_url, svc: p.svc, ...NO_KEY() };
    const secrets = box.isBound(p.sealed) ? this.openBound(p, box) : this.openLegacy(p, box, doc.version);
    if (secrets.base_url !== p.base_url) {
      wipeProfile({ ...secrets, name: '', environment: p.environment, baseUrl: '' });
      throw new Error(
        `profiles.json was changed outside the desk: profile "${p.name}" now points at ${p.base_url}, but its key was stored for ${secrets.base_url}. The desk will not send the key there; edit the profile in Settings.`,
      );
    }
    return {
      id: p.id,
      name: p.name,
      environment: p.environment,
      baseUrl: p.base_url,
      svc: p.svc,
      permissions: p.permissions,
      credentials: secrets.credentials,
      subKeys: secrets.subKeys,
    };
  }

  private openBound(p: StoredProfile, box: SecretBox): Pick<Profile, 'credentials' | 'subKeys'> & { base_url: string } {
    const plain = box.openBytes(p.sealed, profileBinding(p));
    try {
      const nl = plain.indexOf(0x0a);
      const header = SealedHeader.parse(JSON.parse(plain.subarray(0, nl).toString('utf8')));
      let at = nl + 1;
      const take = (n: number) => {
        const out = secretBuffer(n);
        plain.copy(out, 0, at, at + n);
        at += n;
        return out;
      };
      const secret = take(header.lengths[0] ?? 0);
      const subKeys = header.sub_keys.map((k, i) => ({ uid: k.uid, key: k.key, secret: take(header.lengths[i + 1] ?? 0) }));
      return { base_url: header.base_url, credentials: { key: header.key, secret }, subKeys };
    } finally {
      plain.fill(0);
    }
  }

  /** A blob sealed before bindings: its secrets pass through strings once, and unlock re-seals it bound (reseal()). */
  private openLegacy(p: StoredProfile, box: SecretBox, version: 1 | 2): Pick<Profile, 'credentials' | 'subKeys'> & { base_url: string } {
    if (version === 2) {
      throw new Error(
        `profiles.json was changed outside the desk: profile "${p.name}" holds a key sealed without its binding to this profile and address. The desk will not use it; enter the key and secret again in Settings.`,
      );
    }
    const old = LegacySealed.parse(JSON.parse(box.open(p.sealed)));
    return {
      base_url: old.base_url,
      credentials: { key: old.key, secret: Buffer.from(old.secret, 'utf8') },
      subKeys: old.sub_keys.map((k) => ({ uid: k.uid, key: k.key, secret: Buffer.from(k.secret, 'utf8') })),
    };
  }

  /**
   * The profile as the input would make it, with secrets merged: on an edit, a secret left empty keeps
   * the stored one (for the main key and for each sub-account key whose key did not change) unless the
   * base address or the environment changed: then every key and secret must be entered again, so that
   * an edit (or a script in the window) cannot send the stored key to another host.
   */
  resolve(input: ProfileInput, box: SecretBox): Profile {
    if (input.id && this.file.read().profiles.some((p) => p.id === input.id && p.auditor))
      throw new InputError(['id'], 'that is an auditor profile: it holds no key; add a new profile for a key');
    if (input.id && !this.has(input.id)) throw new InputError(['id'], `there is no profile ${input.id}`);
    const baseUrl = input.base_url.replace(/\/+$/, '');
    const stored = input.id ? this.file.read().profiles.find((p) => p.id === input.id)! : null;
    const moved = stored !== null && (stored.base_url !== baseUrl || stored.environment !== input.environment);
    if (moved) {
      const what = stored.base_url !== baseUrl ? 'base address' : 'environment';
      const again = `the ${what} changed, so the stored keys are not carried over: enter`;
      if (!input.key) throw new InputError(['key'], `${again} the API key and secret again`);
      if (!input.secret) throw new InputError(['secret'], `${again} the API secret again`);
      input.sub_keys.forEach((k, i) => {
        if (!k.key || !k.secret)
          throw new InputError(['sub_keys', i, k.key ? 'secret' : 'key'], `${again} the key and secret of sub-account ${k.uid} again`);
      });
    }
    const previous = stored && !moved ? this.open(stored.id, box) : null;
    try {
      const key = input.key ?? previous?.credentials.key;
      if (!key) throw new InputError(['key'], 'the API key is required');
      const prevSecret = previous?.credentials.key === key ? previous.credentials.secret : undefined;
      const secret = input.secret !== undefined ? secretBytes(input.secret) : prevSecret ? secretBytes(prevSecret) : undefined;
      if (!secret) throw new InputError(['secret'], 'the API secret is required for a new key');
      const subKeys = input.sub_keys.map((k, i) => {
        const old = previous?.subKeys?.find((o) => o.uid === k.uid);
        const subKey = k.key ?? old?.key;
        if (!subKey) throw new InputError(['sub_keys', i, 'key'], `the key of sub-account ${k.uid} is required`);
        const s = k.secret !== undefined ? secretBytes(k.secret) : old?.key === subKey ? secretBytes(old.secret) : undefined;
        if (!s) throw new InputError(['sub_keys', i, 'secret'], `the secret of sub-account ${k.uid}'s key is required`);
        return { uid: k.uid, key: subKey, secret: s };
      });
      return {
        id: input.id ?? randomUUID(),
        name: input.name,
        environment: input.environment,
        baseUrl,
        svc: input.svc,
        permissions: input.permissions,
        credentials: { key, secret },
        subKeys,
      };
    } finally {
      if (previous) wipeProfile(previous);
    }
  }

  save(profile: Profile, box: SecretBox): void {
    const doc = this.file.read();
    const stored: Omit<StoredProfile, 'sealed'> = {
      id: profile.id!,
      name: profile.name,
      environment: profile.environment as StoredProfile['environment'],
      base_url: profile.baseUrl,
      svc: profile.svc ?? 'Svc',
      key_masked: maskKey(profile.credentials.key),
      permissions: profile.permissions!,
      sub_keys: (profile.subKeys ?? []).map((k) => ({ uid: k.uid, key_masked: maskKey(k.key) })),
    };
    const sealed = this.sealProfile(stored, profile, box);
    const others = doc.profiles.filter((p) => p.id !== stored.id);
    this.file.write({ ...doc, profiles: [...others, { ...stored, sealed }] });
  }

  /** An auditor profile: nothing to seal, so nothing asked of the vault or the exchange. An exchange profile is not turned into one. */
  saveAuditor(input: AuditorProfileInput): ProfileSummary {
    const doc = this.file.read();
    const old = input.id ? doc.profiles.find((p) => p.id === input.id) : undefined;
    if (input.id && !old) throw new InputError(['id'], `there is no profile ${input.id}`);
    if (old && !old.auditor) throw new InputError(['id'], 'that profile holds an exchange key; an auditor profile is added as a new one');
    const stored: StoredProfile = {
      id: old?.id ?? randomUUID(),
      name: input.name,
      environment: input.environment,
      base_url: ENVIRONMENTS[input.environment].base_url,
      svc: ENVIRONMENTS[input.environment].svc,
      key_masked: '',
      permissions: NO_PERMISSIONS,
      sub_keys: [],
      sealed: '',
      auditor: true,
    };
    this.file.write({ ...doc, profiles: [...doc.profiles.filter((p) => p.id !== stored.id), stored] });
    return this.summaries().find((p) => p.id === stored.id)!;
  }

  private sealProfile(
    where: { id: string; environment: string; base_url: string },
    profile: Pick<Profile, 'credentials' | 'subKeys'>,
    box: SecretBox,
  ): string {
    const secrets = [profile.credentials.secret, ...(profile.subKeys ?? []).map((k) => k.secret)].map(secretBytes);
    const header = JSON.stringify({
      base_url: where.base_url,
      key: profile.credentials.key,
      sub_keys: (profile.subKeys ?? []).map((k) => ({ uid: k.uid, key: k.key })),
      lengths: secrets.map((b) => b.length),
    });
    const plain = Buffer.concat([Buffer.from(`${header}\n`, 'utf8'), ...secrets]);
    try {
      return box.seal(plain, profileBinding(where));
    } finally {
      plain.fill(0);
      for (const b of secrets) b.fill(0);
    }
  }

  /**
   * Seals a sub-account key the desk had the exchange make: it replaces that sub-account's key in the
   * profile (the secret goes from the answer into the sealed blob, never onto the file in clear).
   */
  keepSubKey(id: string, uid: string, key: string, secret: Buffer, box: SecretBox): void {
    const doc = this.file.read();
    const stored = doc.profiles.find((x) => x.id === id);
    if (!stored) throw new Error(`no profile ${id} to keep the key in`);
    const opened = this.open(id, box);
    try {
      const subKeys = [...(opened.subKeys ?? []).filter((k) => k.uid !== uid), { uid, key, secret: Buffer.from(secret) }];
      const sealed = this.sealProfile(stored, { credentials: opened.credentials, subKeys }, box);
      const sub_keys = [...stored.sub_keys.filter((k) => k.uid !== uid), { uid, key_masked: maskKey(key) }];
      this.file.write({ ...doc, profiles: doc.profiles.map((p) => (p.id === id ? { ...p, sub_keys, sealed } : p)) });
    } finally {
      wipeProfile(opened);
    }
  }

  /** Drops sub-account `uid`'s key from the profile when it is `key` (removed at the exchange). */
  dropSubKey(id: string, uid: string, key: string, box: SecretBox): void {
    const doc = this.file.read();
    const stored = doc.profiles.find((x) => x.id === id);
    if (!stored) return;
    const opened = this.open(id, box);
    try {
      if (!opened.subKeys?.some((k) => k.uid === uid && k.key === key)) return;
      const subKeys = opened.subKeys.filter((k) => k.uid !== uid);
      const sealed = this.sealProfile(stored, { credentials: opened.credentials, subKeys }, box);
      const sub_keys = stored.sub_keys.filter((k) => k.uid !== uid);
      this.file.write({ ...doc, profiles: doc.profiles.map((p) => (p.id === id ? { ...p, sub_keys, sealed } : p)) });
    } finally {
      wipeProfile(opened);
    }
  }

  needsBinding(): boolean {
    const doc = this.file.read();
    return doc.version === 1 && doc.profiles.length > 0;
  }

  /**
   * Re-seals, bound, every profile sealed before bindings existed (the core calls it once at each
   * unlock; after it, profiles.json is version 2 and refuses unbound blobs). Returns how many it re-sealed.
   */
  bindSealed(box: SecretBox): number {
    const doc = this.file.read();
    if (doc.version === 2) return 0;
    let count = 0;
    const profiles = doc.profiles.map((p) => {
      if (p.auditor || box.isBound(p.sealed)) return p;
      const opened = this.open(p.id, box);
      try {
        count++;
        return { ...p, sealed: this.sealProfile(p, opened, box) };
      } finally {
        wipeProfile(opened);
      }
    });
    this.file.write({ ...doc, version: 2, profiles });
    return count;
  }

  remove(id: string): boolean {
    const doc = this.file.read();
    const profiles = doc.profiles.filter((p) => p.id !== id);
    if (profiles.length === doc.profiles.length) return false;
    this.file.write({ ...doc, profiles, active_id: doc.active_id === id ? null : doc.active_id });
    return true;
  }

  /** The exchange said READ_ONLY or FORBIDDEN: the declared permission was wrong; keep what it proved. */
  correctPermission(id: string, group: PermissionGroup, level: 'none' | 'read'): boolean {
    const doc = this.file.read();
    const p = doc.profiles.find((x) => x.id === id);
    if (!p || p.permissions[group] === level || (level === 'read' && p.permissions[group] === 'none')) return false;
    p.permissions = { ...p.permissions, [group]: level };
    this.file.write(doc);
    return true;
  }

  /** As correctPermission, for sub-account `uid`'s key; its permissions start as all the profile declares. */
  correctSubPermission(id: string, uid: string, group: PermissionGroup, level: 'none' | 'read'): boolean {
    const doc = this.file.read();
    const k = doc.profiles.find((x) => x.id === id)?.sub_keys.find((x) => x.uid === uid);
    if (!k) return false;
    const now = k.permissions ?? ALL_WRITE;
    if (now[group] === level || (level === 'read' && now[group] === 'none')) return false;
    k.permissions = { ...now, [group]: level };
    this.file.write(doc);
    return true;
  }
}

/** A field of the input is wrong; the path lets the form highlight it. */
