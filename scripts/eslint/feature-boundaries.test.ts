// The lint rule that keeps features apart, run through ESLint's own RuleTester.
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import tseslint from 'typescript-eslint';
import { featureBoundaries } from './feature-boundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });
const f = (p: string) => `${process.cwd()}/apps/web/src/features/${p}`;

tester.run('feature-boundaries', featureBoundaries, {
  valid: [
    { filename: f('alarm/pages/list.tsx'), code: "import { x } from '../components/table.tsx';" },
    { filename: f('alarm/pages/list.tsx'), code: "import { DataTable } from '../../../components/data-table.tsx';" },
    { filename: f('alarm/pages/list.tsx'), code: "import { request } from '../../../api/client.ts';" },
    { filename: f('alarm/pages/list.tsx'), code: "import { PATTERNS } from '@iotc/shared/validation';" },
    { filename: `${process.cwd()}/apps/web/src/app/routes/screens.ts`, code: "const a = () => import('../../features/alarm/pages/list.tsx');" },
  ],
  invalid: [
    { filename: f('alarm/pages/list.tsx'), code: "import { x } from '../../device/api/devices.ts';", errors: [{ messageId: 'crossFeature' }] },
    { filename: f('alarm/index.ts'), code: "export * from '../device/pages/a.tsx';", errors: [{ messageId: 'crossFeature' }] },
    { filename: f('alarm/pages/list.tsx'), code: "const m = import('../../device/pages/a.tsx');", errors: [{ messageId: 'crossFeature' }] },
  ],
});
