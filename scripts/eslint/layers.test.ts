// The lint rule that keeps the layers' directions, run through ESLint's own RuleTester with the
// repository's own layer list (eslint.config.js).
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import tseslint from 'typescript-eslint';
import config from '../../eslint.config.js';
import { layers } from './layers.js';

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });
const options = (config as { rules?: Record<string, unknown> }[]).find((c) => c.rules?.['layers/directions'])!.rules!['layers/directions'] as [string, object];
const server = (p: string) => `${process.cwd()}/apps/server/src/${p}`;
const web = (p: string) => `${process.cwd()}/apps/web/src/${p}`;
const opts = [options[1]];

tester.run('layers', layers, {
  valid: [
    { filename: server('modules/alarm/engine.ts'), code: "import { sql } from '../../db/client.ts';", options: opts },
    { filename: server('ingest/store.ts'), code: "import { topic } from '../lib/events.ts';", options: opts },
    { filename: server('app.ts'), code: "import { alarmEngine } from './modules/alarm/engine.ts';", options: opts },
    { filename: web('features/alarm/pages/list.tsx'), code: "import { DataTable } from '../../../components/data-table.tsx';", options: opts },
    { filename: web('app/routes/screens.ts'), code: "const a = () => import('../../features/alarm/pages/list.tsx');", options: opts },
    { filename: web('components/map/map-view.tsx'), code: "import { request } from '../../api/client.ts';", options: opts },
  ],
  invalid: [
    { filename: server('ingest/store.ts'), code: "import { markStalePacks } from '../modules/archive/job.ts';", options: opts, errors: [{ messageId: 'upward' }] },
    { filename: server('db/seed.ts'), code: "import type { X } from '../modules/auth/service.ts';", options: opts, errors: [{ messageId: 'upward' }] },
    { filename: server('lib/pdf-kit.ts'), code: "export * from '../modules/report/texts.ts';", options: opts, errors: [{ messageId: 'upward' }] },
    { filename: server('plugins/auth.ts'), code: "const m = import('../modules/auth/service.ts');", options: opts, errors: [{ messageId: 'upward' }] },
    { filename: web('components/map/map-view.tsx'), code: "import { x } from '../../features/track/api/track.ts';", options: opts, errors: [{ messageId: 'upward' }] },
    { filename: web('api/client.ts'), code: "import { router } from '../app/router.tsx';", options: opts, errors: [{ messageId: 'upward' }] },
    { filename: web('features/alarm/pages/list.tsx'), code: "import i18n from '../../../app/i18n.ts';", options: opts, errors: [{ messageId: 'upward' }] },
  ],
});
