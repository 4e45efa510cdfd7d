// ESLint rule: the directions imports may go in. Each layer names the folders it may not import
// from (resolved against the importing file, so relative forms are caught alike): on the server,
// nothing in db/, ingest/, plugins/, realtime/ or lib/ imports modules/ (the modules build on
// them, not the reverse); on the web, app -> features -> components/lib/api only.
import { dirname, relative, resolve, sep } from 'node:path';

const inside = (dir, file) => {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
};

export const layers = {
  meta: {
    type: 'problem',
    schema: [
      {
        type: 'object',
        properties: {
          layers: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, dirs: { type: 'array', items: { type: 'string' } }, mayNotImport: { type: 'array', items: { type: 'string' } } },
              required: ['name', 'dirs', 'mayNotImport'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      upward: 'A file in {{layer}} imports {{target}}: layers import only downwards (README, "Layers"); pass in what it needs, or move the shared part down.',
    },
  },
  create(context) {
    const file = context.filename;
    const layer = (context.options[0]?.layers ?? []).find((l) => l.dirs.some((d) => inside(resolve(context.cwd, d), file)));
    if (!layer) return {};
    const banned = layer.mayNotImport.map((d) => [d, resolve(context.cwd, d)]);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(dirname(file), source);
      const hit = banned.find(([, dir]) => inside(dir, target));
      if (hit) context.report({ node, messageId: 'upward', data: { layer: layer.name, target: hit[0] } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
