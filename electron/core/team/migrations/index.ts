import * as m0001 from './0001_governance_records.ts';
import * as m0002 from './0002_send_leases.ts';

// Every migration in order, imported rather than found on disk at run time, so that the bundled main
// process carries them. A new schema change is a new numbered file added at the end of this list.
export const MIGRATIONS = [m0001, m0002];
