// Vitest's globalSetup of the server and browser projects: the run's database templates
// (test/db-template.ts), made once before the first test file and dropped after the last.
import type { TestProject } from 'vitest/node';
import { makeTemplates } from './db-template.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const templates = await makeTemplates(process.env.DATABASE_URL || undefined);
  project.provide('pgliteTemplate', templates.pgliteTemplate);
  project.provide('pgTemplate', templates.pgTemplate);
  return () => templates.drop();
}
