export { IncidentPage } from './IncidentPage.tsx';
export { LockControl } from './LockControl.tsx';
export { ManagePanel } from './ManagePanel.tsx';
export { NewSubAccount } from './NewSubAccount.tsx';
export { incidentHref } from './route.ts';
