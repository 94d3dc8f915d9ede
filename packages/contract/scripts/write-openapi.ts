// Writes the OpenAPI document generated from the endpoint table's sources next to package.json (with
// `--check`: fails when the committed one is stale). From the sources, so a fresh clone type-checks it unbuilt.

import { emitGenerated } from '../../../build/generated-file.js';
import { buildOpenApiDocument } from '../src/openapi.js';

emitGenerated(
  new URL('../openapi.json', import.meta.url),
  `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`,
);
