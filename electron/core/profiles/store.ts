import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { OPERATOR_ENVIRONMENTS, type PermissionGroup } from '../../../shared/api/environments.ts';
import { Permissions, type ProfileInput, type ProfileSummary } from '../../../shared/ipc.ts';
import { InputError } from '../errors.ts';
import { JsonFile } from '../store/jsonFile.ts';
import { maskKey, type Profile } from './profile.ts';

/** Seals and opens secrets; throws while the vault is locked. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const SealedPart = z.object({
  // Sealed too, and checked on open: an edited profiles.json must not send a key to another host.
  base_url: z.string(),
  key: z.string(),
  secret: z.string(),
  sub_keys: z.array(z.object({ uid: z.string(), key: z.string(), secret: z.string() })),
});

// What is kept on disk: the non-secret parts in clear (so that the Settings page can list profiles
// while the desk is locked), keys and secrets only inside `sealed`.
const StoredProfile = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(OPERATOR_ENVIRONMENTS),
  base_url: z.string(),
  svc: z.string(),
  key_masked: z.string(),
  permissions: Permissions,
  sub_keys: z.array(z.object({ uid: z.string(), key_masked: z.string() })),
  sealed: z.string(),
});
type StoredProfile = z.infer<typeof StoredProfile>;

const ProfilesDoc = z.object({ version: z.literal(1), active_id: z.string().nullable(), profiles: z.array(StoredProfile) });

export class ProfileStore {
  private readonly file: JsonFile<typeof ProfilesDoc>;

  constructor(path: string) {
    this.file = new JsonFile(path, ProfilesDoc, () => ({ version: 1 as const, active_id: null, profiles: [] }));
  }

  summaries(): ProfileSummary[] {
    return this.file.read().profiles.map((p) => ({
      id: p.id, name: p.name, environment: p.environment, base_url: p.base_url, svc: p.svc, key_masked: p.key_masked,
      permissions: p.permissions, sub_keys: p.sub_keys, built_in: false,
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

  /** The profile with its secrets, for the core's client only. */
  open(id: string, box: SecretBox): Profile {
    const p = this.file.read().profiles.find((x) => x.id === id);
    if (!p) throw new Error(`no profile ${id}`);
    const secrets = SealedPart.parse(JSON.parse(box.open(p.sealed)));
    if (secrets.base_url !== p.base_url) {
      throw new Error(`profiles.json was changed outside the desk: profile "${p.name}" now points at ${p.base_url}, but its key was stored for ${secrets.base_url}. The desk will not send the key there; edit the profile in Settings.`);
    }
    return {
      id: p.id, name: p.name, environment: p.environment, baseUrl: p.base_url, svc: p.svc, permissions: p.permissions,
      credentials: { key: secrets.key, secret: secrets.secret }, subKeys: secrets.sub_keys,
    };
  }

  /**
   * The profile as the input would make it, with secrets merged: on an edit, a secret left empty keeps
   * the stored one (for the main key and for each sub-account key whose key did not change).
   */
  resolve(input: ProfileInput, box: SecretBox): Profile {
    if (input.id && !this.has(input.id)) throw new InputError(['id'], `there is no profile ${input.id}`);
    const previous = input.id ? this.open(input.id, box) : null;
    const key = input.key ?? previous?.credentials.key;
    if (!key) throw new InputError(['key'], 'the API key is required');
    const secret = input.secret ?? (previous?.credentials.key === key ? previous.credentials.secret : undefined);
    if (!secret) throw new InputError(['secret'], 'the API secret is required for a new key');
    const subKeys = input.sub_keys.map((k, i) => {
      const old = previous?.subKeys?.find((o) => o.uid === k.uid);
      const subKey = k.key ?? old?.key;
      if (!subKey) throw new InputError(['sub_keys', i, 'key'], `the key of sub-account ${k.uid} is required`);
      const s = k.secret ?? (old?.key === subKey ? old.secret : undefined);
      if (!s) throw new InputError(['sub_keys', i, 'secret'], `the secret of sub-account ${k.uid}'s key is required`);
      return { uid: k.uid, key: subKey, secret: s };
    });
    return {
      id: input.id ?? randomUUID(), name: input.name, environment: input.environment, baseUrl: input.base_url.replace(/\/+$/, ''),
      svc: input.svc, permissions: input.permissions, credentials: { key, secret }, subKeys,
    };
  }

  save(profile: Profile, box: SecretBox): void {
    const doc = this.file.read();
    const stored: StoredProfile = {
      id: profile.id!, name: profile.name, environment: profile.environment as StoredProfile['environment'],
      base_url: profile.baseUrl, svc: profile.svc ?? 'Svc', key_masked: maskKey(profile.credentials.key),
      permissions: profile.permissions!, sub_keys: (profile.subKeys ?? []).map((k) => ({ uid: k.uid, key_masked: maskKey(k.key) })),
      sealed: box.seal(JSON.stringify({ base_url: profile.baseUrl, key: profile.credentials.key, secret: profile.credentials.secret, sub_keys: profile.subKeys ?? [] })),
    };
    const others = doc.profiles.filter((p) => p.id !== stored.id);
    this.file.write({ ...doc, profiles: [...others, stored] });
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

  /** Re-seals every profile (after the vault's key changed). */
  reseal(from: SecretBox, to: SecretBox): void {
    const doc = this.file.read();
    this.file.write({ ...doc, profiles: doc.profiles.map((p) => ({ ...p, sealed: to.seal(from.open(p.sealed)) })) });
  }
}

/** A field of the input is wrong; the path lets the form highlight it. */
