import type { ChannelName, ChannelRequest, ChannelResponse, DeskApi, DeskErrorBody, Reply } from '../../../shared/ipc.ts';
import { createWebDesk } from './webDesk.ts';

declare global {
  interface Window {
    desk?: DeskApi;
  }
}

/** An error answered by the core: its message is already a sentence for the operator. */
export class DeskError extends Error {
  constructor(readonly body: DeskErrorBody) {
    super(body.message);
    this.name = 'DeskError';
  }
}

let api: DeskApi | null | undefined;

export function deskApi(): DeskApi | null {
  if (api === undefined) api = window.desk ?? createWebDesk();
  return api;
}

export async function call<C extends ChannelName>(name: C, request: ChannelRequest<C>): Promise<ChannelResponse<C>> {
  const desk = deskApi();
  if (!desk) throw new DeskError({ kind: 'invalid_request', message: 'This page was opened without the desk\'s token. Open the address that `npm start` printed.' });
  const method = desk[name] as unknown as (r: ChannelRequest<C>) => Promise<Reply<ChannelResponse<C>>>;
  const reply = await method(request);
  if (!reply.ok) throw new DeskError(reply.error);
  return reply.data as ChannelResponse<C>;
}
