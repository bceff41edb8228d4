import type { z } from 'zod';
import type { ChannelName, Channels } from '../../shared/ipc.ts';
import type { ApiClient } from './client/client.ts';
import { summarize, type Profile } from './profiles/profile.ts';

export interface HandlerDeps {
  profile: Profile;
  client: ApiClient;
}

type Parsed<C extends ChannelName> = z.output<Channels[C]['request']>;
/** What a handler returns is checked against the channel's response schema before it leaves the core. */
type Answer<C extends ChannelName> = z.input<Channels[C]['response']>;

export type Handlers = { [C in ChannelName]: (req: Parsed<C>, deps: HandlerDeps) => Promise<Answer<C>> };

export const handlers: Handlers = {
  profileCurrent: async (_req, { profile }) => summarize(profile),
  totalBalance: async (req, { client }) =>
    client.request({ method: 'GET', path: '/wallet/total_balance', query: [['currency', req.currency]] }),
};
