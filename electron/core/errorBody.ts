import type { z } from 'zod';
import type { DeskErrorBody } from '../../shared/ipc.ts';
import { labelWords } from '../../shared/api/labels.ts';
import { asSentence } from '../../shared/sentence.ts';
import { WipedSecretError } from './client/sign.ts';
import {
  AnswerShapeError,
  AuditorProfileError,
  causeCode,
  ExchangeError,
  InputError,
  JournalDamagedWritesError,
  LockedError,
  NetworkError,
  NoProfileError,
} from './errors.ts';
import { JournalDamagedError } from './journal/verify.ts';
import { VaultError } from './vault/errors.ts';
import { TeamStoreOfflineError, TeamTamperError } from './team/errors.ts';

// How the core answers a failure: one structured body (kind, sentence, label, field path, channel) that
// both hosts carry unchanged. The sentence is for the operator; the channel and the path travel beside
// it, so that the log names them and the window can find the field without reading the sentence.

type Path = Array<string | number>;

function withWhere(body: DeskErrorBody, channel: string | undefined, path?: Path): DeskErrorBody {
  return { ...body, ...(path && path.length ? { path } : {}), ...(channel ? { channel } : {}) };
}

const clip = (text: string) => (text.length > 2000 ? `${text.slice(0, 1999)}…` : text);

function hostOf(origin: string | undefined): string | undefined {
  try {
    return origin ? new URL(origin).host : undefined;
  } catch {
    return undefined;
  }
}

/** A connection failure in an operator's words; the request and the system's code go under Details. */
export function networkSentence(e: NetworkError): string {
  const host = hostOf(e.origin);
  const at = host ? ` at ${host}` : '';
  const code = causeCode(e.cause);
  if (e.timedOut) return `The exchange${at} did not answer in time. Check this computer's network connection and try again.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `The exchange could not be reached${at}: no such host was found. Check the profile's base address and this computer's network connection.`;
  if (code === 'ECONNREFUSED')
    return `The exchange could not be reached${at}: nothing answered there. Check the profile's base address, and that the exchange (or the Sandbox) is running.`;
  if (e.status !== undefined)
    return `The exchange${at} gave an answer the desk could not read (HTTP ${e.status}). Check the profile's base address; if it is right, try again later.`;
  return `The connection to the exchange${at} failed before it answered. Check this computer's network connection and try again.`;
}

/** A failure thrown while a channel ran. Anything the core did not mean to say is "internal" (the stack goes to the log only). */
export function toErrorBody(e: unknown, channel?: string): DeskErrorBody {
  if (e instanceof ExchangeError)
    return withWhere(
      { kind: 'exchange', label: e.label, message: labelWords(e.label), ...(e.serverMessage ? { detail: clip(e.serverMessage) } : {}) },
      channel,
    );
  if (e instanceof AnswerShapeError) return withWhere({ kind: 'exchange', message: networkSentence(e), detail: clip(e.message) }, channel);
  if (e instanceof NetworkError) return withWhere({ kind: 'network', message: networkSentence(e), detail: clip(e.message) }, channel);
  if (e instanceof LockedError || e instanceof WipedSecretError) return withWhere({ kind: 'locked', message: e.message }, channel);
  if (e instanceof JournalDamagedWritesError)
    return withWhere({ kind: 'invalid_request', label: 'JOURNAL_DAMAGED', message: e.message }, channel);
  // A damaged governance journal (emptied, or behind its anchor after a folder restore) stops every governed write: say why.
  if (e instanceof JournalDamagedError)
    return withWhere(
      {
        kind: 'invalid_request',
        label: 'JOURNAL_DAMAGED',
        message: `${e.message} Nothing governed is drafted, signed or sent until it is settled.`,
      },
      channel,
    );
  if (e instanceof TeamTamperError)
    return withWhere({ kind: 'invalid_request', label: 'TEAM_STORE_TAMPERED', message: e.message }, channel);
  if (e instanceof TeamStoreOfflineError) return withWhere({ kind: 'network', label: 'TEAM_STORE_OFFLINE', message: e.message }, channel);
  if (e instanceof AuditorProfileError)
    return withWhere({ kind: 'invalid_request', label: 'AUDITOR_PROFILE', message: e.message }, channel);
  if (e instanceof NoProfileError) return withWhere({ kind: 'invalid_request', message: e.message }, channel);
  if (e instanceof InputError) return withWhere({ kind: 'invalid_request', message: asSentence(e.message) }, channel, e.path);
  // Vault messages are written for the operator (what happened, what to do) and never carry a secret.
  if (e instanceof VaultError)
    return withWhere(
      {
        kind: e.code === 'WRONG_PASSPHRASE' || e.code === 'UNLOCK_BACKOFF' ? 'locked' : 'invalid_request',
        label: e.code,
        message: e.message,
      },
      channel,
    );
  return withWhere({ kind: 'internal', message: 'The desk hit an internal error; the details are in its log.' }, channel);
}

/** A request that does not parse by its channel's schema: the first issue, on the field it names. */
export function refusedRequest(channel: string, issue: z.core.$ZodIssue): DeskErrorBody {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  return withWhere({ kind: 'invalid_request', message: asSentence(issue.message) }, channel, path);
}

/** The line the core's log keeps of a failure: here the channel and the field are named, beside the sentence. */
export function logLine(body: DeskErrorBody): string {
  const where = [body.channel, body.path?.length ? body.path.join('.') : undefined].filter(Boolean).join(' ');
  return `${where ? `${where} ` : ''}failed: ${body.kind}${body.label ? ` ${body.label}` : ''}: ${body.message}${body.detail ? ` (${body.detail})` : ''}`;
}
