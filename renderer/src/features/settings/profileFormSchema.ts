import { z } from 'zod';
import { ProfileInput, type Permissions, type ProfileSummary } from '../../../../shared/ipc.ts';

/** What the form holds: every field a string (an empty key means "keep the stored one" when editing). */
export interface ProfileFormValues {
  id?: string;
  name: string;
  environment: 'live' | 'testnet' | 'futures';
  base_url: string;
  svc: string;
  key: string;
  secret: string;
  permissions: Permissions;
  sub_keys: { uid: string; key: string; secret: string }[];
}

const dropEmpty = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ''));

/**
 * The contract's own schema (shared/ipc.ts ProfileInput) behind the form: empty optional fields are
 * left out, as the core expects, and the paths of its issues are the form's field names. A new
 * profile needs a key and a secret; the contract cannot say so, since an edit may keep them.
 */
export const ProfileFormSchema = z
  .preprocess((raw) => {
    const v = raw as ProfileFormValues;
    return { ...dropEmpty({ ...v, id: v.id ?? '' }), permissions: v.permissions, sub_keys: v.sub_keys.map(dropEmpty) };
  }, ProfileInput)
  .superRefine((v, ctx) => {
    if (v.id) return;
    if (!v.key) ctx.addIssue({ code: 'custom', path: ['key'], message: 'an API key is required' });
    if (!v.secret) ctx.addIssue({ code: 'custom', path: ['secret'], message: 'an API secret is required' });
  });

export const NEW_PERMISSIONS: Permissions = {
  spot: 'read',
  futures: 'read',
  delivery: 'none',
  wallet: 'read',
  withdraw: 'none',
  unified: false,
};

export function initialValues(existing: ProfileSummary | undefined, defaults: { base_url: string; svc: string }): ProfileFormValues {
  const env = existing?.environment;
  return {
    ...(existing ? { id: existing.id } : {}),
    name: existing?.name ?? '',
    environment: env === 'testnet' || env === 'futures' ? env : 'live',
    base_url: existing?.base_url ?? defaults.base_url,
    svc: existing?.svc ?? defaults.svc,
    key: '',
    secret: '',
    permissions: existing?.permissions ?? NEW_PERMISSIONS,
    sub_keys: existing?.sub_keys.map((s) => ({ uid: s.uid, key: '', secret: '' })) ?? [],
  };
}
