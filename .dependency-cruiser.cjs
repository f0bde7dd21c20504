/**
 * The import directions of docs/ARCHITECTURE.md#layers-and-import-directions, checked in CI (`npm run lint`).
 * domain ← commands ← processors; domain ← projections; read-api sees domain, commands and the
 * read-model repositories in projections; only infra/ and test/ may import infra/.
 */
const layer = (name, allowedFolders, allowedPackages) => ({
  name: `${name}-imports`,
  comment: `${name}/ may import only ${allowedFolders.join(', ')}${allowedPackages.length ? ` and ${allowedPackages.join(', ')}` : ''}`,
  severity: 'error',
  from: { path: `^${name}/`, pathNot: '\\.test\\.ts$' },
  to: {
    pathNot: [...allowedFolders.map((f) => `^${f}/`), ...allowedPackages.map((p) => `^node_modules/${p}(/|$)`)],
  },
});

module.exports = {
  forbidden: [
    layer('domain', ['domain'], ['zod', 'viem', '@noble', 'abitype', 'ox', 'canonicalize']),
    layer('commands', ['domain', 'commands'], []),
    layer('projections', ['domain', 'projections'], []),
    layer('processors', ['domain', 'commands', 'processors'], ['rxjs']),
    layer(
      'read-api',
      ['domain', 'commands', 'projections', 'read-api'],
      ['fastify', '@fastify', 'fastify-type-provider-zod', 'zod', '@modelcontextprotocol/sdk', '@x402/extensions'],
    ),
    {
      name: 'no-node-builtins-in-core',
      comment: 'domain, commands, projections and processors reach the outside world through ports only',
      severity: 'error',
      from: { path: '^(domain|commands|projections|processors)/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
