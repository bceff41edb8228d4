// The addresses of a sub-account's pages, as this feature links to them (balances/route.ts reads them).

export const subAccountHref = (uid: string) => `#/sub-accounts/${uid}`;

export const incidentHref = (uid: string) => `#/sub-accounts/${uid}/incident`;
