// Apart from shared/channels/profiles.ts (its schemas): the window's pages say it from their first paint.

/** What the operator reads on every page that would need the exchange, while an auditor profile is active. */
export const AUDITOR_NO_KEY = 'This is an auditor profile: it has no exchange key';
