// The import rules of docs/architecture.md §Import rules. `npm test` runs this; e2e/importRules.test... proves a broken rule fails it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-is-standalone',
      comment: 'shared/ imports no other folder of the project',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer|simulator|e2e|bench)/' },
    },
    {
      name: 'shared-no-node',
      comment: 'shared/ imports no node: module (it runs in the renderer too)',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-only-shared',
      comment: 'renderer/ imports shared/ only (and npm packages)',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(electron|simulator|e2e|bench)/' },
    },
    {
      name: 'renderer-no-node',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-no-electron-no-ui',
      comment: 'electron/core/ imports shared/ and Node built-ins; never electron, the renderer or the Sandbox',
      severity: 'error',
      from: { path: '^electron/core/' },
      to: { path: '^(renderer|simulator|e2e|bench)/|^electron/(host|main|preload|start)' },
    },
    {
      name: 'only-hosts-import-electron',
      comment: 'only electron/main.ts, electron/preload.ts, electron/confirm-preload.ts and electron/host/electron* import electron',
      severity: 'error',
      from: { pathNot: '^electron/(main\\.ts|preload\\.ts|confirm-preload\\.ts|host/electron[^/]*)$' },
      to: {
        path: '^electron$|node_modules/electron/',
        dependencyTypes: ['npm', 'npm-dev', 'npm-no-pkg', 'npm-unknown', 'type-only', 'core', 'unknown', 'undetermined'],
      },
    },
    {
      name: 'errors-import-no-core',
      comment:
        'electron/core/errors.ts imports nothing of electron/core (shared/ and zod only): every layer throws its errors, so it sits below them all and a type it needs lives in it (JournalDamage)',
      severity: 'error',
      from: { path: '^electron/core/errors\\.ts$' },
      to: { path: '^electron/core/' },
    },
    {
      name: 'client-is-the-bottom',
      comment:
        'electron/core/client/ (the door to the exchange: signing, the scheduler, the reads and their pagination) imports of the core only errors.ts; its tests may bring the rest of the desk',
      severity: 'error',
      from: { path: '^electron/core/client/', pathNot: '\\.test\\.ts$|/testkit/' },
      to: { path: '^electron/core/', pathNot: '^electron/core/(client/|errors\\.ts$)' },
    },
    {
      name: 'only-client-speaks-http',
      comment:
        "only electron/core/client/ performs HTTP to the exchange: nothing else of the core imports node:http, node:https, node:http2 or undici (the global fetch is not an import: eslint.config.js's no-restricted-globals holds it to client/). Tests and test kits may run servers",
      severity: 'error',
      from: { path: '^electron/core/', pathNot: '^electron/core/client/|\\.test\\.ts$|/testkit/' },
      to: { path: '^(node:)?(http|https|http2)$|(^|/)node_modules/undici/|^undici$' },
    },
    {
      name: 'vault-below-journal-and-profiles',
      comment:
        "electron/core/vault/ (the master key, its file and the crypto the core shares) imports nothing of journal/ or profiles/: they import it (the atomic file write, the journal register's tag, the secret box, secretBuffer). Tests may use them together",
      severity: 'error',
      from: { path: '^electron/core/vault/', pathNot: '\\.test\\.ts$|/testkit/' },
      to: { path: '^electron/core/(journal|profiles)/' },
    },
    {
      name: 'policy-below-governance',
      comment:
        "electron/core/policy/ (the rules' verdict on a write, judged again from what was signed, and a batch's strictest) imports nothing else of electron/core: governance/ reads the policy in force through it and approvals/ reviews with it, so it sits below both. Tests may bring the desk",
      severity: 'error',
      from: { path: '^electron/core/policy/', pathNot: '\\.test\\.ts$|/testkit/' },
      to: { path: '^electron/core/', pathNot: '^electron/core/policy/' },
    },
    {
      name: 'governance-below-approvals-and-journal',
      comment:
        "electron/core/governance/ (the pure fold of the signed records, and the quorum and policy read from it) imports of electron/core only policy/, operators/ and the journal's record schema (journal/records.ts): approvals/, team/ and the journal's audit and bundle import it, never the other way",
      severity: 'error',
      from: { path: '^electron/core/governance/', pathNot: '\\.test\\.ts$|/testkit/' },
      to: { path: '^electron/core/', pathNot: '^electron/core/(governance|policy|operators)/|^electron/core/journal/records\\.ts$' },
    },
    {
      name: 'approvals-never-import-team',
      comment:
        "electron/core/approvals/ imports nothing of team/: team/ implements the approvals' store interfaces (approvals/store.ts), and its store and leases are built in team/wiring.ts, which the core hands to the approvals as their TeamStores. Tests may bring a team store",
      severity: 'error',
      from: { path: '^electron/core/approvals/', pathNot: '\\.test\\.ts$|/testkit/' },
      to: { path: '^electron/core/team/' },
    },
    {
      name: 'journal-below-approvals',
      comment:
        'electron/core/journal/ imports nothing of approvals/ or team/: its audit and bundle replay governance with the fold of governance/, which approvals/ uses too. Tests may drive an Approvals to make records',
      severity: 'error',
      from: { path: '^electron/core/journal/', pathNot: '\\.test\\.ts$|/testkit/' },
      to: { path: '^electron/core/(approvals|team)/' },
    },
    {
      name: 'sandbox-stays-apart',
      comment:
        'simulator/ may use spec data from shared/api (and shared/money, the credentials.json schema in shared/sandbox, the seeded generator in shared/random, the SQLite binding convention in shared/sqliteBinding) but never the desk',
      severity: 'error',
      from: { path: '^simulator/' },
      to: { path: '^(electron|renderer|e2e|bench)/|^shared/(?!api/|money\\.ts$|sandbox\\.ts$|random\\.ts$|sqliteBinding\\.ts$)' },
    },
    {
      name: 'no-testkit-in-production',
      comment: 'test helpers live in testkit/ folders and only tests, benchmarks, the e2e folder and other testkit files import them',
      severity: 'error',
      from: { pathNot: '(\\.test\\.tsx?|\\.e2e\\.ts)$|/testkit/|^bench/|^e2e/' },
      to: { path: '/testkit/' },
    },
    {
      name: 'renderer-testkit-for-tests',
      comment: 'the renderer test kit (fake desk, fixtures) is imported by tests only, never by the app',
      severity: 'error',
      from: { path: '^renderer/', pathNot: '(\\.test\\.tsx?$|^renderer/src/testkit/)' },
      to: { path: '^renderer/src/testkit/' },
    },
    {
      name: 'features-through-index',
      comment:
        "a renderer feature imports another feature only through that feature's index.ts, so each folder says what it offers, or its panels.ts: what other pages draw before any schema is loaded (docs/performance.md §Opening the desk)",
      severity: 'error',
      from: { path: '^renderer/src/features/([^/]+)/' },
      to: {
        path: '^renderer/src/features/[^/]+/',
        pathNot: ['^renderer/src/features/$1/', '^renderer/src/features/[^/]+/(index|panels)\\.ts$'],
      },
    },
    {
      name: 'no-circular',
      comment: 'no import circles, type-only imports included (tsPreCompilationDeps keeps them in the graph)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
