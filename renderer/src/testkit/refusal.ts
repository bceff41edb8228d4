import type { ChannelName, Reply } from '../../../shared/ipc.ts';

/** The core's refusal of a request as both hosts carry it: the sentence, and the field it points at beside it. */
export function refusal(channel: ChannelName, path: Array<string | number>, message: string): Reply<never> {
  return { ok: false, error: { kind: 'invalid_request', message, path, channel } };
}
