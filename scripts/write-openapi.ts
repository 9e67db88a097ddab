// Writes docs/openapi.json from the contract schemas (a test fails when the committed file is stale).
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../engine/contract/openapi.ts';

writeFileSync(
  new URL('../docs/openapi.json', import.meta.url),
  `${JSON.stringify(buildOpenApi(), null, 2)}\n`,
);
console.error('wrote docs/openapi.json');
