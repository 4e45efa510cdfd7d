// ESLint rule: a file under apps/web/src/features/<a>/ may not import from features/<b>/.
// Import paths are resolved against the importing file, so relative and absolute forms are
// caught alike; shared code (components, api, lib, packages/shared) stays importable.
import { dirname, relative, resolve, sep } from 'node:path';

function featureOf(file, featuresRoot) {
  const rel = relative(featuresRoot, file);
  if (rel.startsWith('..') || rel === '') return undefined;
  return rel.split(sep)[0];
}

export const featureBoundaries = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { featuresDir: { type: 'string' } }, additionalProperties: false }],
    messages: {
      crossFeature: "Feature '{{from}}' imports feature '{{to}}': a feature never imports another feature; compose them in app/routes.",
    },
  },
  create(context) {
    const featuresRoot = resolve(context.cwd, context.options[0]?.featuresDir ?? 'apps/web/src/features');
    const from = featureOf(context.filename, featuresRoot);
    if (!from) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = featureOf(resolve(dirname(context.filename), source), featuresRoot);
      if (to && to !== from) context.report({ node, messageId: 'crossFeature', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
